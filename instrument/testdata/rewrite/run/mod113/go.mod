module example.com/mod113

go 1.13
