package idioms3

import (
	"os"
	"sync"
	"testing"
	"time"
)

// echoReq is a request to the background service TestMain runs for the whole package.
type echoReq struct {
	n     int
	reply chan int
}

var (
	bgRequests = make(chan echoReq)
	bgStop     = make(chan struct{})
	bgDone     = make(chan struct{})
)

// TestMain starts a background service goroutine, runs the tests and stops it after m.Run.
func TestMain(m *testing.M) {
	go func() {
		defer close(bgDone)
		for {
			select {
			case r := <-bgRequests:
				r.reply <- r.n * 2
			case <-bgStop:
				return
			}
		}
	}()
	code := m.Run()
	close(bgStop)
	<-bgDone
	os.Exit(code)
}

// TestBackgroundServiceFromTestMain checks that several goroutines can use the service TestMain started.
func TestBackgroundServiceFromTestMain(t *testing.T) {
	var wg sync.WaitGroup
	got := make([]int, 5)
	for i := range 5 {
		wg.Go(func() {
			reply := make(chan int, 1)
			bgRequests <- echoReq{n: i, reply: reply}
			got[i] = <-reply
		})
	}
	wg.Wait()
	for i, v := range got {
		if v != 2*i {
			t.Errorf("got[%d] = %d, want %d", i, v, 2*i)
		}
	}
}

// initResult is filled by a goroutine that init starts.
var initResult = make(chan int, 1)

func init() {
	go func() {
		s := 0
		for i := 1; i <= 100; i++ {
			s += i
		}
		initResult <- s
	}()
}

// initValue receives the init goroutine's result once, whatever the number of test runs.
var initValue = sync.OnceValue(func() int { return <-initResult })

// TestGoroutineFromInit checks that a result computed by a goroutine init started arrives.
func TestGoroutineFromInit(t *testing.T) {
	done := make(chan int, 1)
	go func() { done <- initValue() }()
	select {
	case v := <-done:
		if v != 5050 {
			t.Fatalf("init goroutine computed %d, want 5050", v)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("init goroutine never delivered")
	}
}

// table is built by a goroutine that a package-level variable's initialiser starts.
type table struct {
	ready chan struct{}
	m     map[string]int
}

var words = startTable([]string{"alpha", "beta", "gamma", "delta"})

func startTable(ws []string) *table {
	tb := &table{ready: make(chan struct{}), m: make(map[string]int)}
	go func() {
		defer close(tb.ready)
		for i, w := range ws {
			tb.m[w] = i
		}
	}()
	return tb
}

// TestVarInitialiserGoroutine checks that the map a var initialiser's goroutine fills is visible after its ready channel closes.
func TestVarInitialiserGoroutine(t *testing.T) {
	<-words.ready
	if len(words.m) != 4 || words.m["gamma"] != 2 {
		t.Fatalf("table = %v", words.m)
	}
	var wg sync.WaitGroup
	for _, w := range []string{"alpha", "delta"} {
		wg.Go(func() {
			<-words.ready
			if _, ok := words.m[w]; !ok {
				t.Errorf("missing %q", w)
			}
		})
	}
	wg.Wait()
}
