module example.com/outsidelock

go 1.25
