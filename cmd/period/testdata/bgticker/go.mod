module example.com/bgticker

go 1.26
