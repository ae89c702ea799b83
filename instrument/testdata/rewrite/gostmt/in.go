package gostmt

import "sync"

type server struct{ n int }

func (s *server) run(x int) { s.n = x }

func work(a, b int) {}

func pair() (int, string) { return 1, "a" }

func takes(n int, s string) {}

func sum(xs ...int) {}

func next() int { return 0 }

func Spawn(s *server, f func(int), xs []int) {
	var wg sync.WaitGroup
	a := 1
	go work(a, next())
	go s.run(a)
	go f(3)
	go func() {
		wg.Done()
	}()
	go func(v int) {
		_ = v
	}(a)
	go takes(pair())
	go sum(xs...)
	go wg.Wait()
	go println("hi", a)
}
