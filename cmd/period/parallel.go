package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/period-dev/period/instrument"
	"github.com/period-dev/period/internal/report"
	"github.com/period-dev/period/internal/runner"
	"github.com/period-dev/period/rt"
)

// parallelism is how period test spreads its work: -p N processes at once
// on this machine, and -shard i/n of the tests on this one of n machines.
type parallelism struct {
	p             int
	pool          *runner.Pool // nil with -p 1: everything in order, as before -p existed
	shard, shards int          // 0: no sharding
	resume        string       // -resume: where explorations are saved

	// The first build runs alone and the others after it: two go test -c
	// at once compile the dependencies they share twice (the build cache
	// helps only once one has finished), and a module over a large
	// dependency graph (Kubernetes' API types) took twice as long.
	firstBuild sync.Once
	firstBuilt chan struct{} // closed when the first build has ended

	mu      sync.Mutex
	order   []shardTest // every test of every shard, in the order of an unsharded run
	results []report.JSONSummary
}

// shardTest names a test in the shard header.
type shardTest struct{ Package, Test string }

// shardHeader is the first line of a shard's result file.
type shardHeader struct {
	Action string // "shard"
	Shard  int
	Shards int
	Tests  []shardTest
}

func newParallelism(p int, shard string) (*parallelism, error) {
	if p < 1 {
		return nil, errors.New("-p must be at least 1")
	}
	par := &parallelism{p: p, firstBuilt: make(chan struct{})}
	if p > 1 {
		par.pool = runner.NewPool(p)
	}
	if shard != "" {
		i, n, ok := strings.Cut(shard, "/")
		a, err1 := strconv.Atoi(i)
		b, err2 := strconv.Atoi(n)
		if !ok || err1 != nil || err2 != nil || b < 1 || a < 1 || a > b {
			return nil, fmt.Errorf("-shard %s: want i/n with 1 <= i <= n", shard)
		}
		par.shard, par.shards = a, b
	}
	return par, nil
}

// selectShard keeps the tests of this shard: the k-th test (counting every
// test -run selects, package after package) belongs to shard k mod n + 1.
// Whole tests are the unit: the schedules of one test depend on what the
// earlier ones taught the exploration (rt/split.go), so they stay on one
// machine, where -p spreads them over its cores.
func (par *parallelism) selectShard(pkgs []*instrument.TestPackage, run string) ([]*instrument.TestPackage, error) {
	if par.shards == 0 {
		return pkgs, nil
	}
	re, err := rt.CompileRun(run)
	if err != nil {
		return nil, fmt.Errorf("-run: %v", err)
	}
	var out []*instrument.TestPackage
	k := 0
	for _, pkg := range pkgs {
		var mine []string
		for _, t := range pkg.Tests {
			if !runner.MatchTest(re, t) {
				continue
			}
			par.order = append(par.order, shardTest{pkg.ImportPath, t})
			if k%par.shards == par.shard-1 {
				mine = append(mine, t)
			}
			k++
		}
		if len(mine) > 0 {
			cp := *pkg
			cp.Tests = mine
			out = append(out, &cp)
		}
	}
	if par.order == nil {
		par.order = []shardTest{}
	}
	return out, nil
}

// forEach runs f on every package, at most p at once, and prints what each
// printed in the order of pkgs. As with go test, a package that cannot be
// built or explored does not stop the others. The status is exitError if
// any package had an error, else exitBug if any found a bug.
func (par *parallelism) forEach(ctx context.Context, pkgs []*instrument.TestPackage, p *report.Printer, f func(int, *instrument.TestPackage, *report.Printer) int) int {
	status := exitOK
	merge := func(code int) {
		switch {
		case code == exitError:
			status = exitError
		case code == exitBug && status == exitOK:
			status = exitBug
		}
	}
	if par.pool == nil || len(pkgs) == 1 {
		for i, pkg := range pkgs {
			if ctx.Err() != nil {
				merge(exitError)
				break
			}
			merge(f(i, pkg, p))
		}
		return status
	}
	bufs := make([]bytes.Buffer, len(pkgs))
	codes := make([]int, len(pkgs))
	done := make([]chan struct{}, len(pkgs))
	for i, pkg := range pkgs {
		done[i] = make(chan struct{})
		go func() {
			defer close(done[i])
			pp := *p
			pp.W = &bufs[i]
			codes[i] = f(i, pkg, &pp)
		}()
	}
	for i := range pkgs {
		<-done[i]
		p.W.Write(bufs[i].Bytes())
		merge(codes[i])
	}
	return status
}

