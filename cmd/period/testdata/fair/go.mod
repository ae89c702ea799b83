module example.com/fair

go 1.25
