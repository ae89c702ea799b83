package app

import "testing"

func TestQuad(t *testing.T) {
	mark("app.TestQuad")
	if Quad(2) != 8 {
		t.Fatal("Quad(2) != 8")
	}
}
