module example.com/longtimer

go 1.24
