package parallel

import (
	"flag"
	"fmt"
	"math"
	"time"
)

// Schedule is nnet3's training schedule (steps/nnet3/train_rnn.py and
// steps/libs/nnet3/train/common.py): how many iterations, how many jobs in
// each, which archives they read and at which learning rate.
type Schedule struct {
	NumJobsInitial        int     // --num-jobs-initial
	NumJobsFinal          int     // --num-jobs-final
	NumEpochs             float64 // --num-epochs
	InitialEffectiveLrate float64 // --initial-effective-lrate
	FinalEffectiveLrate   float64 // --final-effective-lrate
	NumArchives           int     // from the egs directory
}

// DefaultSchedule: nnet3's job counts (1 → 1) and epochs (8 in
// train_dnn.py's parser; we default to 4 for CPU recipes), with learning
// rates for Adam (nnet3's 0.0003 → 0.00003 are for natural-gradient SGD):
// our `strode train` uses 1e-3.
func DefaultSchedule() Schedule {
	return Schedule{NumJobsInitial: 1, NumJobsFinal: 1, NumEpochs: 4, InitialEffectiveLrate: 1e-3, FinalEffectiveLrate: 1e-4}
}

// Register adds the schedule's options to fs.
func (s *Schedule) Register(fs *flag.FlagSet) {
	fs.IntVar(&s.NumJobsInitial, "num-jobs-initial", s.NumJobsInitial, "number of parallel jobs at the start of training")
	fs.IntVar(&s.NumJobsFinal, "num-jobs-final", s.NumJobsFinal, "number of parallel jobs at the end of training (at most the number of archives)")
	fs.Float64Var(&s.NumEpochs, "num-epochs", s.NumEpochs, "number of passes over the training archives")
	fs.Float64Var(&s.InitialEffectiveLrate, "initial-effective-lrate", s.InitialEffectiveLrate, "effective learning rate at the start; a job's rate is the effective rate times the number of jobs")
	fs.Float64Var(&s.FinalEffectiveLrate, "final-effective-lrate", s.FinalEffectiveLrate, "effective learning rate at the end (geometric decay in between, by archives processed)")
}

// Validate checks the schedule against its archives.
func (s Schedule) Validate() error {
	switch {
	case s.NumJobsInitial < 1 || s.NumJobsFinal < 1:
		return fmt.Errorf("parallel: --num-jobs-initial=%d and --num-jobs-final=%d must be ≥ 1", s.NumJobsInitial, s.NumJobsFinal)
	case s.NumJobsFinal > s.NumArchives || s.NumJobsInitial > s.NumArchives:
		return fmt.Errorf("parallel: %d jobs but only %d archives: a job needs an archive of its own (get-egs --num-archives)", max(s.NumJobsInitial, s.NumJobsFinal), s.NumArchives)
	case !(s.NumEpochs > 0):
		return fmt.Errorf("parallel: --num-epochs=%g must be > 0", s.NumEpochs)
	case !(s.InitialEffectiveLrate > 0) || !(s.FinalEffectiveLrate > 0):
		return fmt.Errorf("parallel: learning rates %g and %g must be > 0", s.InitialEffectiveLrate, s.FinalEffectiveLrate)
	case s.NumIters() < 1:
		return fmt.Errorf("parallel: %g epochs of %d archives with %d→%d jobs is less than one iteration", s.NumEpochs, s.NumArchives, s.NumJobsInitial, s.NumJobsFinal)
	}
	return nil
}

// ArchivesToProcess is int(num_epochs × num_archives).
func (s Schedule) ArchivesToProcess() int { return int(s.NumEpochs * float64(s.NumArchives)) }

// NumIters is nnet3's num_iters: the archives to process spread over the
// average number of jobs, int(2·archives_to_process / (initial + final)).
func (s Schedule) NumIters() int {
	return 2 * s.ArchivesToProcess() / (s.NumJobsInitial + s.NumJobsFinal)
}

// NumJobs is the number of jobs of iteration iter (0-based):
// int(0.5 + initial + (final − initial)·iter/num_iters).
func (s Schedule) NumJobs(iter int) int {
	return int(0.5 + float64(s.NumJobsInitial) + float64(s.NumJobsFinal-s.NumJobsInitial)*float64(iter)/float64(s.NumIters()))
}

// ArchivesProcessed is the number of archives the iterations before iter
// used (nnet3's num_archives_processed); job j (1-based) of iteration iter
// reads archive ((ArchivesProcessed(iter) + j − 1) mod num_archives) + 1.
func (s Schedule) ArchivesProcessed(iter int) int {
	n := 0
	for i := 0; i < iter; i++ {
		n += s.NumJobs(i)
	}
	return n
}

// LearningRate is each job's rate in iteration iter: the effective rate,
// decaying geometrically from the initial to the final one with the
// archives processed (the final one on the last iteration), times the
// number of jobs — averaging N models that each took a step divides the
// step by N (common.py's get_learning_rate).
func (s Schedule) LearningRate(iter int) float64 {
	eff := s.FinalEffectiveLrate
	if iter+1 < s.NumIters() {
		eff = s.InitialEffectiveLrate * math.Exp(float64(s.ArchivesProcessed(iter))*
			math.Log(s.FinalEffectiveLrate/s.InitialEffectiveLrate)/float64(s.ArchivesToProcess()))
	}
	return float64(s.NumJobs(iter)) * eff
}

// Archive is the 1-based archive job j (1-based) of iteration iter reads.
func (s Schedule) Archive(iter, job int) int {
	return (s.ArchivesProcessed(iter)+job-1)%s.NumArchives + 1
}

// iterationLine is the line logged as iteration iter starts: nnet3's
// train_dnn.py "Iter: i/N   Jobs: n   Epoch: e/E (p% complete)   lr: x"
// (N the last iteration's number, as there), then an ETA once this run
// (which started at iteration start, elapsed ago) has finished an
// iteration. The ETA scales the time so far by the archives still to
// process: jobs share the machine's cores, so an iteration's time grows
// with its number of jobs.
func (s Schedule) iterationLine(iter, start int, elapsed time.Duration) string {
	done := s.ArchivesProcessed(iter)
	toDo := s.ArchivesToProcess()
	line := fmt.Sprintf("Iter: %d/%d   Jobs: %d   Epoch: %.2f/%.1f (%.1f%% complete)   lr: %.6f",
		iter, s.NumIters()-1, s.NumJobs(iter), float64(done)*s.NumEpochs/float64(toDo), s.NumEpochs,
		100*float64(done)/float64(toDo), s.LearningRate(iter))
	if ran := done - s.ArchivesProcessed(start); ran > 0 && iter > start {
		left := s.ArchivesProcessed(s.NumIters()) - done
		eta := time.Duration(float64(elapsed) * float64(left) / float64(ran)).Round(time.Second)
		line += fmt.Sprintf("   ETA: %s (%s so far)", eta, elapsed.Round(time.Second))
	}
	return line
}
