module example.com/condlocker

go 1.25
