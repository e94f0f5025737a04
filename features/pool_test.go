package features

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"
)

// runOrdered keeps input order whatever the job durations, emits every job
// before a reader error and returns that error, and stops on an emit error.
func TestRunOrdered(t *testing.T) {
	errRead := errors.New("read failed")
	errEmit := errors.New("emit failed")
	cases := []struct {
		name       string
		threads    int
		jobs       int
		readFailAt int // -1: never
		emitFailAt int // -1: never
		wantEmits  int
		wantErr    error
	}{
		{"one thread", 1, 50, -1, -1, 50, nil},
		{"two threads", 2, 200, -1, -1, 200, nil},
		{"eight threads", 8, 300, -1, -1, 300, nil},
		{"reader error", 3, 100, 40, -1, 40, errRead},
		{"emit error", 3, 100, -1, 25, 25, errEmit},
		{"empty", 4, 0, -1, -1, 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(c.threads)))
			delays := make([]time.Duration, c.jobs)
			for i := range delays {
				delays[i] = time.Duration(rng.IntN(200)) * time.Microsecond
			}
			i := 0
			next := func() (int, bool, error) {
				if i == c.readFailAt {
					return 0, false, errRead
				}
				if i == c.jobs {
					return 0, false, nil
				}
				i++
				return i - 1, true, nil
			}
			busy := make([]bool, c.threads)
			work := func(w, j int) int {
				if busy[w] {
					t.Errorf("worker %d runs two jobs at once", w)
				}
				busy[w] = true
				time.Sleep(delays[j])
				busy[w] = false
				return j * 10
			}
			var got []int
			emit := func(r int) error {
				if len(got) == c.emitFailAt {
					return errEmit
				}
				got = append(got, r)
				return nil
			}
			err := runOrdered(c.threads, next, work, emit)
			if !errors.Is(err, c.wantErr) {
				t.Fatalf("error %v, want %v", err, c.wantErr)
			}
			if len(got) != c.wantEmits {
				t.Fatalf("%d results emitted, want %d", len(got), c.wantEmits)
			}
			for k, r := range got {
				if r != k*10 {
					t.Fatalf("result %d is %d, want %d", k, r, k*10)
				}
			}
		})
	}
}
