module example.com/detachedwork

go 1.24
