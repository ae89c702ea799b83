module example.com/timeseed

go 1.25
