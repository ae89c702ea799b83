module example.com/helper

go 1.18
