module example.com/rerun

go 1.25
