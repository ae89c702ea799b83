module example.com/testargs

go 1.24
