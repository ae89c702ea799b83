package p

import "net/http"

type nop struct{}

type pair struct {
	a nop
	b [0]int
}

func zeroSize() (*nop, *pair, *nop, *int) {
	return &nop{}, &pair{}, new(nop), new(int)
}

func get(c *http.Client, req *http.Request) (*http.Response, error) {
	return c.Do(req)
}
