module example.com/partbroken

go 1.22
