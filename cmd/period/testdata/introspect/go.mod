module example.com/introspect

go 1.25