// build builds pkg's test binary, in a slot of the pool.
func (par *parallelism) build(ctx context.Context, pkg *instrument.TestPackage, bin string) error {
	return par.gated(ctx, func() error { return pkg.Build(ctx, bin) })
}

// gated runs build in a slot of the pool, after the first build has ended
// unless it is the first.
func (par *parallelism) gated(ctx context.Context, build func() error) error {
	if par.pool == nil {
		return build()
	}
	first := false
	par.firstBuild.Do(func() { first = true })
	if first {
		defer close(par.firstBuilt)
	} else {
		select {
		case <-par.firstBuilt:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	var err error
	if perr := par.pool.Do(ctx, func() { err = build() }); perr != nil {
		return perr
	}
	return err
}

// record keeps a summary for the shard's result file.
func (par *parallelism) record(s report.JSONSummary) {
	if par.shards == 0 {
		return
	}
	par.mu.Lock()
	par.results = append(par.results, s)
	par.mu.Unlock()
}

// shardFile is the name of shard i of n's result file in its -o directory.
func shardFile(i, n int) string { return fmt.Sprintf("period-shard-%d-of-%d.jsonl", i, n) }

// writeShard writes the shard's results (its header, then one summary per
// test in order) into dir, next to its replay files.
func (par *parallelism) writeShard(dir string) error {
	if par.shards == 0 {
		return nil
	}
	var buf bytes.Buffer
	h, _ := json.Marshal(shardHeader{Action: "shard", Shard: par.shard, Shards: par.shards, Tests: par.order})
	buf.Write(append(h, '\n'))
	for _, s := range par.results {
		b, _ := json.Marshal(s)
		buf.Write(append(b, '\n'))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, shardFile(par.shard, par.shards)), buf.Bytes(), 0o644)
}

// cmdMerge combines the result files of period test -shard i/n, i = 1..n,
// found in the given directories, into the report of one unsharded run.
func cmdMerge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("period merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonOut := fs.Bool("json", false, "print one JSON object per line")
	verbose := fs.Bool("v", false, "print full interleavings")
	out := fs.String("o", "", "copy the replay files into `dir` (the report names them there)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: period merge [-json] [-v] [-o DIR] DIR...\n\nDIR holds the period-shard-I-of-N.jsonl a period test -shard I/N -o DIR wrote.\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitError
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitError
	}
	sums, order, err := readShards(fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "period merge: %v\n", err)
		return exitError
	}
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			fmt.Fprintf(stderr, "period merge: %v\n", err)
			return exitError
		}
		dir, _ := filepath.Abs(*out)
		for k, s := range sums {
			for i, b := range s.Bugs {
				if b.Replay == "" {
					continue
				}
				dst := filepath.Join(dir, filepath.Base(b.Replay))
				if err := copyFileTo(b.Replay, dst); err != nil {
					fmt.Fprintf(stderr, "period merge: %v\n", err)
					return exitError
				}
				s.Bugs[i].Replay = dst
				if b.Minimized != "" {
					mdst := filepath.Join(dir, filepath.Base(b.Minimized))
					if err := copyFileTo(b.Minimized, mdst); err != nil {
						fmt.Fprintf(stderr, "period merge: %v\n", err)
						return exitError
					}
					s.Bugs[i].Minimized = mdst
				}
			}
			sums[k] = s
		}
	}
	p := &report.Printer{W: stdout, JSON: *jsonOut, Verbose: *verbose}
	status := exitOK
	bugs, last := 0, ""
	for _, t := range order {
		s, ok := sums[t]
		if !ok {
			continue // no summary: the test was not explored (as unsharded)
		}
		if last != "" && last != t.Package {
			p.Package(last, bugs, 0)
			bugs = 0
		}
		last = t.Package
		p.Result(s)
		bugs += len(s.Bugs)
		if len(s.Bugs) > 0 {
			status = exitBug
		}
	}
	if last != "" {
		p.Package(last, bugs, 0)
	}
	return status
}

