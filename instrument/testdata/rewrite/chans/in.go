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

// Operations on a type parameter's channel go through its core type: the
// hooks infer their element type from it.
type Events chan any

func Generic[C ~chan E, E any](c C, e E) (E, bool) {
	c <- e
	v := <-c
	for w := range c {
		v = w
	}
	w, ok := <-c
	close(c)
	_ = v
	return w, ok
}

func GenericDirs[S ~chan<- E | ~chan E, R ~<-chan E | ~chan E, E any](s S, r R) E {
	s <- *new(E)
	close(s)
	return <-r
}

func GenericConv[C ~chan any](c C) {
	c <- 1 // the hook converts the untyped constant to the element type
	c <- nil
}

var _ = GenericConv[Events]
