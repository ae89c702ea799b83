module example.com/netcancel

go 1.25
