package parallel

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/kaldinnet"
	"github.com/strode-asr/strode/acoustic/trainer"
	"github.com/strode-asr/strode/internal/atomicfile"
)

// Options configure Train. Schedule.NumArchives is filled from the egs.
type Options struct {
	Schedule       Schedule
	Cmd            string // --cmd: a Kaldi job runner with run.pl's `JOB=1:N LOG COMMAND` interface ("" : Strode's run.pl)
	Strode         string // the strode binary the jobs run
	Seed           int64  // --srand: the initial model and every job (with the iteration and job numbers)
	NumMinibatches int    // --num-minibatches per job (0: one pass over its archive)
	NumRetries     int    // --num-retries: times a failed job is run again before training stops
	FinalModel     string // --final-model: "last" or "best" (lowest held-out CE)
	InitModel      string // --init-model: 0.mdl from this model instead of a new one
	Model          am.Options
	Train          trainer.TrainOptions // the options a job takes (kaldinnet.RegisterIterTrainOptions)
	Stderr         io.Writer            // where the runner's own output goes (nil: discarded)
}

// DefaultOptions: DefaultSchedule, one retry, the last model as final.mdl
// (as nnet3, whose final model comes from the last iterations), seed 0 as
// nnet3's --srand.
func DefaultOptions() Options {
	return Options{Schedule: DefaultSchedule(), NumRetries: 1, FinalModel: "last", Train: trainer.DefaultTrainOptions()}
}

// Register adds the driver's own options and the schedule's (the model and
// job training options register themselves).
func (o *Options) Register(fs *flag.FlagSet) {
	o.Schedule.Register(fs)
	fs.StringVar(&o.Cmd, "cmd", o.Cmd, "job runner with the JOB=1:N LOG COMMAND interface: 'strode run.pl --max-jobs-run 2', 'utils/slurm.pl --mem 4G', queue.pl ... (default: this strode's run.pl)")
	fs.Int64Var(&o.Seed, "srand", o.Seed, "seed of the initial model and of every job's shuffling and dropout (with the iteration and job numbers)")
	fs.IntVar(&o.NumMinibatches, "num-minibatches", o.NumMinibatches, "minibatches per job and iteration (0: one pass over the job's archive)")
	fs.IntVar(&o.NumRetries, "num-retries", o.NumRetries, "run a failed job again this many times before stopping (a re-run resumes)")
	fs.StringVar(&o.FinalModel, "final-model", o.FinalModel, "final.mdl is the last iteration's model (last) or the one with the lowest held-out CE (best)")
	fs.StringVar(&o.InitModel, "init-model", o.InitModel, "start from this model (its options and parameters) instead of a new one")
}

// Result is what Train did.
type Result struct {
	Final    string     // path of final.mdl
	History  []am.Epoch // one entry per iteration: Epoch is the model number N (after iteration N−1)
	Resumed  int        // the iteration training continued from (0: a fresh start)
	Seconds  float64    // wall time of the iterations this run did
	NumIters int
}

// ErrOptionsChanged is returned when a directory is resumed with options
// that change the results.
var ErrOptionsChanged = errors.New("options differ from the run being resumed")

// Model files in a training directory.
func modelPath(dir string, n int) string { return filepath.Join(dir, fmt.Sprintf("%d.mdl", n)) }
func jobModel(dir string, n, job int) string {
	return filepath.Join(dir, fmt.Sprintf("%d.%d.mdl", n, job))
}
func jobLog(dir string, iter int, job string) string {
	return filepath.Join(dir, "log", fmt.Sprintf("train.%d.%s.log", iter, job))
}

