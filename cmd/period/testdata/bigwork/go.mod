module example.com/bigwork

go 1.22
