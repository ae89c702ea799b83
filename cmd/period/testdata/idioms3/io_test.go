package idioms3

import (
	"bufio"
	"bytes"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"testing"
	"time"
)

// TestOSPipeReaderDeadline checks a reader goroutine on os.Pipe that gets all written data, then a deadline error since the writer stays open.
func TestOSPipeReaderDeadline(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	type result struct {
		data string
		err  error
	}
	res := make(chan result, 1)
	if err := r.SetReadDeadline(time.Now().Add(200 * time.Millisecond)); err != nil {
		t.Skip("pipe has no deadline support:", err)
	}
	go func() {
		var buf bytes.Buffer
		p := make([]byte, 16)
		for {
			n, err := r.Read(p)
			buf.Write(p[:n])
			if err != nil {
				res <- result{buf.String(), err}
				return
			}
		}
	}()
	for i := range 3 {
		fmt.Fprintf(w, "msg%d;", i)
	}
	got := <-res
	if got.data != "msg0;msg1;msg2;" {
		t.Fatalf("data %q", got.data)
	}
	if !errors.Is(got.err, os.ErrDeadlineExceeded) {
		t.Fatalf("err = %v, want deadline exceeded", got.err)
	}
}

// TestBufioScannerOverIOPipe checks a bufio.Scanner reading lines a writer goroutine writes into an io.Pipe, ending with its CloseWithError error.
func TestBufioScannerOverIOPipe(t *testing.T) {
	pr, pw := io.Pipe()
	errStop := errors.New("producer stopped")
	go func() {
		for i := range 5 {
			if _, err := fmt.Fprintf(pw, "line %d\n", i); err != nil {
				return
			}
		}
		pw.CloseWithError(errStop)
	}()
	sc := bufio.NewScanner(pr)
	n := 0
	for sc.Scan() {
		if want := fmt.Sprintf("line %d", n); sc.Text() != want {
			t.Fatalf("line %q, want %q", sc.Text(), want)
		}
		n++
	}
	if n != 5 {
		t.Fatalf("%d lines", n)
	}
	if !errors.Is(sc.Err(), errStop) {
		t.Fatalf("scanner err = %v", sc.Err())
	}
}

type event struct {
	Worker int    `json:"worker"`
	Seq    int    `json:"seq"`
	Note   string `json:"note"`
}

// TestJSONEncoderUnderMutex checks that a json.Encoder shared by goroutines under a mutex writes a stream of whole values.
func TestJSONEncoderUnderMutex(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	enc := json.NewEncoder(&buf)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for s := range 5 {
				mu.Lock()
				err := enc.Encode(event{w, s, fmt.Sprintf("w%d-s%d", w, s)})
				mu.Unlock()
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	dec := json.NewDecoder(&buf)
	next := make([]int, 4)
	for {
		var e event
		if err := dec.Decode(&e); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if e.Seq != next[e.Worker] || e.Note != fmt.Sprintf("w%d-s%d", e.Worker, e.Seq) {
			t.Fatalf("out of order or corrupt: %+v", e)
		}
		next[e.Worker]++
	}
	for w, n := range next {
		if n != 5 {
			t.Fatalf("worker %d: %d events", w, n)
		}
	}
}

// TestGobEncoderUnderMutex checks a gob.Encoder shared under a mutex, decoded in order on the other end of an io.Pipe.
func TestGobEncoderUnderMutex(t *testing.T) {
	pr, pw := io.Pipe()
	var mu sync.Mutex
	enc := gob.NewEncoder(pw)
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Go(func() {
			for s := range 4 {
				mu.Lock()
				err := enc.Encode(event{Worker: w, Seq: s})
				mu.Unlock()
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
	go func() {
		wg.Wait()
		pw.Close()
	}()
	dec := gob.NewDecoder(pr)
	next := make([]int, 3)
	total := 0
	for {
		var e event
		err := dec.Decode(&e)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if e.Seq != next[e.Worker] {
			t.Fatalf("worker %d seq %d, want %d", e.Worker, e.Seq, next[e.Worker])
		}
		next[e.Worker]++
		total++
	}
	if total != 12 {
		t.Fatalf("decoded %d", total)
	}
}
