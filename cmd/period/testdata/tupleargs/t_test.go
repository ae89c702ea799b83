// Package tupleargs passes the results of a call with several results to
// t.Log and t.Fatal as their arguments (gojq's tests: t.Fatal(gojq.Compile(q))),
// which Go allows and the rewritten hooks must too.
package tupleargs

import (
	"errors"
	"testing"
)

func compile(q string) (*int, error) {
	if q == "" {
		return nil, errors.New("empty")
	}
	n := len(q)
	return &n, nil
}

func three() (string, int, error) { return "a", 1, nil }

type logger interface{ Log(args ...any) }

func TestTupleArgs(t *testing.T) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		t.Log(compile("x"))
		t.Log(three())
		var l logger = t
		l.Log(compile("y"))
		var tb testing.TB = t
		tb.Log(three())
	}()
	<-done
	if _, err := compile(""); err == nil {
		t.Fatal(compile(""))
	}
}
