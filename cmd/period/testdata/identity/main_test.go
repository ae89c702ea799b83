package identity

import (
	"os"
	"testing"
)

var mainRan bool

func TestMain(m *testing.M) {
	mainRan = true
	os.Exit(m.Run())
}
