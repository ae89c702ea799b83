module example.com/initloader

go 1.25
