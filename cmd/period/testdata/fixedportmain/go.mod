module example.com/fixedportmain

go 1.24
