// Package outsidepoll has HTTP handlers, which run in goroutines of
// net/http (outside Period's control), poll channels that the test's
// goroutines wait on, as benthos's input tests do.
package outsidepoll

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func get(t *testing.T, url string) {
	resp, err := http.Get(url)
	if err != nil {
		t.Error(err)
		return
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
}

// The handler tells the test of each request with a send that must not
// block; the test waits for three of them. Go completes the send whenever
// the test is already waiting (a blocked receiver takes the value), so the
// test sees every request its client makes while it waits.
func TestHandlerNotifiesWithoutBlocking(t *testing.T) {
	seen := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case seen <- struct{}{}:
		default:
		}
	}))
	defer ts.Close()
	go func() {
		for {
			resp, err := http.Get(ts.URL)
			if err != nil {
				return // the server closed
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			time.Sleep(time.Millisecond)
		}
	}()
	for i := 0; i < 3; i++ {
		select {
		case <-seen:
		case <-time.After(time.Second):
			t.Fatalf("request %d: timed out", i)
		}
	}
}

// The reverse: the handler polls for the test's reply with a receive that
// must not block; the test offers it, with a timeout beside.
func TestHandlerPollsForReply(t *testing.T) {
	replies := make(chan string)
	got := make(chan string, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for {
			select {
			case v := <-replies:
				got <- v
				return
			default:
				time.Sleep(time.Millisecond)
			}
		}
	}))
	defer ts.Close()
	go get(t, ts.URL)
	select {
	case replies <- "ok":
	case <-time.After(time.Second):
		t.Fatal("the handler took no reply")
	}
	if v := <-got; v != "ok" {
		t.Fatalf("handler got %q", v)
	}
}

// Nobody waits: the handler's send takes its default, and the request
// ends.
func TestHandlerDefaultWhenNobodyWaits(t *testing.T) {
	seen := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case seen <- struct{}{}:
		default:
		}
	}))
	defer ts.Close()
	get(t, ts.URL)
	get(t, ts.URL)
}

// The handler sends the request to the test in a select that gives up after
// a real timeout (its time.After is a real timer: net/http's goroutines are
// outside control); the test waits for each request with a shorter one. A
// real timer that has not fired does not make the handler's select ready:
// the handler waits in the channel's queue, and the test takes the value
// (rt's TestOutsideSelectBesideRealTimer checks that the engine watches it).
func TestHandlerSendsWithTimeout(t *testing.T) {
	requests := make(chan string)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(5 * time.Millisecond) // work before the send: the test is already blocked
		select {
		case requests <- r.URL.Path:
		case <-time.After(5 * time.Second):
			http.Error(w, "timed out", http.StatusRequestTimeout)
		}
	}))
	defer ts.Close()
	for i := 0; i < 5; i++ {
		go get(t, ts.URL+"/x")
		select {
		case <-requests:
		case <-time.After(time.Second):
			t.Fatalf("request %d: timed out", i)
		}
	}
}
