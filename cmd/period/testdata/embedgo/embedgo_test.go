package embedgo

import (
	"embed"
	"os"
	"testing"

	"example.com/embedgo/gen"
)

//go:embed gen
var golden embed.FS

func TestGoldenIsTheFile(t *testing.T) {
	embedded, err := golden.ReadFile("gen/gen.go")
	if err != nil {
		t.Fatal(err)
	}
	onDisk, err := os.ReadFile("gen/gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(embedded) != string(onDisk) {
		t.Errorf("the embedded golden file differs from the one on disk:\n%s", embedded)
	}
	if gen.Sum([]int{1, 2, 3}) != 6 {
		t.Error("wrong sum")
	}
}