// Train runs data-parallel training on the examples in egsDir into dir:
// iteration N starts Schedule.NumJobs(N) jobs through the runner,
//
//	<cmd> JOB=1:n dir/log/train.N.JOB.log <strode> train-iter --egs-dir=... --job=JOB ... dir/N.mdl dir/N+1.JOB.mdl
//
// waits, runs any job whose model is missing again (up to NumRetries
// times, one `JOB=k:k` call each), averages the jobs' models into
// dir/N+1.mdl (atomically, with the held-out statistics in its history)
// and deletes them. An iteration is complete when its averaged model
// exists: a re-run continues after the last complete iteration and
// discards job models of an incomplete one, so, everything being seeded by
// (Seed, iteration, job), it ends with the models an uninterrupted run
// would have. final.mdl is a copy of the last or best model without the
// optimizer state.
func Train(egsDir, dir string, o Options, log func(string, ...any)) (*Result, error) {
	info, err := kaldinnet.ReadEgsInfo(egsDir)
	if err != nil {
		return nil, err
	}
	o.Schedule.NumArchives = info.NumArchives
	s := o.Schedule
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if o.FinalModel != "last" && o.FinalModel != "best" {
		return nil, fmt.Errorf("parallel: --final-model=%q: want last or best", o.FinalModel)
	}
	if o.Strode == "" {
		return nil, fmt.Errorf("parallel: no strode binary to run the jobs with")
	}
	if o.Cmd == "" {
		o.Cmd = shellQuote(o.Strode) + " run.pl"
	}
	if err := os.MkdirAll(filepath.Join(dir, "log"), 0o755); err != nil {
		return nil, err
	}
	valid, err := kaldinnet.ReadEgs("ark:"+kaldinnet.ValidDiagnostic(egsDir), info.Pipeline, info.NumPdfs)
	if err != nil {
		return nil, err
	}
	var trainSub []*am.Utterance
	if _, err := os.Stat(kaldinnet.TrainDiagnostic(egsDir)); err == nil {
		if trainSub, err = kaldinnet.ReadEgs("ark:"+kaldinnet.TrainDiagnostic(egsDir), info.Pipeline, info.NumPdfs); err != nil {
			return nil, err
		}
	}
	start, err := lastComplete(dir, s.NumIters())
	if err != nil {
		return nil, err
	}
	if start < 0 {
		if err := writeInitialModel(egsDir, dir, info, o, log); err != nil {
			return nil, err
		}
		start = 0
	}
	if err := checkResumable(egsDir, dir, info, o); err != nil {
		return nil, err
	}
	res := &Result{Resumed: start, NumIters: s.NumIters()}
	if start > 0 {
		log("resuming after iteration %d of %d (%s exists; later job models are redone)", start-1, s.NumIters(), modelPath(dir, start))
	} else {
		log("%d iterations: %g epochs over %d archives (%d utterances, %d frames) with %d to %d jobs; effective learning rate %g to %g",
			s.NumIters(), s.NumEpochs, s.NumArchives, info.NumUtts, info.NumFrames, s.NumJobsInitial, s.NumJobsFinal, s.InitialEffectiveLrate, s.FinalEffectiveLrate)
	}
	t0 := time.Now()
	for iter := start; iter < s.NumIters(); iter++ {
		log("%s", s.iterationLine(iter, start, time.Since(t0)))
		if err := runIteration(egsDir, dir, iter, o, valid, trainSub, log); err != nil {
			return nil, err
		}
	}
	res.Seconds = time.Since(t0).Seconds()
	if done := s.NumIters() - start; done > 0 {
		epochs := s.NumEpochs * float64(done) / float64(s.NumIters())
		log("%d iterations (%.3g epochs) in %.1f s: %.1f s per epoch", done, epochs, res.Seconds, res.Seconds/epochs)
	}
	last, err := am.Load(modelPath(dir, s.NumIters()))
	if err != nil {
		return nil, err
	}
	res.History = last.History
	final := s.NumIters()
	if o.FinalModel == "best" {
		bestCE := math.Inf(1)
		for _, e := range last.History {
			if e.ValidCE < bestCE {
				bestCE, final = e.ValidCE, e.Epoch
			}
		}
	}
	f := last
	if final != s.NumIters() {
		if f, err = am.Load(modelPath(dir, final)); err != nil {
			return nil, err
		}
		f.History = last.History
	}
	res.Final = filepath.Join(dir, "final.mdl")
	if err := trainer.WithoutOptimizerState(f).Save(res.Final); err != nil {
		return nil, err
	}
	e := last.History[len(last.History)-1]
	for _, h := range last.History {
		if h.Epoch == final {
			e = h
		}
	}
	log("final.mdl is %d.mdl (%s): held-out CE %.4f, frame accuracy %.2f%%", final, o.FinalModel, e.ValidCE, 100*e.ValidAcc)
	return res, nil
}

// lastComplete is the number of the latest model N.mdl in dir (N ≤ max),
// or -1 when there is none.
func lastComplete(dir string, maxIter int) (int, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return -1, err
	}
	re := regexp.MustCompile(`^(\d+)\.mdl$`)
	last := -1
	for _, e := range ents {
		if m := re.FindStringSubmatch(e.Name()); m != nil {
			n, _ := strconv.Atoi(m[1])
			if n <= maxIter {
				last = max(last, n)
			}
		}
	}
	return last, nil
}

