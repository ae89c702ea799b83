module example.com/cleanuppass

go 1.25
