// Package reflectsel merges channels with reflect.Select and forwards values
// with reflect.Value's Send, Recv and Close, as channel libraries do
// (eapache/channels' Multiplex, Tee and SharedBuffer).
package reflectsel

import "reflect"

// Merge sends every value of the inputs on out and closes out once every
// input is closed.
func Merge(out chan<- int, inputs ...<-chan int) {
	cases := make([]reflect.SelectCase, len(inputs))
	for i, in := range inputs {
		cases[i] = reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(in)}
	}
	o := reflect.ValueOf(out)
	go func() {
		for open := len(inputs); open > 0; {
			i, v, ok := reflect.Select(cases)
			if !ok {
				cases[i].Chan = reflect.Value{}
				open--
				continue
			}
			o.Send(v)
		}
		o.Close()
	}()
}

// Drain receives from in, through reflect, until it is closed, and returns
// how many values came.
func Drain(in <-chan int) int {
	v := reflect.ValueOf(in)
	n := 0
	for {
		if _, ok := v.Recv(); !ok {
			return n
		}
		n++
	}
}

// Offer sends x on ch if a receiver is ready or there is room.
func Offer(ch chan int, x int) bool { return reflect.ValueOf(ch).TrySend(reflect.ValueOf(x)) }

// Poll receives from ch if a value is there.
func Poll(ch chan int) (int, bool) {
	v, ok := reflect.ValueOf(ch).TryRecv()
	if !ok {
		return 0, false
	}
	return int(v.Int()), true
}
