// Package tcpserver is a line server in the shape of alicebob/miniredis:
// an accept loop, and per connection a reader goroutine that hands each
// line to the connection's handler over a channel.
package tcpserver

import (
	"bufio"
	"net"
	"strings"
	"sync"
)

// Server answers each line with it upper-cased.
type Server struct {
	l  net.Listener
	wg sync.WaitGroup
	mu sync.Mutex
	cs map[net.Conn]bool
}

// Tester is what RunT needs of a test: a *testing.T satisfies it.
type Tester interface {
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// RunT starts a server and registers its Close with t.Cleanup, through
// the package's own interface.
func RunT(t Tester) *Server {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	s := &Server{l: l, cs: map[net.Conn]bool{}}
	s.wg.Add(1)
	go s.serve()
	t.Cleanup(s.Close)
	return s
}

// Addr is the server's address.
func (s *Server) Addr() string { return s.l.Addr().String() }

func (s *Server) serve() {
	defer s.wg.Done()
	for {
		c, err := s.l.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.cs[c] = true
		s.mu.Unlock()
		s.wg.Add(1)
		go s.handle(c)
	}
}

func (s *Server) handle(c net.Conn) {
	defer s.wg.Done()
	defer c.Close()
	lines := make(chan string)
	go func() {
		defer close(lines)
		r := bufio.NewReader(c)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			lines <- line
		}
	}()
	w := bufio.NewWriter(c)
	for line := range lines {
		w.WriteString(strings.ToUpper(line))
		w.Flush()
	}
}

// Close stops the server and waits for its goroutines.
func (s *Server) Close() {
	s.l.Close()
	s.mu.Lock()
	for c := range s.cs {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}
