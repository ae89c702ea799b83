//go:build go1.24

package rt

import (
	crand "crypto/rand"
	"encoding/binary"
	"io"
)

// Cryptographic randomness. crypto/rand reads the operating system's
// generator, so a program that draws identifiers with it (uuid.New,
// rand.Text) gets other values in a replay, and with them other map
// orders and other paths. Inside a controlled run the rewritten
// crypto/rand.Reader, Read and Text draw from the run's source instead, as
// math/rand's functions do (rand.go): the same schedule gets the same
// bytes. A Reader the program replaced (a test's failing reader) is used as
// it is. Only test binaries Period builds are rewritten.

// stdCryptoReader is crypto/rand's own Reader.
var stdCryptoReader = crand.Reader

// cryptoRun is what the rewritten crypto/rand.Reader reads: the run's
// source for a controlled goroutine, crypto/rand's Reader otherwise.
type cryptoRun struct{}

var runCryptoReader io.Reader = &cryptoRun{}

func (*cryptoRun) Read(b []byte) (int, error) {
	if !fillFromRun(b) {
		return stdCryptoReader.Read(b)
	}
	return len(b), nil
}

// fillFromRun fills b from the run's source if the calling goroutine is
// controlled, and tells whether it did.
func fillFromRun(b []byte) bool {
	e := eng
	_, md := e.enter()
	if md != modeControl {
		return false
	}
	src := e.runSource()
	var w [8]byte
	for i := 0; i < len(b); i += 8 {
		binary.LittleEndian.PutUint64(w[:], src.Uint64())
		copy(b[i:], w[:])
	}
	e.mu.Unlock()
	return true
}

// CryptoReader is a read of crypto/rand.Reader, r its value.
func CryptoReader(r io.Reader) io.Reader {
	if r == stdCryptoReader {
		return runCryptoReader
	}
	return r
}

// CryptoRead is crypto/rand.Read(b).
func CryptoRead(b []byte) (int, error) {
	if crand.Reader == stdCryptoReader && fillFromRun(b) {
		return len(b), nil
	}
	return crand.Read(b)
}

// CryptoText is crypto/rand.Text(): 26 letters of the standard base32
// alphabet, as crypto/rand makes them.
func CryptoText() string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	b := make([]byte, 26)
	if crand.Reader != stdCryptoReader || !fillFromRun(b) {
		return crand.Text()
	}
	for i := range b {
		b[i] = alphabet[b[i]%32]
	}
	return string(b)
}
