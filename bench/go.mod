module github.com/period-dev/period/bench

go 1.13
