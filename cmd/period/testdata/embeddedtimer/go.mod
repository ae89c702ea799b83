module example.com/embeddedtimer

go 1.25
