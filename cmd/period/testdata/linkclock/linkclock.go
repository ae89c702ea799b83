// Package linkclock has a token bucket that reads the runtime's clocks
// through //go:linkname, as fast-clock packages do.
package linkclock

import (
	"sync"
	"time"
	"unsafe"
)

//go:noescape
//go:linkname now time.now
func now() (sec int64, nsec int32, mono int64)

//go:linkname nanotime runtime.nanotime
func nanotime() int64

// Bucket holds one token, refilled every interval.
type Bucket struct {
	mu       sync.Mutex
	interval time.Duration
	last     int64 // nanotime of the last take
	wall     int64 // wall clock of the last take, in ns
}

// NewBucket returns a full bucket.
func NewBucket(interval time.Duration) *Bucket {
	return &Bucket{interval: interval, last: nanotime() - int64(interval)}
}

// Take takes the token if the bucket has been refilled since the last take.
func (b *Bucket) Take() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := nanotime()
	if t-b.last < int64(b.interval) {
		return false
	}
	sec, nsec, _ := now()
	b.last, b.wall = t, sec*1e9+int64(nsec)
	return true
}

// LastTake is the wall clock instant of the last take.
func (b *Bucket) LastTake() time.Time {
	b.mu.Lock()
	defer b.mu.Unlock()
	return time.Unix(0, b.wall)
}

// The runtime's read-only data, through //go:linkname (gofiber/fiber
// tells constant strings so): another package's variable, in memory the
// process cannot write. Period's reset of package variables between
// schedules wrote it and the process died of a fault.
//
//go:linkname rodata runtime.rodata
var rodata byte

//go:linkname erodata runtime.erodata
var erodata byte

// ReadOnly tells whether s's bytes are in the read-only data.
func ReadOnly(s string) bool {
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	return p >= uintptr(unsafe.Pointer(&rodata)) && p < uintptr(unsafe.Pointer(&erodata))
}
