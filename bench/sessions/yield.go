package sessions

import "runtime"

func runtimeYield() { runtime.Gosched() }
