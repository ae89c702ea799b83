// Package firstresponse calls a backend with a deadline.
package firstresponse

import (
	"errors"
	"time"
)

// ErrTimeout is returned when the backend did not answer in time.
var ErrTimeout = errors.New("timeout")

// Fetch runs work in a goroutine and waits at most timeout for its answer.
// The result channel is unbuffered: when the timeout wins, nobody ever
// receives, and the worker blocks in its send forever (goroutine leak).
func Fetch(work func() string, timeout time.Duration) (string, error) {
	ch := make(chan string)
	go func() { ch <- work() }()
	select {
	case v := <-ch:
		return v, nil
	case <-time.After(timeout):
		return "", ErrTimeout
	}
}

// FetchFixed gives the channel room for the one answer, so a late worker can
// always finish its send and exit.
func FetchFixed(work func() string, timeout time.Duration) (string, error) {
	ch := make(chan string, 1)
	go func() { ch <- work() }()
	select {
	case v := <-ch:
		return v, nil
	case <-time.After(timeout):
		return "", ErrTimeout
	}
}
