module example.com/subrun

go 1.24
