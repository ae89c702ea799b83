// Package racystats counts requests served by a background handler.
package racystats

// Stats is updated by the handler and read by the reporter with no
// synchronisation between them: a data race, although every value the
// reporter can see is acceptable to it.
type Stats struct {
	Served int
}

// Serve handles n requests and counts them, then reports on done.
func Serve(s *Stats, n int, done chan<- struct{}) {
	for i := 0; i < n; i++ {
		s.Served++
	}
	close(done)
}

// Snapshot reads the counter while Serve may still be writing it.
func Snapshot(s *Stats) int { return s.Served }
