module example.com/randnames

go 1.26
