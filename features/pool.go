package features

import "sync"

// runOrdered computes work(worker, job) for every job that next produces,
// on n goroutines, and calls emit with the results in the order the jobs
// were produced. worker gives each goroutine's index so it can keep its own
// scratch state. next runs under one lock and emit under another, so table
// readers and writers need no locking of their own.
//
// Every goroutine is a worker that takes its own job (reading it under the
// reader lock), computes it, and emits whatever results are then in order.
// An earlier design had a producer goroutine, n workers and the caller as
// the emitter: with GOMAXPROCS = n the workers held every P, and the
// producer and emitter, woken by channel hand-offs, waited for a worker to
// block before they could run, so a core idled while each job was read —
// the reason two threads scaled only 1.2–1.8×. Here no goroutine depends on
// another one being scheduled to make progress.
//
// At most 4n jobs are in flight (taken and not yet emitted), which bounds
// the memory held for reordering. An error from next stops reading (the
// jobs before it are still computed and emitted) and is returned; an error
// from emit stops everything and is returned.
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
		slots = make(chan struct{}, 4*n) // one per job in flight
		stop  = make(chan struct{})      // closed on an emit error

		readMu   sync.Mutex // next, seq, readDone, readErr
		seq      int
		readDone bool
		readErr  error

		emitMu   sync.Mutex // pending, nextSeq, emitErr, emit
		pending  = map[int]R{}
		nextSeq  int
		emitErr  error
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
	deliver := func(s int, r R) {
		emitMu.Lock()
		defer emitMu.Unlock()
		pending[s] = r
		for {
			r, ok := pending[nextSeq]
			if !ok {
				return
			}
			delete(pending, nextSeq)
			nextSeq++
			if emitErr == nil {
				if err := emit(r); err != nil {
					emitErr = err
					stopOnce.Do(func() { close(stop) })
				}
			}
			<-slots
		}
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
