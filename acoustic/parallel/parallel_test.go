package parallel

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/kaldinnet"
	"github.com/strode-asr/strode/acoustic/sru"
	"github.com/strode-asr/strode/acoustic/trainer"
)

// The driver runs `<strode> train-iter ...` through a job runner. In these
// tests the test binary is that strode: with STRODE_PARALLEL_FAKE=1 in its
// environment, TestMain runs train-iter from its arguments, as the real
// subcommand does, and fails on purpose where STRODE_PARALLEL_FAIL says.
func TestMain(m *testing.M) {
	if js := os.Getenv("STRODE_PARALLEL_DRIVER"); js != "" && (len(os.Args) < 2 || os.Args[1] != "train-iter") {
		os.Unsetenv("STRODE_PARALLEL_DRIVER") // the jobs it starts are train-iter, not drivers
		os.Exit(driverChild(js))
	}
	if os.Getenv("STRODE_PARALLEL_FAKE") == "1" {
		os.Exit(fakeStrode(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fakeStrode is `strode train-iter`. STRODE_PARALLEL_FAIL=ITER.JOB makes
// that job fail: every time, or only the first time when
// STRODE_PARALLEL_FAIL_ONCE names a marker file (created on failing).
// STRODE_PARALLEL_HANG=ITER.JOB makes that job create the marker file
// STRODE_PARALLEL_HANG_MARK and then wait to be killed, so that a test can
// kill a driver in the middle of an iteration whatever the machine's speed.
func fakeStrode(args []string) int {
	if len(args) == 0 || args[0] != "train-iter" {
		fmt.Fprintf(os.Stderr, "fake strode: only train-iter, got %q\n", args)
		return 1
	}
	s := kaldinnet.IterSetup{Train: trainer.DefaultTrainOptions()}
	fs := flag.NewFlagSet("train-iter", flag.ContinueOnError)
	s.Register(fs)
	kaldinnet.RegisterIterTrainOptions(fs, &s.Train)
	if err := fs.Parse(args[1:]); err != nil || fs.NArg() != 2 {
		fmt.Fprintf(os.Stderr, "fake strode: %v, %d arguments\n", err, fs.NArg())
		return 1
	}
	if fail := os.Getenv("STRODE_PARALLEL_FAIL"); fail == fmt.Sprintf("%d.%d", s.Iter.Iter, s.Iter.Job) {
		mark := os.Getenv("STRODE_PARALLEL_FAIL_ONCE")
		if mark == "" {
			fmt.Fprintln(os.Stderr, "fake strode: failing as asked")
			return 1
		}
		if _, err := os.Stat(mark); err != nil {
			os.WriteFile(mark, nil, 0o644)
			fmt.Fprintln(os.Stderr, "fake strode: failing once as asked")
			return 1
		}
	}
	if hang := os.Getenv("STRODE_PARALLEL_HANG"); hang == fmt.Sprintf("%d.%d", s.Iter.Iter, s.Iter.Job) {
		os.WriteFile(os.Getenv("STRODE_PARALLEL_HANG_MARK"), nil, 0o644)
		time.Sleep(10 * time.Minute) // the test kills the process group long before
		return 1
	}
	s.ModelIn, s.ModelOut = fs.Arg(0), fs.Arg(1)
	if _, err := kaldinnet.TrainIteration(s, func(f string, a ...any) { fmt.Fprintf(os.Stderr, "LOG "+f+"\n", a...) }); err != nil {
		fmt.Fprintln(os.Stderr, "ERROR", err)
		return 1
	}
	return 0
}

// driverRun is what a driver child process runs (the kill -9 test).
type driverRun struct {
	Egs, Dir string
	Opts     Options
}

// driverChild runs the driver of a JSON driverRun, as `strode
// train-parallel` would in its own process.
func driverChild(js string) int {
	var r driverRun
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := Train(r.Egs, r.Dir, r.Opts, func(string, ...any) {}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// killDriverMidway runs the driver in a child process (its own process
// group: the runner and the jobs too) and kills the group with SIGKILL
// while iteration 3's jobs run: job 3.1 waits to be killed
// (STRODE_PARALLEL_HANG), so the driver cannot finish first on a machine
// busy enough to delay this process.
func killDriverMidway(t *testing.T, egs, dir string, o Options) {
	t.Helper()
	js, err := json.Marshal(driverRun{Egs: egs, Dir: dir, Opts: o})
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	c := exec.Command(exe, "-test.run=^$")
	mark := filepath.Join(t.TempDir(), "hanging")
	c.Env = append(os.Environ(), "STRODE_PARALLEL_DRIVER="+string(js), "STRODE_PARALLEL_HANG=3.1", "STRODE_PARALLEL_HANG_MARK="+mark)
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := c.Process.Pid
	t.Cleanup(func() { syscall.Kill(-pgid, syscall.SIGKILL) }) // whatever happens below, nothing outlives the test
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if _, err := os.Stat(mark); err == nil {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the driver ended before iteration 3: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("iteration 3 did not start in 2 minutes")
		}
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	<-done
}

func TestScheduleMatchesNnet3(t *testing.T) {
	s := Schedule{NumJobsInitial: 2, NumJobsFinal: 4, NumEpochs: 2, InitialEffectiveLrate: 1e-3, FinalEffectiveLrate: 1e-4, NumArchives: 8}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	// 16 archives to process over (2+4)/2 jobs: int(32/6) = 5 iterations;
	// jobs int(0.5 + 2 + 2·i/5) = 2, 2, 3, 3, 4.
	if s.ArchivesToProcess() != 16 || s.NumIters() != 5 {
		t.Fatalf("%d archives, %d iterations; want 16, 5", s.ArchivesToProcess(), s.NumIters())
	}
	wantJobs, wantDone := []int{2, 2, 3, 3, 4}, []int{0, 2, 4, 7, 10}
	for i := range wantJobs {
		if s.NumJobs(i) != wantJobs[i] || s.ArchivesProcessed(i) != wantDone[i] {
			t.Errorf("iter %d: %d jobs after %d archives, want %d after %d", i, s.NumJobs(i), s.ArchivesProcessed(i), wantJobs[i], wantDone[i])
		}
	}
	// Iteration 3 after 7 archives: jobs read archives 8, 1, 2.
	if a, b, c := s.Archive(3, 1), s.Archive(3, 2), s.Archive(3, 3); a != 8 || b != 1 || c != 2 {
		t.Errorf("iteration 3 reads archives %d %d %d, want 8 1 2", a, b, c)
	}
	lr := []struct {
		iter int
		want float64
	}{
		{0, 2 * 1e-3},
		{2, 3 * 1e-3 * math.Exp(4*math.Log(0.1)/16)},
		{3, 3 * 1e-3 * math.Exp(7*math.Log(0.1)/16)},
		{4, 4 * 1e-4}, // the last iteration: the final rate
	}
	for _, c := range lr {
		if got := s.LearningRate(c.iter); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("iter %d: learning rate %g, want %g", c.iter, got, c.want)
		}
	}
	bad := s
	bad.NumJobsFinal = 9
	if bad.Validate() == nil {
		t.Error("9 jobs on 8 archives accepted")
	}
	bad = s
	bad.NumEpochs = 0.1
	if bad.Validate() == nil {
		t.Error("less than one iteration accepted")
	}
}

// setup writes a toy task's egs (4 archives) and returns driver options
// for a tiny model, run through testdata/run.sh by the fake strode.
func setup(t *testing.T, kind string) (egs string, o Options) {
	t.Helper()
	dir := t.TempDir()
	data, err := kaldinnet.WriteToyData(dir, kaldinnet.ToyOptions{Speakers: 6, UttsPerSpeaker: 6, Dim: 4, NumPdfs: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	eo := kaldinnet.DefaultEgsOptions()
	eo.Data.CMVN, eo.Data.Utt2spk = data.CMVN, data.Utt2spk
	eo.Data.LeftContext, eo.Data.RightContext = 1, 1
	eo.NumArchives, eo.NumUttsSubset = 4, 5
	egs = filepath.Join(dir, "egs")
	if _, err := kaldinnet.GetEgs(data.Feats, data.Targets, egs, eo, func(string, ...any) {}); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	runner, _ := filepath.Abs("testdata/run.sh")
	t.Setenv("STRODE_PARALLEL_FAKE", "1")
	o = DefaultOptions()
	o.Strode, o.Cmd, o.Seed = exe, runner, 7
	o.Model, _ = am.Preset("small")
	o.Model.Kind = kind
	o.Model.SRU = sru.Options{Hidden: 6, Layers: 1, Activation: sru.Identity, Dropout: 0.1}
	o.Model.ODEState, o.Model.ODEHidden, o.Model.PhiHidden, o.Model.PriorHidden = 3, 4, 4, 4
	o.Train.BatchUtts, o.Train.Quantum = 4, 10
	o.NumMinibatches = 2
	o.Schedule = Schedule{NumJobsInitial: 1, NumJobsFinal: 2, NumEpochs: 2, InitialEffectiveLrate: 0.01, FinalEffectiveLrate: 0.002}
	return egs, o
}

func tlog(t *testing.T) func(string, ...any) {
	return func(f string, a ...any) { t.Logf(f, a...) }
}

// sameParams fails unless a and b hold the same parameters, bit for bit.
func sameParams(t *testing.T, what string, a, b *am.File) {
	t.Helper()
	pa, pb := a.Model.Params.List, b.Model.Params.List
	if len(pa) != len(pb) {
		t.Fatalf("%s: %d and %d parameters", what, len(pa), len(pb))
	}
	for i, p := range pa {
		for j, v := range p.Data {
			if pb[i].Data[j] != v {
				t.Fatalf("%s: %s[%d] = %v and %v", what, p.Name, j, v, pb[i].Data[j])
			}
		}
	}
}

func load(t *testing.T, path string) *am.File {
	t.Helper()
	f, err := am.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// With one job and one iteration the driver's model is train-iter's alone:
// averaging one model is the identity and the job's rate is the final
// effective rate × 1.
func TestDriverOneJobEqualsTrainIter(t *testing.T) {
	egs, o := setup(t, am.KindSRU)
	o.Schedule = Schedule{NumJobsInitial: 1, NumJobsFinal: 1, NumEpochs: 0.25, InitialEffectiveLrate: 0.01, FinalEffectiveLrate: 0.003}
	dir := t.TempDir()
	res, err := Train(egs, dir, o, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.NumIters != 1 || len(res.History) != 1 {
		t.Fatalf("%d iterations, history %d", res.NumIters, len(res.History))
	}
	out := filepath.Join(t.TempDir(), "alone.mdl")
	s := kaldinnet.IterSetup{ModelIn: filepath.Join(dir, "0.mdl"), ModelOut: out, EgsDir: egs, Train: o.Train,
		Iter: trainer.IterationOptions{LearningRate: 0.003, Seed: o.Seed, Iter: 0, Job: 1, NumMinibatches: o.NumMinibatches}}
	if _, err := kaldinnet.TrainIteration(s, tlog(t)); err != nil {
		t.Fatal(err)
	}
	alone := load(t, out)
	sameParams(t, "driver vs train-iter", load(t, res.Final), alone)
	sameParams(t, "1.mdl vs train-iter", load(t, filepath.Join(dir, "1.mdl")), alone)
	if _, err := os.Stat(filepath.Join(dir, "1.1.mdl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the job's model was not removed after averaging: %v", err)
	}
	// final.mdl carries no optimizer state; 1.mdl does (for the next iteration).
	if f := load(t, res.Final); len(f.Tensors) != 0 {
		t.Errorf("final.mdl has %d optimizer tensors", len(f.Tensors))
	}
	if f := load(t, filepath.Join(dir, "1.mdl")); len(f.Tensors) == 0 {
		t.Error("1.mdl has no optimizer state")
	}
}

// A job that fails once is run again; a driver stopped by a job that keeps
// failing (with a half-written job model left behind) and then re-run
// continues after the last complete iteration. Both end with the parameters
// and held-out statistics of an uninterrupted run.
func TestDriverResumeIdentical(t *testing.T) {
	egs, o := setup(t, am.KindSTRODE)
	if n := o.Schedule; true {
		n.NumArchives = 4
		if n.NumIters() != 5 || n.NumJobs(0) != 1 || n.NumJobs(4) != 2 {
			t.Fatalf("schedule: %d iterations, %d then %d jobs; the test wants 5, 1, 2", n.NumIters(), n.NumJobs(0), n.NumJobs(4))
		}
	}
	ref := t.TempDir()
	want, err := Train(egs, ref, o, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	wantModel := load(t, want.Final)

	// A job of iteration 3 (2 jobs) that fails once is retried.
	once := t.TempDir()
	t.Setenv("STRODE_PARALLEL_FAIL", "3.2")
	t.Setenv("STRODE_PARALLEL_FAIL_ONCE", filepath.Join(once, "failed"))
	got, err := Train(egs, once, o, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	sameParams(t, "retried job", wantModel, load(t, got.Final))
	if _, err := os.Stat(filepath.Join(once, "log", "train.3.2.log.failed1")); err != nil {
		t.Errorf("the failed attempt's log was not kept: %v", err)
	}

	// A job that keeps failing stops the driver after iteration 2 ...
	crash := t.TempDir()
	t.Setenv("STRODE_PARALLEL_FAIL_ONCE", "")
	if _, err := Train(egs, crash, o, tlog(t)); err == nil || !strings.Contains(err.Error(), "iteration 3") {
		t.Fatalf("want a failure in iteration 3, got %v", err)
	}
	if _, err := os.Stat(filepath.Join(crash, "3.mdl")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(crash, "4.mdl")); err == nil {
		t.Fatal("4.mdl written by a failed iteration")
	}
	// ... a half-written job model is left as a killed job might ...
	os.WriteFile(filepath.Join(crash, "4.1.mdl"), []byte("garbage"), 0o644)
	// ... and the re-run continues from 3.mdl.
	t.Setenv("STRODE_PARALLEL_FAIL", "")
	got, err = Train(egs, crash, o, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	if got.Resumed != 3 {
		t.Errorf("resumed from iteration %d, want 3", got.Resumed)
	}
	sameParams(t, "resumed run", wantModel, load(t, got.Final))
	if len(got.History) != len(want.History) {
		t.Fatalf("history %d entries, want %d", len(got.History), len(want.History))
	}
	for i, e := range want.History {
		if g := got.History[i]; g.ValidCE != e.ValidCE || g.ValidAcc != e.ValidAcc || g.LearningRate != e.LearningRate {
			t.Errorf("iteration %d: held-out CE %v acc %v lr %v, uninterrupted %v %v %v", i, g.ValidCE, g.ValidAcc, g.LearningRate, e.ValidCE, e.ValidAcc, e.LearningRate)
		}
	}

	// The driver, its runner and its jobs killed with SIGKILL during
	// iteration 3, then re-run.
	killed := t.TempDir()
	killDriverMidway(t, egs, killed, o)
	if _, err := os.Stat(filepath.Join(killed, "final.mdl")); err == nil {
		t.Fatal("the killed driver finished")
	}
	got, err = Train(egs, killed, o, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("after kill -9: resumed from iteration %d", got.Resumed)
	sameParams(t, "run killed with SIGKILL and resumed", wantModel, load(t, got.Final))
	if left, _ := filepath.Glob(filepath.Join(killed, ".*tmp*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}

	// Resuming with options that change the results is refused.
	o.Seed++
	if _, err := Train(egs, crash, o, tlog(t)); !errors.Is(err, ErrOptionsChanged) {
		t.Errorf("another seed in the same directory: %v, want ErrOptionsChanged", err)
	}
	o.Seed--
	o.Model.SRU.Hidden++
	if _, err := Train(egs, crash, o, tlog(t)); !errors.Is(err, ErrOptionsChanged) {
		t.Errorf("another model size in the same directory: %v, want ErrOptionsChanged", err)
	}
}

// The line each iteration starts with: train_dnn.py's progress line, and
// an ETA from the archives this run has processed once it has done one
// iteration.
func TestIterationLine(t *testing.T) {
	s := Schedule{NumJobsInitial: 1, NumJobsFinal: 3, NumEpochs: 2, NumArchives: 4, InitialEffectiveLrate: 0.01, FinalEffectiveLrate: 0.001}
	// 8 archives to process over 4 iterations of 1, 2, 2, 3 jobs.
	if got, want := s.iterationLine(0, 0, 0), "Iter: 0/3   Jobs: 1   Epoch: 0.00/2.0 (0.0% complete)   lr: 0.010000"; got != want {
		t.Errorf("first iteration:\n%q, want\n%q", got, want)
	}
	// After 3 archives in 30 s, 5 remain: 50 s.
	got := s.iterationLine(2, 0, 30*time.Second)
	if want := "Iter: 2/3   Jobs: 2   Epoch: 0.75/2.0 (37.5% complete)   lr: "; !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "   ETA: 50s (30s so far)") {
		t.Errorf("third iteration: %q", got)
	}
	// Resumed at iteration 2: no ETA before this run has done an iteration.
	if got := s.iterationLine(2, 2, time.Second); strings.Contains(got, "ETA") {
		t.Errorf("resumed: %q", got)
	}
}
