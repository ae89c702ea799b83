//go:build go1.21

package strategy

// dfsStrategy enumerates every schedule: every enabled goroutine at every
// scheduling point and every answer at every open choice, depth-first,
// replaying the prefix of the previous run (stateless model checking,
// Godefroid, "Model checking for programming languages using VeriSoft",
// POPL 1997). Begin returns false once the whole tree has been run. It is
// complete but explodes; use it on small tests.
type dfsStrategy struct{ tree *treeSearch }

type dfsPolicy struct{}

func init() {
	Register("dfs", func(o Options) Strategy { return &dfsStrategy{tree: newTreeSearch(dfsPolicy{}, false, 0)} })
}

func (dfsPolicy) begin()                              {}
func (dfsPolicy) next(enabled []Event) []treeAlt      { return treeAll(len(enabled), enabled) }
func (dfsPolicy) choose(at Event, n int) []treeAlt    { return treeAll(n, nil) }
func (dfsPolicy) observe(enabled []Event, chosen int) {}

func (s *dfsStrategy) Name() string               { return "dfs" }
func (s *dfsStrategy) Begin() bool                { return s.tree.begin() }
func (s *dfsStrategy) Next(enabled []Event) int   { return s.tree.next(enabled) }
func (s *dfsStrategy) Choose(at Event, n int) int { return s.tree.choose(at, n) }
func (s *dfsStrategy) End(r *Run)                 { s.tree.end() }
func (s *dfsStrategy) Checkpoint() []byte         { return s.tree.checkpoint() }
func (s *dfsStrategy) Restore(b []byte) error     { return s.tree.restore(b) }

// ReadsLog: End reads the run through Len and At (LogReader).
func (s *dfsStrategy) ReadsLog() {}
