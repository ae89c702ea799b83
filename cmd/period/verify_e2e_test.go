package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyFixedTwin does what a user does after a bug report: copies an
// example, finds its bug, checks that period verify says "still fails" on
// the unedited copy, fixes the code (the buggy function gets the body of
// its fixed twin, so the recorded schedule no longer applies), and checks
// that period verify says "fixed".
func TestVerifyFixedTwin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores examples")
	}
	for _, c := range []struct{ pkg, test, file, buggy, fixed, kind string }{
		{"lockorder", "TestTransfer", "lockorder.go", "Transfer", "TransferOrdered", "deadlock"},
		{"wgadd", "TestSum", "wgadd.go", "Sum", "SumFixed", "fail"},
	} {
		t.Run(c.pkg, func(t *testing.T) {
			mod := t.TempDir()
			copyDir(t, "../../examples/"+c.pkg, filepath.Join(mod, c.pkg))
			copyFile(t, "../../examples/go.mod", filepath.Join(mod, "go.mod"))
			dir := filepath.Join(mod, c.pkg)
			out := t.TempDir()
			code, sums, stderr := periodJSON(t, "test", "-json", "-race=false", "-budget", "300", "-run", "^"+c.test+"$", "-o", out, dir)
			s := sums[c.test]
			if code != 1 || len(s.Bugs) != 1 || s.Bugs[0].Kind != c.kind {
				t.Fatalf("period test: exit %d, %+v %s", code, s, stderr)
			}
			file := s.Bugs[0].Replay

			code, v, text := verifyJSON(t, file)
			if code != 1 || v.Verdict != "still fails" || !v.Same || !v.Exact || v.Kind != c.kind {
				t.Errorf("unedited copy: exit %d, %+v\n%s", code, v, text)
			}
			var tout, terr bytes.Buffer
			if code := run([]string{"verify", "-o", t.TempDir(), file}, &tout, &terr); code != 1 || !strings.Contains(tout.String(), "\nstill fails: ") {
				t.Errorf("unedited copy, text: exit %d\n%s%s", code, tout.String(), terr.String())
			}

			applyTwin(t, filepath.Join(dir, c.file), c.buggy, c.fixed)
			code, v, text = verifyJSON(t, file)
			if code != 0 || v.Verdict != "fixed" || v.Exact || v.Diverged == "" || len(v.Bugs) != 0 || v.Budget != 300 || v.Schedules < 1 || v.Schedules > 300 {
				t.Errorf("fixed copy: exit %d, %+v\n%s", code, v, text)
			}
			tout.Reset()
			terr.Reset()
			if code := run([]string{"verify", "-o", t.TempDir(), file}, &tout, &terr); code != 0 || !strings.Contains(tout.String(), "\nfixed: no bug in ") {
				t.Errorf("fixed copy, text: exit %d\n%s%s", code, tout.String(), terr.String())
			}
			// A replay of the edited program says where it left the record,
			// with the line as recorded and as it is now.
			tout.Reset()
			terr.Reset()
			if code := run([]string{"replay", file}, &tout, &terr); code != 0 || !strings.Contains(tout.String(), " when recorded: ") || !strings.Contains(tout.String(), " now: ") {
				t.Errorf("replay of the fixed copy: exit %d\n%s%s", code, tout.String(), terr.String())
			}
		})
	}
}

// TestVerifyWrongFix: a fix that trades the bug for another one is not
// "fixed". In wgadd, adding wg.Add(1) before go while keeping the worker's
// own Add leaves the counter above zero: Sum waits forever.
func TestVerifyWrongFix(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores an example")
	}
	mod := t.TempDir()
	copyDir(t, "../../examples/wgadd", filepath.Join(mod, "wgadd"))
	copyFile(t, "../../examples/go.mod", filepath.Join(mod, "go.mod"))
	dir := filepath.Join(mod, "wgadd")
	code, sums, stderr := periodJSON(t, "test", "-json", "-race=false", "-budget", "300", "-run", "^TestSum$", "-o", t.TempDir(), dir)
	s := sums["TestSum"]
	if code != 1 || len(s.Bugs) != 1 {
		t.Fatalf("period test: exit %d, %+v %s", code, s, stderr)
	}
	src := filepath.Join(dir, "wgadd.go")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	wrong := strings.Replace(string(data), "\t\tin := make(chan int)\n\t\tgo func() {", "\t\tin := make(chan int)\n\t\twg.Add(1)\n\t\tgo func() {", 1)
	if wrong == string(data) {
		t.Fatal("wgadd.go: Sum's loop not found")
	}
	if err := os.WriteFile(src, []byte(wrong), 0o644); err != nil {
		t.Fatal(err)
	}
	code, v, text := verifyJSON(t, s.Bugs[0].Replay)
	if code != 1 || v.Verdict != "still fails" || v.Same || v.Exact || len(v.Bugs) == 0 || v.Bugs[0].Replay == "" {
		t.Errorf("wrong fix: exit %d, %+v\n%s", code, v, text)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"verify", "-o", t.TempDir(), s.Bugs[0].Replay}, &out, &errb); code != 1 || !strings.Contains(out.String(), "\nstill fails: a different bug, a ") {
		t.Errorf("wrong fix, text: exit %d\n%s%s", code, out.String(), errb.String())
	}
}

// verifyJSON runs period verify -json on file and decodes its verdict.
func verifyJSON(t *testing.T, file string) (int, VerifyResult, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run([]string{"verify", "-json", "-o", t.TempDir(), file}, &out, &errb)
	var v VerifyResult
	sc := bufio.NewScanner(bytes.NewReader(out.Bytes()))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var x VerifyResult
		if json.Unmarshal(sc.Bytes(), &x) == nil && x.Action == "verify" {
			v = x
		}
	}
	return code, v, out.String() + errb.String()
}

// applyTwin replaces the body of function buggy in file with that of fixed,
// as a user fixing the bug would.
func applyTwin(t *testing.T, file, buggy, fixed string) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	bodies := map[string]*ast.BlockStmt{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
			bodies[fd.Name.Name] = fd.Body
		}
	}
	b, x := bodies[buggy], bodies[fixed]
	if b == nil || x == nil {
		t.Fatalf("%s: no functions %s and %s", file, buggy, fixed)
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	edited := string(src[:off(b.Lbrace)]) + string(src[off(x.Lbrace):off(x.Rbrace)+1]) + string(src[off(b.Rbrace)+1:])
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			copyFile(t, filepath.Join(from, e.Name()), filepath.Join(to, e.Name()))
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
