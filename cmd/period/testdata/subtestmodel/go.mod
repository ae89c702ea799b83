module example.com/subtestmodel

go 1.24
