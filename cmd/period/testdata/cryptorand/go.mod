module example.com/cryptorand

go 1.26
