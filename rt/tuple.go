//go:build go1.21

package rt

// TupleN gives the results of a call with N results as a slice, so that the
// rewriter can pass t.Fatal(f())'s results on to its hook:
// rt.TFatal(t, rt.Tuple2(f())...).

func Tuple2[A, B any](a A, b B) []any { return []any{a, b} }

func Tuple3[A, B, C any](a A, b B, c C) []any { return []any{a, b, c} }

func Tuple4[A, B, C, D any](a A, b B, c C, d D) []any { return []any{a, b, c, d} }

func Tuple5[A, B, C, D, E any](a A, b B, c C, d D, e E) []any { return []any{a, b, c, d, e} }

func Tuple6[A, B, C, D, E, F any](a A, b B, c C, d D, e E, f F) []any {
	return []any{a, b, c, d, e, f}
}
