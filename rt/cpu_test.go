package rt

import (
	"testing"
	"time"
)

// The watchdog calls a goroutine spinning only once the process has had
// hangAfter of CPU since the stall began (a starved process is not a spin):
// the process's CPU time must be known and grow while a goroutine computes.
func TestProcessCPUGrowsWhileComputing(t *testing.T) {
	before, ok := processCPU()
	if !ok {
		t.Skip("the system does not tell the process's CPU time")
	}
	x := uint64(1)
	for rounds := 0; ; rounds++ {
		if after, _ := processCPU(); after-before >= 20*time.Millisecond {
			break
		}
		if rounds == 1_000_000 { // 10^11 multiplications: minutes of CPU
			t.Fatalf("the process's CPU time did not grow while computing (%d rounds)", rounds)
		}
		for range 100000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	if x == 0 {
		t.Log(x)
	}
}
