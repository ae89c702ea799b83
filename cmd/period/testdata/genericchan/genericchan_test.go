package genericchan

import "testing"

// A generic send meets a plain receive: under Period both must be
// controlled, or the receiver parks in the model while the sender blocks in
// the Go runtime and the schedule is abandoned.
func TestGenericSendPlainReceive(t *testing.T) {
	c := make(chan int)
	done := make(chan bool)
	go func() {
		Fill((chan<- int)(c), 1, 2, 3)
		close(c)
		done <- true
	}()
	n := 0
	for v := range c {
		n += v
	}
	<-done
	if n != 6 {
		t.Fatal(n)
	}
}

type names chan string

func TestPlainSendGenericReceive(t *testing.T) {
	c := make(names)
	go func() {
		for _, s := range []string{"a", "b"} {
			c <- s
		}
		close(c)
	}()
	if got := Drain(c); len(got) != 2 {
		t.Fatal(got)
	}
}

func TestGenericPass(t *testing.T) {
	in, out := make(chan []byte), make(chan []byte)
	go Pass(in, out)
	go func() { in <- []byte("x") }()
	if v := <-out; string(v) != "x" {
		t.Fatal(v)
	}
	if _, ok := <-out; ok {
		t.Fatal("out not closed")
	}
}

func TestGenericCounter(t *testing.T) {
	var c Counter[int64]
	if n := c.AddAll(false, 1, 2, 3); n != 6 {
		t.Fatal(n)
	}
}

// A genuine lost update inside a generic method: must be reported.
func TestGenericCounterLostUpdate(t *testing.T) {
	var c Counter[int]
	if n := c.AddAll(true, 1, 2); n != 3 {
		t.Fatalf("lost update: %d", n)
	}
}
