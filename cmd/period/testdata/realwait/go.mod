module example.com/realwait

go 1.25
