// Package realleak serves a listener in a goroutine of its own.
package realleak

import "net"

// Serve accepts connections on ln until it is closed, answering each with
// a greeting.
func Serve(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		c.Write([]byte("hi"))
		c.Close()
	}
}
