module example.com/selfsignal

go 1.22
