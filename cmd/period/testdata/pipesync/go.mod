module example.com/pipesync

go 1.25
