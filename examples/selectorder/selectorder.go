// Package selectorder sums values until told to stop.
package selectorder

// Collect adds the values received on data until quit is closed. The sender
// closes quit only after its last send, and Collect assumes that data is
// therefore drained first; but when both cases are ready select picks one at
// random, so a buffered value can be left behind.
func Collect(data <-chan int, quit <-chan struct{}) int {
	sum := 0
	for {
		select {
		case v := <-data:
			sum += v
		case <-quit:
			return sum
		}
	}
}

// CollectFixed drains whatever is still buffered once quit is closed.
func CollectFixed(data <-chan int, quit <-chan struct{}) int {
	sum := 0
	for {
		select {
		case v := <-data:
			sum += v
		case <-quit:
			for {
				select {
				case v := <-data:
					sum += v
				default:
					return sum
				}
			}
		}
	}
}
