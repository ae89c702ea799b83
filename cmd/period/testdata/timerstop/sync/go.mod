module example.com/timerstop/sync

go 1.24
