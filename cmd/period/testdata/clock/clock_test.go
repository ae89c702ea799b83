// Virtual time as a real clock shows it: time moves a little between
// readings, so sleep-then-compare checks pass as they do on every machine.
package clock

import (
	"sync"
	"testing"
	"time"
)

func TestSleepThenCompare(t *testing.T) {
	start := time.Now()
	d := 10 * time.Millisecond
	time.Sleep(d)
	if !time.Now().After(start.Add(d)) {
		t.Errorf("time.Now() is not after start+%v", d)
	}
	if time.Since(start) < d {
		t.Errorf("time.Since(start) = %v < %v", time.Since(start), d)
	}
}

func TestReadingsDiffer(t *testing.T) {
	var mu sync.Mutex
	a := time.Now()
	mu.Lock()
	mu.Unlock()
	if b := time.Now(); !b.After(a) {
		t.Errorf("two readings separated by a key point are equal: %v", a)
	}
}

func TestPacedWorkers(t *testing.T) {
	const n, every = 5, 20 * time.Millisecond
	start := time.Now()
	var wg sync.WaitGroup
	tick := time.NewTicker(every)
	defer tick.Stop()
	for i := 0; i < n; i++ {
		<-tick.C
		wg.Add(1)
		go func() { defer wg.Done() }()
	}
	wg.Wait()
	if el := time.Since(start); el < n*every {
		t.Errorf("paced %d tasks every %v in %v", n, every, el)
	}
}
