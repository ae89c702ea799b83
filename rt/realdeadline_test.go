//go:build go1.21

package rt

import (
	"context"
	"testing"
	"time"
)

// A context made by the program under control carries a deadline of the
// virtual clock, and so does a WithCancel child of it (it inherits the
// deadline): CtxDone registers neither as a real deadline, for which the
// run would wait in real time (the deadline and 200 ms more, a schedule). A
// standard context's own deadline below them is real.
func TestInheritedVirtualDeadlineIsVirtual(t *testing.T) {
	runControlled(&stay{}, func() {
		parent, cancel := WithTimeout(context.Background(), 30*time.Millisecond)
		defer cancel()
		dl, _, _ := parent.(*vctx).deadlineOf()
		child, cancelChild := WithCancel(parent)
		defer cancelChild()
		if !virtualDeadline(parent, dl) {
			t.Error("WithTimeout's deadline taken for a real one")
		}
		if !virtualDeadline(child, dl) {
			t.Error("the deadline a WithCancel child inherits from WithTimeout taken for a real one")
		}
		own, cancelOwn := context.WithTimeout(child, 10*time.Millisecond)
		defer cancelOwn()
		if d, _ := own.Deadline(); virtualDeadline(own, d) {
			t.Error("a standard context's own deadline taken for the virtual clock's")
		}
	})
}
