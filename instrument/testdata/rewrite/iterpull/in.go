package iterpull

import "iter"

// iter.Pull and iter.Pull2 go through rt, which runs the coroutine as the
// goroutine that resumes it.
func First[V any](seq iter.Seq[V]) (V, bool) {
	next, stop := iter.Pull(seq)
	defer stop()
	return next()
}

func First2(seq iter.Seq2[string, int]) (string, int, bool) {
	next, stop := iter.Pull2[string, int](seq)
	defer stop()
	return next()
}
