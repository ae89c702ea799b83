module example.com/failmsg

go 1.22
