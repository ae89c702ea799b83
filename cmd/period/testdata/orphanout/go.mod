module example.com/orphanout

go 1.22
