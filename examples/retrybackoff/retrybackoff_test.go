package retrybackoff

import "testing"

func run(t *testing.T, connect func(*Server) error) {
	s := NewServer()
	s.Start()
	<-s.Announce
	if err := connect(s); err != nil {
		t.Fatalf("connect: %v", err)
	}
}

// Bug: the retry's result is discarded. Interleaving: main receives the announcement and
// dials before the server sets up; after sleeping 1h (virtual) the retry succeeds but the
// first error is returned.
// period:want fail
func TestConnect(t *testing.T) { run(t, Connect) }

// period:want none
func TestConnectFixed(t *testing.T) { run(t, ConnectFixed) }
