module example.com/poolrun

go 1.26
