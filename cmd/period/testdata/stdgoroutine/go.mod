module example.com/stdgoroutine

go 1.22
