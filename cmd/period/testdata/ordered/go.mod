module example.com/ordered

go 1.25
