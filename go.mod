module github.com/period-dev/period

go 1.25
