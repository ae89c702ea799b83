package shared

import "io"

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
	count++
	count += 2
	count = count * 2
	x := count
	table["a"] = x
	table["b"]++
	delete(table, "a")
	v, ok := table["c"]
	_, _ = v, ok
	items = append(items, x)
	s[idx()] += 3
	p.val = p.next.val
	p.arr[1] = 2
	arr[0] = *(&x)
	m["k"] = len(m)
	*pp = pair{a: 1, b: count}
	q := &p.val
	*q = 4
	var local pair
	local.a = 1
	y := local.a + local.b
	_ = &count
	if io.EOF != nil {
		y++
	}
	return x + y + s[0]
}

func Captured() int {
	n := 0
	done := make(chan bool)
	go func() {
		n++
		done <- true
	}()
	<-done
	return n
}

func AddrTaken() int {
	total := 0
	add(&total)
	return total
}

func add(p *int) { *p += 1 }

func Closure() func() int {
	var st struct{ a, b int }
	return func() int {
		st.a++
		return st.a + st.b
	}
}

type buf struct{ b []byte }

func (b *buf) add(c byte) { b.b = append(b.b, c) }

func Policy(xs []int, param int) {
	done := make(chan bool) // captured, never written again: not instrumented
	later := 0              // captured and written: instrumented everywhere
	var out buf             // captured, written through a pointer method
	v, err := 1, error(nil) // err is reassigned by the := below
	w, err := 2, error(nil)
	for _, x := range xs { // go 1.22+: one x per iteration, never written
		go func() {
			later = x + param + v + w
			out.add('a')
			_ = err
			done <- true
		}()
	}
	later++
	out.add('b')
	<-done
}

func pair2() (int, error) { return 0, nil }

func Reassign(xs []int, m map[int]int) error {
	var err error
	var k, last int
	done := make(chan bool)
	go func() {
		_ = err
		_ = k + last
		done <- true
	}()
	y, err := pair2()
	if z, err := pair2(); err != nil { // a new err: not the shared one
		return err
	} else {
		_ = z
	}
	for k = range xs {
		_ = y
	}
	for _, last = range xs {
	}
	for k, m[0] = range m {
	}
	<-done
	return err
}
