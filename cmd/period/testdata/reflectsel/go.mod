module example.com/reflectsel

go 1.22
