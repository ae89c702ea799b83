module example.com/genericchan

go 1.25
