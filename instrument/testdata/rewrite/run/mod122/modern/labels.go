package modern

// Gotos jumps to labels on statements the rewriter turns into blocks with
// temporaries (a select, a range over a channel), from after and before
// them, as hashicorp/raft's replication loop does; break and continue name
// the same labels.
func Gotos(ch chan int, stop chan bool) (got []int) {
	n := 0
	goto POLL
SKIP:
	n++
POLL:
	select {
	case v, ok := <-ch:
		if !ok {
			break POLL
		}
		got = append(got, v)
		if v%2 == 0 {
			goto SKIP
		}
		goto POLL
	case <-stop:
		return got
	default:
	}
	if n < 2 {
		goto DRAIN
	}
	return append(got, -n)
DRAIN:
	for v := range ch {
		if v < 0 {
			continue DRAIN
		}
		if v > 100 {
			break DRAIN
		}
		got = append(got, v)
		goto DRAIN
	}
	return append(got, -n)
}
