// Tests that list the process's goroutines, as goleak.VerifyNone does: under
// Period they must see the test's goroutines only, not Period's own.
package introspect

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// others lists the goroutines other than the caller's that are not the
// testing package's own (those wait in testing.(*T).Run or RunTests), by
// the first function of each stack, as goleak filters them.
func others() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var found []string
	for i, g := range strings.Split(string(buf), "\n\n") {
		lines := strings.Split(g, "\n")
		if i == 0 || len(lines) < 2 {
			continue // the caller's own goroutine comes first
		}
		first := lines[1]
		if k := strings.LastIndex(first, "("); k > 0 {
			first = first[:k]
		}
		switch first {
		case "testing.(*T).Run", "testing.RunTests", "testing.runTests", "testing.(*T).Parallel", "testing.(*M).Run":
			continue
		}
		found = append(found, lines[0]+" "+first)
	}
	return found
}

// verifyNone retries for a while, as goleak does, for goroutines on their way out.
func verifyNone(t *testing.T) {
	var left []string
	for i := 0; i < 50; i++ {
		if left = others(); len(left) == 0 {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Errorf("unexpected goroutines: %v", left)
}

func TestWorkersThenVerify(t *testing.T) {
	defer verifyNone(t)
	var wg sync.WaitGroup
	ch := make(chan int)
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range ch {
			}
		}()
	}
	for i := 0; i < 5; i++ {
		ch <- i
	}
	close(ch)
	wg.Wait()
}

// runtime.NumGoroutine counts the test's goroutines as they start and end,
// whatever else the process runs (Period's watchdog timer, stragglers of
// tests run before this one): a leak check by counts passes.
func TestNumGoroutineCountsOwn(t *testing.T) {
	base := runtime.NumGoroutine()
	done := make(chan struct{})
	var started sync.WaitGroup
	for i := 0; i < 3; i++ {
		started.Add(1)
		go func() {
			started.Done()
			<-done
		}()
	}
	started.Wait()
	if n := runtime.NumGoroutine(); n < base+3 {
		t.Fatalf("%d goroutines with 3 started, %d before", n, base)
	}
	close(done)
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines a second after the 3 ended, %d before", runtime.NumGoroutine(), base)
		}
		runtime.Gosched()
	}
}

// A subtest lists the process's goroutines and leaves out those whose
// stack mentions testing.(*T).Run (pion's CheckRoutines): its parent
// waits in t.Run, as under go test, and nothing else is there before it
// starts workers; while they wait on a channel, they are listed by the
// function of their go statement.
func TestSubtestListsGoroutines(t *testing.T) {
	listed := func() []string {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		var out []string
		for i, g := range strings.Split(string(buf), "\n\n") {
			if i == 0 || strings.Contains(g, "testing.(*T).Run(") || strings.Contains(g, "testing.RunTests(") || strings.Contains(g, "testing.(*M).Run(") {
				continue
			}
			out = append(out, g)
		}
		return out
	}
	t.Run("sub", func(t *testing.T) {
		if l := listed(); len(l) != 0 {
			t.Fatalf("before any goroutine: %q", l)
		}
		ch := make(chan int)
		done := make(chan struct{})
		go func() {
			<-ch
			close(done)
		}()
		runtime.Gosched()
		time.Sleep(time.Millisecond)
		l := listed()
		if len(l) != 1 || !strings.Contains(l[0], "TestSubtestListsGoroutines.func") || strings.Contains(l[0], "period-dev/period/rt") {
			t.Errorf("one waiting worker: %q", l)
		}
		ch <- 1
		<-done
	})
}

// Leak checkers that keep every goroutine whose stack does not contain
// main.main() (soheilhy/cmux's leakCheck, from grpc's) see no goroutine of
// Period's driver: under go test the test's parent is the main goroutine.
// Before, the driver's goroutine waiting in t.Run was listed, and its
// header changed once it had waited a minute ("[chan receive, 1
// minutes]"), which such a checker took for a new, leaked goroutine.
func TestOnlyTheMainGoroutineWaitsForTheTest(t *testing.T) {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for i, g := range strings.Split(string(buf), "\n\n") {
		if i > 0 && !strings.Contains(g, "main.main()") {
			t.Errorf("goroutine other than the main one: %s", g)
		}
	}
}

