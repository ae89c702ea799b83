// Package slowhandler waits, with a deadline, for an HTTP handler that
// sleeps for real: net/http runs handlers outside Period's control.
package slowhandler

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// The handler sleeps 1.5 s and the client allows 4 s: on a machine the
// response comes first (lestrrat-go/httprc's
// TestAdd_retry_logic_distinguishes_errors). Before, the clock waited a
// second for the handler, then jumped to the client's deadline while the
// handler still slept.
func TestDeadlineBeyondASleepingHandler(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		time.Sleep(1500 * time.Millisecond)
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("request: %v", err)
	}
	res.Body.Close()
}
