module example.com/panicvalue

go 1.25
