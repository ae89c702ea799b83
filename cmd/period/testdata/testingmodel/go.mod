module example.com/testingmodel

go 1.22
