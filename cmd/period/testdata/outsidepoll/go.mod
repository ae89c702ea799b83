module example.com/outsidepoll

go 1.22
