package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// WriteJSON writes r as indented JSON.
func WriteJSON(w io.Writer, r *Results) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReadJSON reads results written by WriteJSON.
func ReadJSON(path string) (*Results, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Results
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &r, nil
}

var csvHeader = []string{"package", "test", "want", "strategy", "seed", "found", "first", "first_any", "first_any_kind",
	"kinds", "schedules", "buggy", "exhausted", "elapsed_s", "wall_s", "crashes", "error"}

// WriteCSV writes one row per trial.
func WriteCSV(w io.Writer, r *Results) error {
	cw := csv.NewWriter(w)
	cw.Write(csvHeader)
	for _, c := range r.Cells {
		for _, t := range c.Trials {
			cw.Write([]string{c.Package, c.Test, c.Want, c.Strategy, fmt.Sprint(t.Seed), fmt.Sprint(t.Found),
				fmt.Sprint(t.First), fmt.Sprint(t.FirstAny), t.FirstAnyKind, strings.Join(t.Kinds, "+"),
				fmt.Sprint(t.Schedules), fmt.Sprint(t.Buggy), fmt.Sprint(t.Exhausted),
				fmt.Sprintf("%.4f", t.Elapsed), fmt.Sprintf("%.4f", t.Wall), fmt.Sprint(t.Crashes), t.Error})
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteAll writes results.json, results.csv, results.md and the two SVG
// figures into dir. The hand-written reading of an existing results.md is
// kept.
func WriteAll(dir string, r *Results) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	md := filepath.Join(dir, "results.md")
	reading, minimized := "", ""
	if old, err := os.ReadFile(md); err == nil {
		reading = Reading(string(old))
		minimized = Block(string(old), MinimizeBegin, MinimizeEnd)
	}
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{"results.json", func(w io.Writer) error { return WriteJSON(w, r) }},
		{"results.csv", func(w io.Writer) error { return WriteCSV(w, r) }},
		{"results.md", func(w io.Writer) error {
			if err := WriteMarkdown(w, r, reading); err != nil || minimized == "" {
				return err
			}
			_, err := io.WriteString(w, "\n"+minimized+"\n")
			return err
		}},
		{CumulativeSVG, func(w io.Writer) error { return WriteCumulativeSVG(w, r) }},
		{OverheadSVG, func(w io.Writer) error { return WriteOverheadSVG(w, r) }},
	}
	var written []string
	for _, f := range files {
		var buf bytes.Buffer
		if err := f.write(&buf); err != nil {
			return written, fmt.Errorf("%s: %v", f.name, err)
		}
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			return written, err
		}
		written = append(written, p)
	}
	return written, nil
}
