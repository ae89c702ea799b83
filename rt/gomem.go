//go:build go1.21

package rt

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"unsafe"
)

// Race detection watches the memory Go manages, as Go's race detector does:
// the heap, the globals (the binary's data and bss) and goroutine stacks.
// Memory from C's allocator or from mmap (pebble's block cache, built with
// cgo, allocates with C.malloc) is reused by an allocator Period does not
// see: a value freed by one goroutine and a new one made at the same
// address by another looked like two unordered writes (ipfs/go-ds-pebble's
// TestBatch, a race go test -race does not report).

// dataProbe and bssProbe lie in the binary's data and bss.
var (
	dataProbe = []byte("period")
	bssProbe  int64
)

// globalsLo and globalsHi bound the binary's data and bss; both 0 when
// unknown (no /proc/self/maps): every address is then watched.
var globalsLo, globalsHi = globalsBounds()

func globalsBounds() (lo, hi uintptr) {
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return 0, 0
	}
	probes := []uintptr{uintptr(unsafe.Pointer(&dataProbe)), uintptr(unsafe.Pointer(&bssProbe))}
	found := 0
	sc := bufio.NewScanner(bytes.NewReader(maps))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) == 0 {
			continue
		}
		start, end, ok := bytes.Cut(f[0], []byte("-"))
		if !ok {
			continue
		}
		s, err1 := strconv.ParseUint(string(start), 16, 64)
		e, err2 := strconv.ParseUint(string(end), 16, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		for _, p := range probes {
			if uint64(p) >= s && uint64(p) < e {
				if found == 0 || uintptr(s) < lo {
					lo = uintptr(s)
				}
				if found == 0 || uintptr(e) > hi {
					hi = uintptr(e)
				}
				found++
			}
		}
	}
	if found != len(probes) {
		return 0, 0
	}
	return lo, hi
}

// goMemory tells whether race detection watches p: a global or an object of
// Go's heap (a stack address never reaches it: onStack).
func goMemory(p unsafe.Pointer) bool {
	a := uintptr(p)
	if globalsHi == 0 || a >= globalsLo && a < globalsHi {
		return true
	}
	return inHeap(a)
}
