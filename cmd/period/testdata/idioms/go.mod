module example.com/idioms

go 1.26
