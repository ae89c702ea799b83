module example.com/samename

go 1.24
