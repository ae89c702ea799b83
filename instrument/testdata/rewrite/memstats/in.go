package memstats

import "runtime"

var readOnly *runtime.MemStats

func fresh() *runtime.MemStats { return readOnly }

// A statement: runtime.ReadMemStats stays the program's own call, its
// argument evaluated once.
func Heap() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	runtime.ReadMemStats(fresh())
	if runtime.ReadMemStats(&ms); ms.NumGC > 0 { // a header: the hook
		return 0
	}
	return ms.HeapAlloc
}

// A go or defer statement, a function value: the hook.
func Later(ms *runtime.MemStats) {
	defer runtime.ReadMemStats(ms)
	go runtime.ReadMemStats(ms)
	read := runtime.ReadMemStats // note: used as a value is not controlled
	read(ms)
}
