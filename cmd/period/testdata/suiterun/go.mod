module example.com/suiterun

go 1.25
