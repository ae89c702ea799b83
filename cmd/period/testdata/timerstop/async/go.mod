module example.com/timerstop/async

go 1.22
