package idioms3

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestContextCancelledWhenTestEnds checks that t.Context is live during the test and cancelled before cleanups, where its waiter is joined.
func TestContextCancelledWhenTestEnds(t *testing.T) {
	ctx := t.Context()
	done := make(chan error, 1)
	go func() {
		<-ctx.Done()
		done <- context.Cause(ctx)
	}()
	t.Cleanup(func() {
		if err := <-done; err != context.Canceled {
			t.Errorf("cause = %v, want context.Canceled", err)
		}
	})
	if ctx.Err() != nil {
		t.Fatalf("t.Context done during the test: %v", ctx.Err())
	}
	sub, cancel := context.WithCancel(ctx)
	defer cancel()
	if sub.Err() != nil {
		t.Fatal("derived context done")
	}
}

// TestCleanupOrderStopsGoroutines checks that cleanups run last-registered first, each stopping the goroutine started with it.
func TestCleanupOrderStopsGoroutines(t *testing.T) {
	var mu sync.Mutex
	var stopped []int
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		if !slices.Equal(stopped, []int{3, 2, 1}) {
			t.Errorf("stop order %v", stopped)
		}
	})
	for id := 1; id <= 3; id++ {
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			<-stop
			mu.Lock()
			stopped = append(stopped, id)
			mu.Unlock()
		}()
		t.Cleanup(func() {
			close(stop)
			<-done
		})
	}
}

// TestOutputFromGoroutines checks that t.Output accepts whole lines from several goroutines.
func TestOutputFromGoroutines(t *testing.T) {
	w := t.Output()
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for j := range 3 {
				line := fmt.Sprintf("worker %d line %d\n", i, j)
				n, err := w.Write([]byte(line))
				if err != nil || n != len(line) {
					t.Errorf("Write = %d, %v", n, err)
				}
			}
		})
	}
	wg.Wait()
	fmt.Fprint(w, "partial line flushed by Log")
	t.Log("done")
}

// recordHandler is a custom slog handler whose With* copies share one record store.
type recordHandler struct {
	store *recordStore
	attrs []slog.Attr
}

type recordStore struct {
	mu   sync.Mutex
	recs []string
}

func (h *recordHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h *recordHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	for _, a := range h.attrs {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
	}
	r.Attrs(func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	})
	h.store.mu.Lock()
	h.store.recs = append(h.store.recs, b.String())
	h.store.mu.Unlock()
	return nil
}

func (h *recordHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &recordHandler{store: h.store, attrs: append(slices.Clip(h.attrs), as...)}
}

func (h *recordHandler) WithGroup(string) slog.Handler { return h }

// TestSlogCustomHandlerShared checks that a slog handler shared by goroutines through Logger.With records every message with its attributes.
func TestSlogCustomHandlerShared(t *testing.T) {
	store := &recordStore{}
	base := slog.New(&recordHandler{store: store}).With("svc", "x")
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Go(func() {
			l := base.With("worker", i)
			for j := range 4 {
				l.Info("msg", "j", j)
			}
		})
	}
	wg.Wait()
	store.mu.Lock()
	defer store.mu.Unlock()
	if len(store.recs) != 20 {
		t.Fatalf("%d records", len(store.recs))
	}
	perWorker := map[string]int{}
	for _, r := range store.recs {
		if !strings.HasPrefix(r, "msg svc=x worker=") {
			t.Fatalf("record %q", r)
		}
		perWorker[strings.Fields(r)[2]]++
	}
	for k, c := range perWorker {
		if c != 4 {
			t.Fatalf("%s logged %d", k, c)
		}
	}
}
