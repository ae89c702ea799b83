module example.com/sharedfile

go 1.22
