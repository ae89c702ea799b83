// Package pipesync has a server that records what it read before it
// answers over a pipe.
package pipesync

import (
	"bufio"
	"io"
)

// Server reads one line, records it, and answers.
type Server struct {
	Got string
}

// Serve reads a request from r, keeps it in s.Got, then writes the answer.
func (s *Server) Serve(r io.Reader, w io.Writer) {
	line, _ := bufio.NewReader(r).ReadString('\n')
	s.Got = line
	io.WriteString(w, "ok\n")
}
