package listenonly

// A deferred call on a listener: its rt.IO wrapper is dropped (it would
// mark the goroutine at the defer statement), and nothing else in the file
// needs rt: no rt import either.

import (
	"context"
	"net"
)

func listen(ctx context.Context) (net.Listener, error) { return nil, nil }

func Example() {
	listener, err := listen(context.TODO())
	if err != nil {
		return
	}
	defer listener.Close()
}
