module example.com/worklib

go 1.25
