module example.com/slowhandler

go 1.25
