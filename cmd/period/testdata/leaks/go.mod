module example.com/leaks

go 1.22
