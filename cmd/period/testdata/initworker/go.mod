module example.com/initworker

go 1.25
