package rt

import "testing"

// A -run pattern is read by levels and alternatives as go test reads it.
func TestRunFilterLevels(t *testing.T) {
	for _, c := range []struct {
		pattern string
		path    []string
		want    bool
	}{
		{"", []string{"TestA", "x"}, true},
		{"TestA", []string{"TestA", "anything"}, true},
		{"TestA", []string{"TestB"}, false},
		{"TestA/x", []string{"TestA"}, true},
		{"TestA/x", []string{"TestA", "box"}, true},
		{"TestA/x", []string{"TestA", "y"}, false},
		{"TestA/x", []string{"TestA", "x", "deeper"}, true},
		{"TestA/^x$/y", []string{"TestA", "x", "z"}, false},
		{"TestA/x|TestB", []string{"TestB", "y"}, true},
		{"TestA/x|TestB", []string{"TestA", "y"}, false},
		{"^(TestA|TestB)$/x", []string{"TestB", "x"}, true},
		{"^(TestA|TestB)$/x", []string{"TestB", "y"}, false},
		{"Test[/]A", []string{"Test/A"}, true},
		{`TestA\/x`, []string{"TestA/x"}, true},
	} {
		f, err := CompileRun(c.pattern)
		if err != nil {
			t.Fatalf("%q: %v", c.pattern, err)
		}
		if got := f.Match(c.path...); got != c.want {
			t.Errorf("%q matches %q: %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
	if _, err := CompileRun("TestA/("); err == nil {
		t.Error("TestA/( compiled")
	}
}
