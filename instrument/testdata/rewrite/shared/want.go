//line in.go:1
package shared

import "io"
//line in.go:3
import _prt "github.com/period-dev/period/rt"

var (
	count int
	table = map[string]int{}
	items []int
)

type node struct {
	val  int
	next *node
	arr  [4]int
}

type pair struct{ a, b int }

func idx() int { return 0 }

func Shared(p *node, arr *[4]int, s []int, m map[string]int, pp *pair) int {
	*_prt.W("in.go:22", _prt.R("in.go:22", &count))++
	*_prt.W("in.go:23", _prt.R("in.go:23", &count)) += 2
	*_prt.W("in.go:24", &count) = *_prt.R("in.go:24", &count) * 2
	x := *_prt.R("in.go:25", &count)
	_prt.MapW("in.go:26", *_prt.R("in.go:26", &table))["a"] = *_prt.R("in.go:26", &x)
	_prt.MapW("in.go:27", _prt.MapR("in.go:27", *_prt.R("in.go:27", &table)))["b"]++
	delete(_prt.MapW("in.go:28", *_prt.R("in.go:28", &table)), "a")
	v, ok := _prt.MapR("in.go:29", *_prt.R("in.go:29", &table))["c"]
	_, _ = v, ok
	*_prt.W("in.go:31", &items) = append(*_prt.R("in.go:31", &items), *_prt.R("in.go:31", &x))
	*_prt.W("in.go:32", _prt.R("in.go:32", &s[idx()])) += 3
	*_prt.W("in.go:33", &p.val) = *_prt.R("in.go:33", &(*_prt.R("in.go:33", &p.next)).val)
	*_prt.W("in.go:34", &p.arr[1]) = 2
	*_prt.W("in.go:35", &arr[0]) = *_prt.R("in.go:35", (&x))
	_prt.MapW("in.go:36", m)["k"] = len(m)
	*_prt.W("in.go:37", pp) = pair{a: 1, b: *_prt.R("in.go:37", &count)}
	q := &p.val
	*_prt.W("in.go:39", q) = 4
	var local pair
	local.a = 1
	y := local.a + local.b
	_ = &count
	if *_prt.R("in.go:44", &io.EOF) != nil {
		y++
	}
	return *_prt.R("in.go:47", &x) + y + *_prt.R("in.go:47", &s[0])
}

func Captured() int {
	n := 0
	done := make(chan bool)
	_prt.Go("in.go:53", func() {
		*_prt.W("in.go:54", _prt.R("in.go:54", &n))++
		_prt.Send("in.go:55", done, true)
	})
	_prt.Recv("in.go:57", done)
	return *_prt.R("in.go:58", &n)
}

func AddrTaken() int {
	total := 0
	add(&total)
	return *_prt.R("in.go:64", &total)
}

func add(p *int) { *_prt.W("in.go:67", _prt.R("in.go:67", p)) += 1 }

func Closure() func() int {
	var st struct{ a, b int }
	return func() int {
		*_prt.W("in.go:72", _prt.R("in.go:72", &st.a))++
		return *_prt.R("in.go:73", &st.a) + *_prt.R("in.go:73", &st.b)
	}
}

type buf struct{ b []byte }

func (b *buf) add(c byte) { *_prt.W("in.go:79", &b.b) = append(*_prt.R("in.go:79", &b.b), c) }

func Policy(xs []int, param int) {
			done := make(chan bool) // captured, never written again: not instrumented
			later := 0              // captured and written: instrumented everywhere
			var out buf             // captured, written through a pointer method
			v, err := 1, error(nil) // err is reassigned by the := below
			w, _prt0 := 2, error(nil)
//line in.go:86
 *_prt.W("in.go:86", &err) = _prt0
			for _, x := range xs { // go 1.22+: one x per iteration, never written
		_prt.Go("in.go:88", func() {
			*_prt.W("in.go:89", &later) = x + param + v + w
			out.add('a')
			_ = *_prt.R("in.go:91", &err)
			_prt.Send("in.go:92", done, true)
		})
	}
	*_prt.W("in.go:95", _prt.R("in.go:95", &later))++
	out.add('b')
	_prt.Recv("in.go:97", done)
}

func pair2() (int, error) { return 0, nil }

func Reassign(xs []int, m map[int]int) error {
	var err error
	var k, last int
	done := make(chan bool)
	_prt.Go("in.go:106", func() {
		_ = *_prt.R("in.go:107", &err)
		_ = *_prt.R("in.go:108", &k) + *_prt.R("in.go:108", &last)
		_prt.Send("in.go:109", done, true)
	})
			y, _prt1 := pair2()
//line in.go:111
 *_prt.W("in.go:111", &err) = _prt1
			if z, err := pair2(); err != nil { // a new err: not the shared one
		return err
	} else {
		_ = z
	}
	for _prt2 := range xs {
//line in.go:117
  *_prt.W("in.go:117", &k) = _prt2
				_ = y
	}
	for _, _prt3 := range xs {
//line in.go:120
  *_prt.W("in.go:120", &last) = _prt3
	}
	for _prt4, _prt5 := range m {
//line in.go:122
  *_prt.W("in.go:122", &k), _prt.MapW("in.go:122", m)[0] = _prt4, _prt5
	}
	_prt.Recv("in.go:124", done)
	return *_prt.R("in.go:125", &err)
}
