module example.com/tupleargs

go 1.26
