// Package realwait hands work to a pool whose workers may run outside
// Period's control: these were started by init, as workers an earlier
// test left in a pool are when a verdict is confirmed in a new process.
package realwait

import "time"

var tasks = make(chan func())

func init() {
	for range 3 {
		go work(time.Minute)
	}
}

// Submit runs task on an idle worker, or on a new one that then waits
// for more work for a while, as pools do.
func Submit(task func()) {
	select {
	case tasks <- task:
	default:
		go func() {
			task()
			work(2 * time.Second)
		}()
	}
}

func work(idleFor time.Duration) {
	idle := time.NewTimer(idleFor)
	defer idle.Stop()
	for {
		select {
		case t := <-tasks:
			t()
			idle.Reset(idleFor)
		case <-idle.C:
			return
		}
	}
}
