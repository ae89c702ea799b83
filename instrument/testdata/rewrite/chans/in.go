package chans

type C chan int

func Chans(ch chan int, out chan<- string, in <-chan string, c C) (int, bool) {
	ch <- 1
	out <- "x"
	c <- <-ch
	x := <-ch + <-ch
	v, ok := <-in
	_ = v
	var w string
	w, ok = <-in
	_ = w
	if <-ch > 0 {
		close(ch)
	}
	select {
	case <-ch:
	default:
	}
	return x, ok
}

func Ranges(ch chan int) int {
	n := 0
	for v := range ch {
		n += v
	}
	for range ch {
		n++
	}
	var last int
	for last = range ch {
		if last < 0 {
			continue
		}
	}
outer:
	for v := range ch {
		for w := range ch {
			if w == v {
				continue outer
			}
			if w > v {
				break outer
			}
		}
	}
	return n + last
}

func Loopvar(ch chan int) []func() int {
	var fs []func() int
	for v := range ch {
		fs = append(fs, func() int { return v })
	}
	return fs
}
