package rt

import "testing"

// A strategy that always takes the first of two ready cases at the same
// select gets it caseUnfair times in a row, then the second once.
func TestFairCaseBoundsRepeatedChoices(t *testing.T) {
	g := &gstate{}
	g.p.site = "loop.go:10"
	taken := [2]int{}
	for i := 0; i < 10*(caseUnfair+1); i++ {
		taken[g.fairCase(2, 0)]++
	}
	if taken[1] != 10 || taken[0] != 10*caseUnfair {
		t.Fatalf("cases taken %v, want the second once after every %d firsts", taken, caseUnfair)
	}
	// Another select between resets the count: no choice is forced.
	g2 := &gstate{}
	for i := 0; i < 3*caseUnfair; i++ {
		g2.p.site = "a.go:1"
		if g2.fairCase(2, 0) != 0 {
			t.Fatal("forced a choice at a select taken fewer than caseUnfair times in a row")
		}
		g2.p.site = "b.go:2"
		g2.fairCase(3, 1)
	}
}
