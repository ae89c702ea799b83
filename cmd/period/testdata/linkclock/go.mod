module example.com/linkclock

go 1.24
