module example.com/slowcleanup

go 1.24
