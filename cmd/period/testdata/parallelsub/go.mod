module example.com/parallelsub

go 1.21
