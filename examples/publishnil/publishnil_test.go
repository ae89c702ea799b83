package publishnil

import "testing"

func run(t *testing.T, initFn func()) {
	Reset()
	done := make(chan bool)
	go func() { done <- Record("start") }()
	initFn()
	recorded := <-done
	want := 0
	if recorded {
		want = 1
	}
	if got := Count("start"); got != want {
		t.Fatalf("count = %d, want %d", got, want)
	}
}

// Bug: registry published before its map is made. Interleaving: main publishes it,
// the recorder locks and writes counts before main makes the map: nil map panic.
// period:want panic
func TestInit(t *testing.T) { run(t, Init) }

// period:want none
func TestInitFixed(t *testing.T) { run(t, InitFixed) }
