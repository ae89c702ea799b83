module example.com/modreq113

go 1.13

require example.com/helper v0.0.0

replace example.com/helper => ../helper
