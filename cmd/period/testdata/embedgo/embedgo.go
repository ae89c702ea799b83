// Package embedgo generates gen/gen.go; its test compares the golden file
// it embeds with the one on disk, as code generators' tests do.
package embedgo
