module example.com/fifo

go 1.25
