module example.com/deadlockcause

go 1.22
