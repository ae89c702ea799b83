// Package fifo relies on the order Go gives blocked channel operations: a
// receive from a full buffered channel moves the first blocked sender's
// value into the buffer at once, and a send to a channel with blocked
// receivers hands the value to the first of them. A goroutine that comes
// later cannot take their place.
package fifo
