module example.com/fixedport

go 1.22
