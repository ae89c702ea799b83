// Package netcancel: a request to a local HTTP server, canceled by its
// context after 50 ms while the handler waits a second and another
// goroutine sleeps a second (a slower context's timer, as failsafe-go's
// tests have). The client waits in net/http, for real (code Period does
// not control); the cancellation ends it within milliseconds of real time,
// well before the second is up, as on every real machine.
package netcancel

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func slowHandler(w http.ResponseWriter, r *http.Request) {
	timer := time.NewTimer(time.Second)
	select {
	case <-timer.C:
		w.WriteHeader(http.StatusOK)
	case <-r.Context().Done():
		timer.Stop()
	}
}

func TestCancelEndsRequestAtOnce(t *testing.T) {
	server := httptest.NewServer(http.HandlerFunc(slowHandler))
	defer server.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(50 * time.Millisecond)
		cancel()
	}()
	slow, cancelSlow := context.WithCancel(context.Background())
	defer cancelSlow()
	go func() {
		time.Sleep(time.Second)
		cancelSlow()
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, server.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	done := make(chan error)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	select {
	case err = <-done:
	case <-slow.Done():
		t.Fatal("the slow context ended first")
	}
	if err == nil {
		t.Fatal("the request was not canceled")
	}
	if d := time.Since(start); d >= time.Second {
		t.Errorf("the canceled request took %v: cancellation should end it at once", d)
	}
}

// A response that takes 200 ms of real time (the handler runs outside
// control and sleeps for real) against a ten-second timeout: on a real
// machine the response wins. While a goroutine waits for real I/O, virtual
// time does not jump further ahead than real time has passed (up to a
// second), so it wins here too.
func TestTimeoutDoesNotOutrunRealIO(t *testing.T) {
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(200 * time.Millisecond)
		w.WriteHeader(http.StatusOK)
	}))
	defer server.Close()
	done := make(chan error, 1)
	go func() {
		resp, err := http.Get(server.URL)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a ten-second timeout fired before a 200 ms response")
	}
}
