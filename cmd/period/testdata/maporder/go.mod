module example.com/maporder

go 1.26
