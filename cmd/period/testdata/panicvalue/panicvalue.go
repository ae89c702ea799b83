// Package panicvalue has an error type whose methods are instrumented code.
package panicvalue

import "fmt"

// Err is an error whose Error and Format read its fields (hooks).
type Err struct {
	Op   string
	Code int
}

func (e *Err) Error() string { return fmt.Sprintf("%s failed with code %d", e.Op, e.Code) }

// Format is as github.com/pkg/errors' fundamental.Format.
func (e *Err) Format(s fmt.State, verb rune) { fmt.Fprint(s, e.Error()) }
