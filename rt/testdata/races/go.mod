module github.com/period-dev/period/rt/testdata/races

go 1.21
