module example.com/subhandoff

go 1.24
