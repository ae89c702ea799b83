module example.com/idioms3

go 1.26
