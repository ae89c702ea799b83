// Package cryptorand draws identifiers with crypto/rand, as uuid.New does,
// and ranges over a map keyed by them: Period draws them from the run's
// source, so a schedule replays with the same identifiers and the same map
// order. The test fails on purpose, reporting what it drew.
package cryptorand

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/big"
	"testing"
)

func id() string {
	b := make([]byte, 8)
	if _, err := io.ReadFull(rand.Reader, b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func TestDrawnIdentifiers(t *testing.T) {
	done := make(chan string)
	go func() {
		b := make([]byte, 4)
		rand.Read(b)
		n, _ := rand.Int(rand.Reader, big.NewInt(1000))
		done <- fmt.Sprintf("%x %d %s", b, n, rand.Text())
	}()
	ids := map[string]int{}
	for i := range 3 {
		ids[id()] = i
	}
	order := ""
	for k, v := range ids {
		order += fmt.Sprintf("%s=%d ", k, v)
	}
	t.Fatalf("drew %s| %s", order, <-done)
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errors.New("no entropy") }

// A Reader the test replaced is read as it is.
func TestReplacedReader(t *testing.T) {
	saved := rand.Reader
	rand.Reader = failing{}
	defer func() { rand.Reader = saved }()
	if _, err := io.ReadFull(rand.Reader, make([]byte, 4)); err == nil {
		t.Fatal("the replaced reader was not read")
	}
}
