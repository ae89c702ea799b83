module example.com/conndeadline

go 1.25
