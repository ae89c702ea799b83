//go:build go1.21

package strategy

// Exported for the external tests (package strategy_test imports sim, which
// imports strategy, so they cannot live in package strategy).
var (
	TBCover    = tbCover
	VBNextComb = vbNextComb
	RNGFor     = rngFor
)