// writeInitialModel writes dir/0.mdl: --init-model without its optimizer
// state, or a new model of o.Model's options for the egs' pipeline.
func writeInitialModel(egsDir, dir string, info kaldinnet.EgsInfo, o Options, log func(string, ...any)) error {
	var f *am.File
	if o.InitModel != "" {
		g, err := am.Load(o.InitModel)
		if err != nil {
			return err
		}
		f = trainer.WithoutOptimizerState(g)
		f.History = nil // the history of this training: entry N−1 is N.mdl's
		log("initial model: %s", o.InitModel)
	} else {
		mo := o.Model
		mo.InputDim, mo.NumPdfs = info.Pipeline.InputDim(), info.NumPdfs
		m, err := am.New(mo, o.Seed)
		if err != nil {
			return err
		}
		f = &am.File{Model: m, Pipeline: info.Pipeline}
		log("initial model: %s, %d parameters, input %d (%s), %d pdfs", mo.Kind, m.NumParams(), mo.InputDim, info.Pipeline, mo.NumPdfs)
	}
	if err := kaldinnet.CheckEgsFit(info, f, egsDir, modelPath(dir, 0)); err != nil {
		return err
	}
	return f.Save(modelPath(dir, 0))
}

// resumeKey is what must not change between a run and its resumption.
type resumeKey struct {
	Schedule       Schedule `json:"schedule"`
	Seed           int64    `json:"srand"`
	NumMinibatches int      `json:"num_minibatches"`
	TrainFlags     []string `json:"train_flags"`
	Egs            string   `json:"egs"`
	NumFrames      int      `json:"egs_num_frames"`
}

// checkResumable records the options that decide the results in
// dir/train_options.json, or checks them against the recorded ones.
func checkResumable(egsDir, dir string, info kaldinnet.EgsInfo, o Options) error {
	abs, _ := filepath.Abs(egsDir)
	k := resumeKey{Schedule: o.Schedule, Seed: o.Seed, NumMinibatches: o.NumMinibatches, TrainFlags: kaldinnet.IterTrainFlags(o.Train), Egs: abs, NumFrames: info.NumFrames}
	if o.InitModel == "" { // the model options given now must be those of 0.mdl
		f, err := am.Load(modelPath(dir, 0))
		if err != nil {
			return err
		}
		mo := o.Model
		mo.InputDim, mo.NumPdfs = info.Pipeline.InputDim(), info.NumPdfs
		if a, b := f.Model.Opts.JSON(), mo.JSON(); a != b {
			return fmt.Errorf("parallel: %s: %w: the model options are %s, now %s", modelPath(dir, 0), ErrOptionsChanged, a, b)
		}
	}
	now, _ := json.MarshalIndent(k, "", "  ")
	path := filepath.Join(dir, "train_options.json")
	old, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return atomicfile.WriteBytes(path, append(now, '\n'))
	} else if err != nil {
		return err
	}
	if strings.TrimSpace(string(old)) != strings.TrimSpace(string(now)) {
		return fmt.Errorf("parallel: %s: %w: it has\n%s\nnow\n%s\n(use another directory, or the same options)", path, ErrOptionsChanged, old, now)
	}
	return nil
}

