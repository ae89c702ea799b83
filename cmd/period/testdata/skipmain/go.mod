module example.com/skipmain

go 1.24
