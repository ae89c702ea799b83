module example.com/tcpserver

go 1.25
