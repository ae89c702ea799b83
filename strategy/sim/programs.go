//go:build go1.21

package sim

import "fmt"

// spawner is a main thread that starts threads 1..n and ends.
func spawner(n int) []Instr {
	var m []Instr
	for i := 1; i <= n; i++ {
		m = append(m, Spawn(i))
	}
	return m
}

// Reorder is SCTBench's reorder_N bug: n-1 setters write a = 1 then b = -1,
// one checker reads a then b and fails unless it saw (0, 0) or (1, -1). The
// checker must read between a setter's two writes, or read a before and b
// after them (n >= 2 threads in total).
func Reorder(n int) Program {
	if n < 2 {
		n = 2
	}
	setters := n - 1
	p := Program{Name: fmt.Sprintf("reorder_%d", n), Threads: [][]Instr{spawner(n)}}
	for i := 0; i < setters; i++ {
		p.Threads = append(p.Threads, []Instr{
			Write("a", 1).At("set.a"),
			Write("b", -1).At("set.b"),
		})
	}
	p.Threads = append(p.Threads, []Instr{
		Read("a", "x").At("check.a"),
		Read("b", "y").At("check.b"),
		Check("a and b inconsistent", func(l Locals) bool {
			return l["x"] == 0 && l["y"] == 0 || l["x"] == 1 && l["y"] == -1
		}).At("check.assert"),
	})
	return p
}

// LockOrder is the two-lock deadlock: thread 1 takes A then B, thread 2
// takes B then A.
func LockOrder() Program {
	return Program{Name: "lockorder", Threads: [][]Instr{
		spawner(2),
		{Lock("A").At("t1.lockA"), Lock("B").At("t1.lockB"), Unlock("B").At("t1.unlockB"), Unlock("A").At("t1.unlockA")},
		{Lock("B").At("t2.lockB"), Lock("A").At("t2.lockA"), Unlock("A").At("t2.unlockA"), Unlock("B").At("t2.unlockB")},
	}}
}

// Philosophers is the dining philosophers with n philosophers, each taking
// its left fork then its right fork: deadlock when all hold their left fork.
func Philosophers(n int) Program {
	p := Program{Name: fmt.Sprintf("philosophers_%d", n), Threads: [][]Instr{spawner(n)}}
	for i := 0; i < n; i++ {
		l, r := fmt.Sprintf("fork%d", i), fmt.Sprintf("fork%d", (i+1)%n)
		p.Threads = append(p.Threads, []Instr{
			Lock(l).At(fmt.Sprintf("p%d.left", i)),
			Lock(r).At(fmt.Sprintf("p%d.right", i)),
			Unlock(r).At(fmt.Sprintf("p%d.putright", i)),
			Unlock(l).At(fmt.Sprintf("p%d.putleft", i)),
		})
	}
	return p
}

// Counter has n threads incrementing a shared counter (read, then write the
// value plus one). With locked it is correct; without, updates get lost.
func Counter(n int, locked bool) Program {
	p := Program{Name: fmt.Sprintf("counter_%d", n), Threads: [][]Instr{spawner(n)}}
	if locked {
		p.Name += "_locked"
	}
	inc := func(l Locals) int { return l["r"] + 1 }
	for i := 0; i < n; i++ {
		body := []Instr{Read("c", "r").At("inc.read"), WriteF("c", inc).At("inc.write")}
		if locked {
			body = append([]Instr{Lock("m").At("inc.lock")}, append(body, Unlock("m").At("inc.unlock"))...)
		}
		p.Threads = append(p.Threads, body)
	}
	p.Final = func(vars map[string]int) string {
		if vars["c"] != n {
			return fmt.Sprintf("counter is %d, want %d", vars["c"], n)
		}
		return ""
	}
	return p
}

// OrderViolation is a depth-1 bug: the child must not read x before main
// writes it, but main writes after spawning, so the child reading first fails.
// Padding adds n key points to main before its write.
func OrderViolation(padding int) Program {
	m := []Instr{Spawn(1)}
	for i := 0; i < padding; i++ {
		m = append(m, Yield().At(fmt.Sprintf("main.pad%d", i)))
	}
	m = append(m, Write("x", 1).At("main.init"))
	return Program{Name: "order", Threads: [][]Instr{m, {
		Yield().At("child.pad"),
		Read("x", "v").At("child.use"),
		Check("used before init", func(l Locals) bool { return l["v"] == 1 }),
	}}}
}
