// Package sessions: a server with per-connection handlers, heartbeats and a reaper.
package sessions

import "sync"

type Conn struct {
	mu  sync.Mutex
	out []string
}

func (c *Conn) Write(s string) {
	c.mu.Lock()
	c.out = append(c.out, s)
	c.mu.Unlock()
}

type Session struct {
	ID   int
	conn *Conn
}

type Server struct {
	mu       sync.Mutex
	sessions map[int]*Session
	wg       sync.WaitGroup
}

func NewServer() *Server { return &Server{sessions: map[int]*Session{}} }

func (s *Server) live(id int) *Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss := s.sessions[id]; ss != nil && ss.conn != nil {
		return ss
	}
	return nil
}

// Reap closes a session: its connection is dropped.
func (s *Server) Reap(id int) {
	s.mu.Lock()
	if ss := s.sessions[id]; ss != nil {
		ss.conn = nil
		delete(s.sessions, id)
	}
	s.mu.Unlock()
}

// heartbeatBuggy checks the session is live, then writes outside the lock.
func (s *Server) heartbeatBuggy(id int) {
	defer s.wg.Done()
	if ss := s.live(id); ss != nil {
		ss.conn.Write("ping")
	}
}

func (s *Server) heartbeat(id int) {
	defer s.wg.Done()
	s.mu.Lock()
	var c *Conn
	if ss := s.sessions[id]; ss != nil {
		c = ss.conn
	}
	s.mu.Unlock()
	if c != nil {
		c.Write("ping")
	}
}

func (s *Server) handle(id int, buggy bool) {
	defer s.wg.Done()
	c := &Conn{}
	ss := &Session{ID: id, conn: c}
	s.mu.Lock()
	s.sessions[id] = ss
	s.mu.Unlock()
	s.wg.Add(1)
	if buggy {
		go s.heartbeatBuggy(id)
	} else {
		go s.heartbeat(id)
	}
	c.Write("hello")
}

// Serve accepts n connections, each handled by its own goroutine.
func (s *Server) Serve(n int, buggy bool) {
	defer s.wg.Done()
	for i := 0; i < n; i++ {
		s.wg.Add(1)
		go s.handle(i, buggy)
	}
}

func (s *Server) Start(n int, buggy bool) {
	s.wg.Add(1)
	go s.Serve(n, buggy)
}

func (s *Server) Wait() { s.wg.Wait() }
