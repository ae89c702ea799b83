//go:build go1.21 && linux

package rt

import (
	"syscall"
	"testing"
	"unsafe"
)

var globalProbe = new(int64)

// goMemory tells Go's memory (globals, the heap) from memory Go does not
// manage (mmap here, C.malloc in cgo programs).
func TestGoMemory(t *testing.T) {
	if globalsHi == 0 {
		t.Fatal("the binary's data and bss were not found in /proc/self/maps")
	}
	mem, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Munmap(mem)
	heap := escaped(new([64]byte))
	for _, c := range []struct {
		what string
		p    unsafe.Pointer
		want bool
	}{
		{"data", unsafe.Pointer(&dataProbe), true},
		{"bss", unsafe.Pointer(&bssProbe), true},
		{"global pointer", unsafe.Pointer(&globalProbe), true},
		{"heap", unsafe.Pointer(&heap[10]), true},
		{"mmap", unsafe.Pointer(&mem[8]), false},
	} {
		if got := goMemory(c.p); got != c.want {
			t.Errorf("goMemory(%s %p) = %v, want %v", c.what, c.p, got, c.want)
		}
	}
}

func init() {
	// Two goroutines write one address of memory Go does not manage
	// (mmap; pebble's cache blocks come from C.malloc), which an allocator
	// Period does not see orders in real programs: not watched, as go test
	// -race does not watch it.
	raceTwins["foreign-memory"] = struct {
		racy bool
		body func(t *testing.T)
	}{false, func(t *testing.T) {
		mem, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			t.Skip(err)
		}
		defer syscall.Munmap(mem)
		p := (*int64)(unsafe.Pointer(&mem[64]))
		done := make(chan bool)
		Go("go", func() {
			*W("child", p) = 1
			Send("done", done, true)
		})
		*W("parent", p) = 2
		Recv("join", done)
	}}
	programs["race-foreign-memory"] = raceTwins["foreign-memory"].body
}
