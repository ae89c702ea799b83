// Package hedge sends a request to several replicas and keeps the first answer.
package hedge

type Replica func(q string) string

// QueryBuggy: replies go to an unbuffered channel; once the caller has its
// answer (or gives up), later replicas block forever.
func QueryBuggy(q string, replicas []Replica, giveUp <-chan struct{}) (string, bool) {
	ch := make(chan string)
	for _, r := range replicas {
		go func(r Replica) { ch <- r(q) }(r)
	}
	select {
	case a := <-ch:
		// drain the others in the background
		go func() {
			for i := 1; i < len(replicas); i++ {
				<-ch
			}
		}()
		return a, true
	case <-giveUp:
		return "", false
	}
}

// Query gives every replica room to answer without a reader.
func Query(q string, replicas []Replica, giveUp <-chan struct{}) (string, bool) {
	ch := make(chan string, len(replicas))
	for _, r := range replicas {
		go func(r Replica) { ch <- r(q) }(r)
	}
	select {
	case a := <-ch:
		return a, true
	case <-giveUp:
		return "", false
	}
}
