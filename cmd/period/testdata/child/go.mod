module example.com/child

go 1.24
