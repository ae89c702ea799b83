//go:build go1.21

package rt

import (
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"
)

// startProfile writes a CPU profile of the test process to the file named
// by PERIOD_CPUPROFILE, for developers of Period: period test passes its
// environment to the test processes. The profile stops after
// PERIOD_CPUPROFILE_SECONDS seconds (default 60) or when the exploration
// ends, whichever comes first, so that a test too long to finish still
// leaves a profile. PERIOD_MEMPROFILE names a file for a heap profile
// written when the exploration ends. The returned function stops both.
// Several test processes (tests of a package, -p) would write one file in
// turn, the last one's profile, maybe empty, left: "%p" in a name stands
// for the process id.
func startProfile() func() {
	pid := strconv.Itoa(os.Getpid())
	mem := strings.ReplaceAll(os.Getenv("PERIOD_MEMPROFILE"), "%p", pid)
	name := strings.ReplaceAll(os.Getenv("PERIOD_CPUPROFILE"), "%p", pid)
	if name == "" {
		if mem == "" {
			return func() {}
		}
		return func() { writeHeap(mem) }
	}
	f, err := os.Create(name)
	if err != nil {
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return func() {}
	}
	secs, _ := strconv.Atoi(os.Getenv("PERIOD_CPUPROFILE_SECONDS"))
	if secs <= 0 {
		secs = 60
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			pprof.StopCPUProfile()
			f.Close()
		})
	}
	time.AfterFunc(time.Duration(secs)*time.Second, stop)
	return func() {
		stop()
		if mem != "" {
			writeHeap(mem)
		}
	}
}

func writeHeap(name string) {
	if f, err := os.Create(name); err == nil {
		pprof.Lookup("heap").WriteTo(f, 0)
		f.Close()
	}
}
