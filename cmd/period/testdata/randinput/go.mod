module example.com/randinput

go 1.22
