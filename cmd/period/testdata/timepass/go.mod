module example.com/timepass

go 1.24
