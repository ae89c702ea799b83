module example.com/identity

go 1.25
