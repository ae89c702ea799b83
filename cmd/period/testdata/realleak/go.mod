module example.com/realleak

go 1.22
