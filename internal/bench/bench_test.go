package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// handMade is a small result set whose tables are worked out by hand in
// TestMarkdown.
func handMade() *Results {
	found := func(seed int64, first, buggy int) Trial {
		return Trial{Seed: seed, Found: true, First: first, FirstAny: first, FirstAnyKind: "fail", Kinds: []string{"fail"},
			Schedules: 100, Buggy: buggy, Elapsed: 0.01}
	}
	missed := func(seed int64) Trial { return Trial{Seed: seed, Schedules: 100, Elapsed: 0.01} }
	r := &Results{Command: "period bench -budget 100", Date: "2026-01-02T03:04:05Z", GoVersion: "go1.26", Platform: "linux/amd64",
		CPUs: 2, Budget: 100, Seeds: 3, Continue: true, Races: "races off", Wall: 12,
		Strategies: []string{"period", "random", "dfs", "native"},
		Tests:      []Test{{"x/reorder", "TestReorder", "fail"}, {"x/ok", "TestOK", "none"}}}
	r.Cells = []Cell{
		{Package: "x/reorder", Test: "TestReorder", Want: "fail", Strategy: "period",
			Trials: []Trial{found(1, 5, 3), found(2, 3, 4), found(3, 9, 2)}},
		{Package: "x/reorder", Test: "TestReorder", Want: "fail", Strategy: "random",
			Trials: []Trial{found(1, 40, 1), missed(2), found(3, 20, 2)}},
		{Package: "x/reorder", Test: "TestReorder", Want: "fail", Strategy: "dfs",
			Trials: []Trial{{Seed: 1, Schedules: 42, Exhausted: true, Elapsed: 0.0021}}},
		{Package: "x/reorder", Test: "TestReorder", Want: "fail", Strategy: "native",
			Trials: []Trial{missed(1), missed(2), {Seed: 3, Error: "test process failed"}}},
		{Package: "x/ok", Test: "TestOK", Want: "none", Strategy: "period",
			Trials: []Trial{missed(1), missed(2), missed(3)}},
		{Package: "x/ok", Test: "TestOK", Want: "none", Strategy: "random",
			Trials: []Trial{missed(1), {Seed: 2, Kinds: []string{"leak"}, FirstAny: 7, FirstAnyKind: "leak", Schedules: 100, Buggy: 1, Elapsed: 0.02}, missed(3)}},
		{Package: "x/ok", Test: "TestOK", Want: "none", Strategy: "dfs",
			Trials: []Trial{{Seed: 1, Schedules: 10, Exhausted: true, Elapsed: 0.001}}},
		{Package: "x/ok", Test: "TestOK", Want: "none", Strategy: "native",
			Trials: []Trial{{Seed: 1, Schedules: 100, Elapsed: 0.0005}}},
	}
	return r
}

func TestStat(t *testing.T) {
	r := handMade()
	st := r.Cells[1].Stat() // random on reorder: 40, missed, 20
	if st.Found != 2 || st.First != (Range{N: 2, Median: 20, Min: 20, Max: 40}) || st.Buggy.Median != 1 {
		t.Errorf("random: %+v", st)
	}
	if got := r.FoundWithin("period", 5); got != 2.0/3 {
		t.Errorf("period found within 5 schedules: %v, want 2/3", got)
	}
	if got := r.FoundWithin("random", 100); got != 2.0/3 {
		t.Errorf("random found within 100 schedules: %v, want 2/3", got)
	}
	// period: 0.03 s / 300 schedules = 100 µs; native: 0.02 s / 200 = 100 µs.
	if x, ok := r.Overhead(r.Tests[0], "period"); !ok || x < 0.999 || x > 1.001 {
		t.Errorf("overhead of period on reorder: %v %v, want 1", x, ok)
	}
	// dfs: 2.1 ms / 42 = 50 µs against 100 µs; on TestOK 100 µs against 5 µs.
	if g, lo, hi, n := r.OverheadSummary("dfs"); n != 2 || lo < 0.499 || lo > 0.501 || hi < 19.99 || hi > 20.01 || g < 3.16 || g > 3.17 {
		t.Errorf("dfs overhead summary: %v %v %v %v, want sqrt(10) 0.5 20 2", g, lo, hi, n)
	}
}

func TestMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b, handMade(), ""); err != nil {
		t.Fatal(err)
	}
	lacks(t, "results.md", b.String(),
		"| reorder | fail | **5 (3-9)** | 20 (20-40) 2/3 | E | L (1 err) |",
		"| ok | none | ok | FP leak | ok | ok |",
		"| reorder | fail | 3/100 | 1/100 | 0/42 | 0/100 (1 err) |",
		"| period | 1 | 1 | 1 | 0 | 4.5x |",
		"| random | 0 | 1 | 0 | 1 |",
		"| random | 1 | 0 | 0 | reorder |  |",
		"command: `period bench -budget 100`",
		"seed-independent (no random choices), so one trial per test: dfs",
		readingBegin+"\n"+readingEnd,
		"("+CumulativeSVG+")")
}

func TestWriteAll(t *testing.T) {
	dir := t.TempDir()
	r := withScaling()
	if _, err := WriteAll(dir, r); err != nil {
		t.Fatal(err)
	}
	// JSON round trip.
	back, err := ReadJSON(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, r) {
		t.Errorf("results.json does not read back:\n%+v\n%+v", back, r)
	}
	checkRender(t, r, back)
	// CSV: a header and one row per trial.
	f, err := os.Open(filepath.Join(dir, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+18 || rows[1][3] != "period" || rows[1][6] != "5" {
		t.Errorf("results.csv: %d rows, first %v", len(rows), rows[1])
	}
	// SVG figures are well-formed XML with one line per strategy.
	for _, name := range []string{CumulativeSVG, OverheadSVG} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(bytes.NewReader(data))
		for {
			if _, err := dec.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	}
	svg, _ := os.ReadFile(filepath.Join(dir, CumulativeSVG))
	if n := strings.Count(string(svg), "<path "); n != len(r.Strategies) {
		t.Errorf("%s: %d paths, want %d", CumulativeSVG, n, len(r.Strategies))
	}
	// A hand-written reading survives regeneration.
	md := filepath.Join(dir, "results.md")
	old, _ := os.ReadFile(md)
	edited := strings.Replace(string(old), readingEnd, "PERIOD wins here.\n"+readingEnd, 1)
	os.WriteFile(md, []byte(edited), 0o644)
	if _, err := WriteAll(dir, r); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(md); !strings.Contains(string(again), "PERIOD wins here.\n"+readingEnd) {
		t.Errorf("the reading was lost:\n%s", again)
	}
	// So does the minimisation table another command writes.
	block := MinimizeBegin + "\n| median switches | 4 | 3 |\n" + MinimizeEnd
	again, _ := os.ReadFile(md)
	os.WriteFile(md, []byte(SetBlock(string(again), MinimizeBegin, MinimizeEnd, block)), 0o644)
	if _, err := WriteAll(dir, r); err != nil {
		t.Fatal(err)
	}
	again, _ = os.ReadFile(md)
	if Block(string(again), MinimizeBegin, MinimizeEnd) != block || !strings.Contains(string(again), "PERIOD wins here.\n"+readingEnd) {
		t.Errorf("the minimisation block was lost:\n%s", again)
	}
	if got := SetBlock(string(again), MinimizeBegin, MinimizeEnd, MinimizeBegin+"\nnew\n"+MinimizeEnd); strings.Count(got, MinimizeBegin) != 1 || !strings.Contains(got, "\nnew\n") {
		t.Errorf("SetBlock did not replace the block:\n%s", got)
	}
}

func TestWants(t *testing.T) {
	dir := t.TempDir()
	src := `package p

// period:want deadlock
func TestA(t *testing.T) {}

// TestB is documented.
// period:want none
// More words.
func TestB(t *testing.T) {}

// period:want fail

func TestC(t *testing.T) {}

func TestD(t *testing.T) {}
`
	os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(src), 0o644)
	got, err := Wants(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"TestA": "deadlock", "TestB": "none"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Wants = %v, want %v", got, want)
	}
}