// readShards reads every shard file of dirs: the summaries by test, and the
// order of the tests. Every shard of the n must be there, once.
func readShards(dirs []string) (map[shardTest]report.JSONSummary, []shardTest, error) {
	sums := map[shardTest]report.JSONSummary{}
	var order []shardTest
	seen := map[int]string{}
	n := 0
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "period-shard-*-of-*.jsonl"))
		if len(files) == 0 {
			return nil, nil, fmt.Errorf("%s: no period-shard-I-of-N.jsonl (written by period test -shard I/N -o %s)", dir, dir)
		}
		sort.Strings(files)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, nil, err
			}
			sc := bufio.NewScanner(bytes.NewReader(data))
			sc.Buffer(make([]byte, 1<<20), 64<<20)
			first := true
			for sc.Scan() {
				if first {
					first = false
					var h shardHeader
					if err := json.Unmarshal(sc.Bytes(), &h); err != nil || h.Action != "shard" {
						return nil, nil, fmt.Errorf("%s: not a shard result file", f)
					}
					if n == 0 {
						n, order = h.Shards, h.Tests
					} else if h.Shards != n || !sameTests(order, h.Tests) {
						return nil, nil, fmt.Errorf("%s: shard %d/%d of another run than %s", f, h.Shard, h.Shards, seen[1])
					}
					if prev, dup := seen[h.Shard]; dup {
						return nil, nil, fmt.Errorf("shard %d/%d twice: %s and %s", h.Shard, n, prev, f)
					}
					seen[h.Shard] = f
					continue
				}
				var s report.JSONSummary
				if err := json.Unmarshal(sc.Bytes(), &s); err != nil || s.Action != "summary" {
					return nil, nil, fmt.Errorf("%s: bad line %q", f, firstN(sc.Text(), 80))
				}
				for i, b := range s.Bugs {
					// Shards that ran on other machines name their replay
					// files where they wrote them: find them beside the
					// result file.
					if _, err := os.Stat(b.Replay); b.Replay != "" && err != nil {
						if alt := filepath.Join(filepath.Dir(f), filepath.Base(b.Replay)); fileExists(alt) {
							s.Bugs[i].Replay = alt
						}
					}
					if _, err := os.Stat(b.Minimized); b.Minimized != "" && err != nil {
						if alt := filepath.Join(filepath.Dir(f), filepath.Base(b.Minimized)); fileExists(alt) {
							s.Bugs[i].Minimized = alt
						}
					}
				}
				sums[shardTest{s.Package, s.Test}] = s
			}
			if err := sc.Err(); err != nil {
				return nil, nil, err
			}
		}
	}
	for i := 1; i <= n; i++ {
		if _, ok := seen[i]; !ok {
			return nil, nil, fmt.Errorf("shard %d/%d is missing", i, n)
		}
	}
	return sums, order, nil
}

func sameTests(a, b []shardTest) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func firstN(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func copyFileTo(src, dst string) error {
	if src == dst {
		return nil
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// resumeDir checks -resume: the strategy must be one whose exploration is
// split into rounds (runner.CanSplit), which is what is saved.
func (par *parallelism) resumeDir(dir string, cfg rt.Config) (string, error) {
	if dir == "" {
		return "", nil
	}
	if !runner.CanSplit(cfg) {
		return "", fmt.Errorf("-resume: strategy %s cannot be resumed (random, pct and ppct can; not with -parallel)", cfg.Strategy)
	}
	if par.pool == nil {
		par.pool = runner.NewPool(1) // resumable explorations go in rounds, also with -p 1
	}
	return filepath.Abs(dir)
}
