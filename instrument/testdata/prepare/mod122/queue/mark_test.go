package queue

import "os"

// mark records that a test ran, in the file named by $PREPARE_MARKS.
func mark(name string) {
	path := os.Getenv("PREPARE_MARKS")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		panic(err)
	}
	f.WriteString(name + "\n")
	f.Close()
}
