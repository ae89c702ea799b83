module example.com/selectfair

go 1.26
