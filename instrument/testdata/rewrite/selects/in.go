package selects

func next() int { return 1 }

func chOf(c chan int) chan int { return c }

func Select(a, b chan int, out chan<- int) int {
	var got int
	select {
	case v := <-a:
		got = v
	case v, ok := <-chOf(b):
		if !ok {
			return -1
		}
		got = v
	case got = <-a:
	case out <- next():
	case out <- 7:
		got = 7
	}
	return got
}

func Default(a chan int) bool {
	select {
	case <-a:
		return true
	default:
		return false
	}
}

func Labeled(a chan int) int {
	n := 0
loop:
	for {
		select {
		case v := <-a:
			if v == 0 {
				break loop
			}
			n += v
		}
	}
	return n
}

func LabeledSelect(a chan int) int {
sel:
	select {
	case v := <-a:
		if v == 0 {
			break sel
		}
		return v
	}
	return 0
}

func Forever() int {
	select {}
}

func Terminating(a chan int) int {
	select {
	case v := <-a:
		return v
	}
}
