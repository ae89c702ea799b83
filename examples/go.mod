module github.com/period-dev/period/examples

go 1.21
