module example.com/subprocess

go 1.25
