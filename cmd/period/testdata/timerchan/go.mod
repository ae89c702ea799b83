module example.com/timerchan

go 1.26
