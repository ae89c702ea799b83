package app

import "example.com/helper"

func Quad(n int) int { return helper.Double(helper.Double(n)) }
