module example.com/asmlib

go 1.26

require example.com/purelib v0.0.0

replace example.com/purelib => ../purelib
