module example.com/modreq

go 1.22

require example.com/helper v0.0.0

replace example.com/helper => ../helper
