module example.com/creator

go 1.25
