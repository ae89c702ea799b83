module example.com/collect

go 1.24
