package features

import "sync"

// inFlight is the bound on jobs taken and not yet emitted: 8 per worker,
// at least 32 (a few MB of features at most).
func inFlight(n int) int { return max(8*n, 32) }

// runOrdered computes work(worker, job) for every job that next produces,
// on n goroutines, and calls emit with the results in the order the jobs
// were produced. worker gives each goroutine's index so it can keep its own
// scratch state. next runs under a lock and emit on one goroutine at a time,
// so table readers and writers need no locking of their own.
//
// Every goroutine is a worker that takes its own job (reading it under the
// reader lock), computes it, and files the result; the worker that finds
// nobody writing becomes the writer for as long as results are in order,
// while the others go back to computing. An earlier design had a producer
// goroutine, n workers and the caller as the emitter: with GOMAXPROCS = n
// the workers held every P, and the producer and emitter, woken by channel
// hand-offs, waited for a worker to block before they could run, so a core
// idled while each job was read. Here no goroutine depends on another one
// being scheduled to make progress.
//
// At most inFlight(n) jobs are in flight (taken and not yet emitted), which
// bounds the memory held for reordering while letting the other workers run
// ahead of one stalled on a long job (or descheduled by the OS). An error
// from next stops reading (the jobs before it are still computed and
// emitted) and is returned; an error from emit stops everything and is
// returned.
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
	var (
		slots = make(chan struct{}, inFlight(n)) // one per job in flight
		stop  = make(chan struct{})              // closed on an emit error

		readMu   sync.Mutex // next, seq, readDone, readErr
		seq      int
		readDone bool
		readErr  error

		emitMu   sync.Mutex // pending, nextSeq, emitErr, emitting
		pending  = map[int]R{}
		nextSeq  int
		emitErr  error
		emitting bool // a worker is writing results (only one at a time)
		stopOnce sync.Once
	)
	take := func() (J, int, bool) {
		var zero J
		select {
		case slots <- struct{}{}:
		case <-stop:
			return zero, 0, false
		}
		readMu.Lock()
		defer readMu.Unlock()
		if readDone {
			<-slots
			return zero, 0, false
		}
		select {
		case <-stop:
			readDone = true
			<-slots
			return zero, 0, false
		default:
		}
		j, ok, err := next()
		if err != nil || !ok {
			readDone, readErr = true, err
			<-slots
			return zero, 0, false
		}
		s := seq
		seq++
		return j, s, true
	}
	// deliver files a result; the worker that finds no one emitting
	// becomes the emitter and writes results while they are in order, with
	// the lock released during each write, so other workers filing results
	// meanwhile go straight back to computing.
	deliver := func(s int, r R) {
		emitMu.Lock()
		pending[s] = r
		if emitting {
			emitMu.Unlock()
			return
		}
		emitting = true
		for {
			r, ok := pending[nextSeq]
			if !ok {
				break
			}
			delete(pending, nextSeq)
			nextSeq++
			failed := emitErr != nil
			emitMu.Unlock()
			if !failed {
				if err := emit(r); err != nil {
					emitMu.Lock()
					emitErr = err
					emitMu.Unlock()
					stopOnce.Do(func() { close(stop) })
				}
			}
			<-slots
			emitMu.Lock()
		}
		emitting = false
		emitMu.Unlock()
	}
	var wg sync.WaitGroup
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for {
				j, s, ok := take()
				if !ok {
					return
				}
				deliver(s, work(w, j))
			}
		}(w)
	}
	wg.Wait()
	if emitErr != nil {
		return emitErr
	}
	return readErr
}
