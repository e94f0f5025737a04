package features

import "sync"

// runOrdered computes work(worker, job) for every job that next produces,
// on up to n goroutines, and calls emit with the results in the order the
// jobs were produced. next and emit run on the calling goroutine's side of
// the pool (next on one producer goroutine, emit on the caller), so table
// readers and writers need no locking; worker gives each goroutine's index
// so it can keep its own scratch state. At most 2n jobs are in flight. The
// first error from next or emit stops the pool and is returned.
func runOrdered[J, R any](n int, next func() (J, bool, error), work func(worker int, j J) R, emit func(R) error) error {
	if n <= 1 {
		for {
			j, ok, err := next()
			if err != nil || !ok {
				return err
			}
			if err := emit(work(0, j)); err != nil {
				return err
			}
		}
	}
	type item struct {
		seq int
		j   J
		r   R
	}
	jobs := make(chan item)
	results := make(chan item, 2*n)
	slots := make(chan struct{}, 2*n)
	stop := make(chan struct{})
	var prodErr error
	var prodDone sync.WaitGroup
	prodDone.Add(1)
	go func() { // producer
		defer prodDone.Done()
		defer close(jobs)
		for seq := 0; ; seq++ {
			select {
			case slots <- struct{}{}:
			case <-stop:
				return
			}
			j, ok, err := next()
			if err != nil || !ok {
				prodErr = err
				return
			}
			select {
			case jobs <- item{seq: seq, j: j}:
			case <-stop:
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for it := range jobs {
				it.r = work(w, it.j)
				var zero J
				it.j = zero
				results <- it
			}
		}(w)
	}
	go func() { wg.Wait(); close(results) }()
	pending := map[int]R{}
	nextSeq := 0
	var emitErr error
	for it := range results {
		if emitErr != nil {
			continue // drain
		}
		pending[it.seq] = it.r
		for {
			r, ok := pending[nextSeq]
			if !ok {
				break
			}
			delete(pending, nextSeq)
			nextSeq++
			<-slots
			if err := emit(r); err != nil {
				emitErr = err
				close(stop) // the producer selects on stop
				break
			}
		}
	}
	prodDone.Wait()
	if emitErr != nil {
		return emitErr
	}
	return prodErr
}
