package outsidelock

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The registry's mutex is locked by controlled goroutines and by the
// goroutine init started, which Period does not control: both must exclude
// each other (without it, the map is written by both at once and the
// process dies of a concurrent map write that go test never shows).
func TestRegistryWithBackgroundWriter(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Post("x")
			Set("y", i)
			for range 20 {
				_ = Count("x")
			}
		}()
	}
	wg.Wait()
	for Count("x") < 4 {
		Set("z", 1)
	}
}

// A genuine lost update beside the background writer is still found.
func TestLostUpdateBesideBackgroundWriter(t *testing.T) {
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Post("w")
			v := Count("n")
			Set("n", v+1)
		}()
	}
	wg.Wait()
	if v := Count("n"); v != 2 {
		t.Fatalf("lost update: %d", v)
	}
}

// A net/http handler (outside control) waits on a WaitGroup the test
// counts, and the test waits on one the handler counts down: both wait in
// the model (labstack/echo's timeout test got the handler's answer at once,
// and a handler's Done took the real counter below zero).
func TestWaitGroupsSharedWithHandler(t *testing.T) {
	var release, handled sync.WaitGroup
	var released atomic.Bool
	release.Add(1)
	handled.Add(1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		release.Wait()
		if !released.Load() {
			io.WriteString(w, "early")
		}
		handled.Done()
	}))
	defer srv.Close()
	go func() {
		time.Sleep(10 * time.Millisecond)
		released.Store(true)
		release.Done()
	}()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	handled.Wait()
	if len(b) != 0 {
		t.Fatalf("the handler's Wait returned before the test's Done: %q", b)
	}
}
