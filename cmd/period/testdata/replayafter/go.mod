module example.com/replayafter

go 1.22
