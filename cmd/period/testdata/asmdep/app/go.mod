module example.com/app

go 1.26

require (
	example.com/asmlib v0.0.0
	example.com/purelib v0.0.0
)

replace (
	example.com/asmlib => ../asmlib
	example.com/purelib => ../purelib
)
