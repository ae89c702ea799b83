package skipmain

import (
	"fmt"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	if os.Getenv("SKIPMAIN_SERVER") == "" {
		fmt.Println("no server: skipping the tests")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestNeedsServer(t *testing.T) { t.Fatal("ran without a server") }
