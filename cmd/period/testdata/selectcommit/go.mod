module example.com/selectcommit

go 1.25
