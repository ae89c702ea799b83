module example.com/mod122

go 1.22
