module example.com/embedgo

go 1.22
