package asmlib

func nop()
