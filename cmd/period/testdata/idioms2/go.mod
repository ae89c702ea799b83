module example.com/idioms2

go 1.26
