module example.com/allocsperrun

go 1.25
