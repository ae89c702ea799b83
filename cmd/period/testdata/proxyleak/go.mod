module example.com/proxyleak

go 1.25
