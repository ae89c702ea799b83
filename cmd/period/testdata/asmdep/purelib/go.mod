module example.com/purelib

go 1.26
