package modern

// Sends whose value is only assignable to the channel's element type: the
// rewritten send must convert it as the send statement does.

type shape interface{ Area() int }

type square struct{ side int }

func (s *square) Area() int { return s.side * s.side }

// Callback is a named func type; callbackCh a named channel type of the
// unnamed func type, as in sourcegraph/conc's stream package.
type Callback func()

type callbackCh chan func()

type durations chan int64

// SendConversions sends values of other types than the elements of their
// channels and returns what was received.
func SendConversions() (area int, called bool, sum int64, err error) {
	shapes := make(chan shape, 1)
	shapes <- &square{side: 3} // *square to an interface
	area = (<-shapes).Area()

	cbs := make(callbackCh, 1)
	var cb Callback = func() { called = true }
	cbs <- cb // Callback on a named channel of func()
	(<-cbs)()

	ds := make(durations, 2)
	ds <- 40 // untyped constant on a named channel type
	var out chan<- int64 = ds
	out <- 2 // directional channel
	sum = <-ds + <-ds

	errs := make(chan error, 1)
	errs <- nil // untyped nil to an interface
	err = <-errs
	return
}
