//go:build !amd64

package asmlib

func nop() {}