// A goroutine is in the dump from its go statement on, before it first
// runs (fortytw2/leaktest's test lists goroutines right after starting a
// leaky one). Before, Period's dump left it out until it had started.
func TestNewGoroutineIsListedAtOnce(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	for i := 0; i < 3; i++ {
		go func() { <-block }()
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		if n := strings.Count(string(buf), "created by example.com/introspect.TestNewGoroutineIsListedAtOnce"); n != i+1 {
			t.Fatalf("%d goroutines listed after starting %d:\n%s", n, i+1, buf)
		}
	}
}

// A test's parent waits in t.Run, and a paused parallel subtest in
// t.Parallel, both in a channel receive, as go test shows them: goleak
// ignores such goroutines only in that state (its own TestVerifyParallel
// and TestFind failed under Period, which showed a select and the
// subtest's own function).
func TestParentsWaitAsGoTestShows(t *testing.T) {
	t.Run("paused", func(t *testing.T) {
		t.Parallel()
	})
	t.Run("check", func(t *testing.T) {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		seen := map[string]bool{}
		for i, g := range strings.Split(string(buf), "\n\n") {
			lines := strings.Split(g, "\n")
			if i == 0 || len(lines) < 2 {
				continue
			}
			first := lines[1]
			if k := strings.LastIndex(first, "("); k > 0 {
				first = first[:k]
			}
			if strings.Contains(first, "TestParentsWaitAsGoTestShows.func1") {
				t.Errorf("the paused subtest shows its own function on top: %s", g)
			}
			if first == "testing.(*T).Run" || first == "testing.(*T).Parallel" {
				seen[first] = true
				if !strings.Contains(lines[0], "[chan receive") {
					t.Errorf("%s waits in another state: %s", first, lines[0])
				}
			}
		}
		if !seen["testing.(*T).Parallel"] {
			t.Errorf("no goroutine paused in t.Parallel:\n%s", buf)
		}
	})
}

var released chan struct{}

func waitForRelease() { <-released }

// A goroutine started by the test is "created by" the test's function and,
// once blocked, shows its own function (goleak's internal/stack TestAll,
// which retries while its goroutines are runnable, as this test does:
// Period's dump had only a "created by rt.Go" line for them). Before it
// first runs it shows the function Period runs, runnable.
func TestUnstartedGoroutineShowsItsFunction(t *testing.T) {
	released = make(chan struct{})
	defer close(released)
	go waitForRelease()
	for try := 0; try < 100; try++ {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		var mine string
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, "created by example.com/introspect.TestUnstartedGoroutineShowsItsFunction") {
				mine = g
			}
		}
		switch {
		case mine == "":
			t.Fatalf("the new goroutine is not listed, or not created by the test:\n%s", buf)
		case strings.Contains(mine, "[runnable"):
			runtime.Gosched()
		case !strings.Contains(mine, "example.com/introspect.waitForRelease("):
			t.Fatalf("the blocked goroutine does not show its function:\n%s", mine)
		default:
			return
		}
	}
	t.Fatal("the new goroutine never blocked")
}

// TestWaitsShowTheirOperation waits until the dump shows three goroutines
// parked in a select and one in a receive before it releases them, as
// caddyserver/certmagic's handshake tests do: under Period they are parked
// in the model, and the dump must say where, as go test's would.
func TestWaitsShowTheirOperation(t *testing.T) {
	never, release := make(chan int), make(chan int)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-never:
			case <-release:
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-release
	}()
	buf := make([]byte, 1<<20)
	for polls := 0; ; polls++ {
		dump := string(buf[:runtime.Stack(buf, true)])
		if strings.Count(dump, " [select]:") == 3 && strings.Count(dump, " [chan receive]:") >= 1 {
			break
		}
		if polls == 1000 {
			t.Fatalf("after 1000 polls the dump does not show 3 goroutines in a select and 1 in a receive:\n%s", dump)
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
}

// A callback of time.AfterFunc reads its own goroutine's id from
// runtime.Stack(buf, false), as x/net/http2's goroutine checks do: the
// dump of the caller's own stack always starts "goroutine N [" (it was
// empty there: a goroutine of the clock, which the listing leaves out).
func TestOwnStackInATimerCallback(t *testing.T) {
	ids := make(chan string, 1)
	time.AfterFunc(time.Millisecond, func() {
		buf := make([]byte, 4096)
		buf = buf[:runtime.Stack(buf, false)]
		id, _, _ := strings.Cut(strings.TrimPrefix(string(buf), "goroutine "), " ")
		ids <- id
	})
	if id := <-ids; id == "" || strings.Trim(id, "0123456789") != "" {
		t.Fatalf("goroutine id %q", id)
	}
}
