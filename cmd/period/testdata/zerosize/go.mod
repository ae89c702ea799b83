module example.com/zerosize

go 1.22