// runIteration runs iteration iter: the jobs, the average, the statistics.
func runIteration(egsDir, dir string, iter int, o Options, valid, trainSub []*am.Utterance, log func(string, ...any)) error {
	s := o.Schedule
	n, lr := s.NumJobs(iter), s.LearningRate(iter)
	t0 := time.Now()
	// Job models of an earlier, interrupted attempt at this iteration are redone.
	// So are the temporary files of jobs (or an average) killed while writing.
	stale, _ := filepath.Glob(filepath.Join(dir, fmt.Sprintf("%d.*.mdl", iter+1)))
	tmps, _ := filepath.Glob(filepath.Join(dir, fmt.Sprintf(".%d.*mdl.tmp*", iter+1)))
	for _, f := range append(stale, tmps...) {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	args := []string{o.Strode, "train-iter", "--egs-dir=" + egsDir, fmt.Sprintf("--num-archives-processed=%d", s.ArchivesProcessed(iter)),
		"--job=JOB", fmt.Sprintf("--iter=%d", iter), fmt.Sprintf("--srand=%d", o.Seed), "--learning-rate=" + strconv.FormatFloat(lr, 'g', -1, 64),
		fmt.Sprintf("--num-minibatches=%d", o.NumMinibatches)}
	args = append(args, kaldinnet.IterTrainFlags(o.Train)...)
	args = append(args, modelPath(dir, iter), filepath.Join(dir, fmt.Sprintf("%d.JOB.mdl", iter+1)))
	if err := runJobs(o, fmt.Sprintf("JOB=1:%d", n), jobLog(dir, iter, "JOB"), args); err != nil {
		log("WARNING: iteration %d: %v", iter, err)
	}
	for try := 0; ; try++ {
		var missing []int
		for j := 1; j <= n; j++ {
			if _, err := os.Stat(jobModel(dir, iter+1, j)); err != nil {
				missing = append(missing, j)
			}
		}
		if len(missing) == 0 {
			break
		}
		if try == o.NumRetries {
			return fmt.Errorf("parallel: iteration %d: job(s) %v failed %d time(s), see %s; re-run to resume from %s",
				iter, missing, try+1, jobLog(dir, iter, strconv.Itoa(missing[0])), modelPath(dir, iter))
		}
		for _, j := range missing {
			l := jobLog(dir, iter, strconv.Itoa(j))
			kept := fmt.Sprintf("%s.failed%d", l, try+1)
			os.Rename(l, kept) // keep the failed attempt's log
			log("WARNING: iteration %d job %d left no %s (log kept as %s): running it again", iter, j, jobModel(dir, iter+1, j), kept)
			if err := runJobs(o, fmt.Sprintf("JOB=%d:%d", j, j), jobLog(dir, iter, "JOB"), args); err != nil {
				log("WARNING: iteration %d job %d: %v", iter, j, err)
			}
		}
	}
	jobsDone := time.Since(t0).Seconds()
	paths := make([]string, n)
	for j := range paths {
		paths[j] = jobModel(dir, iter+1, j+1)
	}
	avg, err := trainer.AverageFiles(paths)
	if err != nil {
		return err
	}
	st, _, _ := trainer.IterationStatsOf(avg)
	vs, err := evaluate(avg, o.Train, valid)
	if err != nil {
		return err
	}
	e := am.Epoch{Epoch: iter + 1, LearningRate: lr, TrainCE: st.TrainCE, TrainAcc: st.TrainAcc,
		ValidCE: vs.MeanCE(), ValidAcc: vs.Accuracy(), FramesPerSec: float64(st.Frames) / math.Max(jobsDone, 1e-9)}
	diag := ""
	if len(trainSub) > 0 {
		ts, err := evaluate(avg, o.Train, trainSub)
		if err != nil {
			return err
		}
		e.TrainCE, e.TrainAcc = ts.MeanCE(), ts.Accuracy()
		diag = fmt.Sprintf("train-subset CE %.4f, accuracy %.2f%%; ", e.TrainCE, 100*e.TrainAcc)
	}
	best := math.Inf(1)
	for _, h := range avg.History {
		best = math.Min(best, h.ValidCE)
	}
	e.Accepted = e.ValidCE < best
	e.Seconds = time.Since(t0).Seconds()
	avg.History = append(avg.History, e)
	if err := avg.Save(modelPath(dir, iter+1)); err != nil {
		return err
	}
	for _, p := range paths {
		os.Remove(p)
	}
	log("iter %d: held-out CE %.4f, frame accuracy %.2f%% (%d.mdl; %sjobs' CE %.4f, accuracy %.2f%%; %d jobs at lr %.3g; %d frames; %.1f s, jobs %.1f s)",
		iter, e.ValidCE, 100*e.ValidAcc, iter+1, diag, st.TrainCE, 100*st.TrainAcc, n, lr, st.Frames, e.Seconds, jobsDone)
	return nil
}

// evaluate computes the statistics of f's model on utts.
func evaluate(f *am.File, o trainer.TrainOptions, utts []*am.Utterance) (am.Stats, error) {
	tr, err := trainer.NewTrainer(f, o)
	if err != nil {
		return am.Stats{}, err
	}
	defer tr.Close()
	return tr.Evaluate(utts)
}

// runJobs runs `<cmd> <jobs> <log> <args...>` through bash, as Kaldi's
// scripts run $cmd; args are quoted for that shell.
func runJobs(o Options, jobs, log string, args []string) error {
	words := []string{o.Cmd, jobs, shellQuote(log)}
	for _, a := range args {
		words = append(words, shellQuote(a))
	}
	c := exec.Command("bash", "-c", strings.Join(words, " "))
	c.Stdout, c.Stderr = o.Stderr, o.Stderr
	if err := c.Run(); err != nil {
		return fmt.Errorf("%s %s %s ...: %w", o.Cmd, jobs, log, err)
	}
	return nil
}

// shellQuote quotes s for bash when it holds anything but safe characters.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=+.,/:@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
