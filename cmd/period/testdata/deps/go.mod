module example.com/deps

go 1.25.0

require (
	example.com/worklib v0.0.0
	golang.org/x/sync v0.22.0
)

replace example.com/worklib => ./worklib
