package trainer

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

// parseTrainOptions returns the default options with args parsed by Register.
func parseTrainOptions(t *testing.T, args ...string) TrainOptions {
	t.Helper()
	o := DefaultTrainOptions()
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	o.Register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return o
}

// TestLearningRateOption: --learning-rate sets the rate of whichever
// optimizer is chosen, each optimizer keeps its own default without it, the
// deprecated --learn-rate and --sgd-learn-rate still set Adam's and SGD's
// rate with a warning naming --learning-rate, and an alias that disagrees
// with --learning-rate is an error naming both.
func TestLearningRateOption(t *testing.T) {
	m, err := am.New(tinyOptions(am.KindSRU), 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		lr   float64
		warn string // "" none
		err  string // "" none
	}{
		{nil, 1e-3, "", ""},
		{[]string{"--optimizer=sgd"}, 0.008, "", ""},
		{[]string{"--learning-rate=0.02"}, 0.02, "", ""},
		{[]string{"--optimizer=sgd", "--learning-rate=0.05"}, 0.05, "", ""},
		{[]string{"--learning-rate=0.05", "--optimizer=sgd"}, 0.05, "", ""},
		{[]string{"--learn-rate=0.02"}, 0.02, "--learn-rate is deprecated: use --learning-rate", ""},
		{[]string{"--optimizer=sgd", "--sgd-learn-rate=0.1"}, 0.1, "--sgd-learn-rate is deprecated: use --learning-rate", ""},
		{[]string{"--learn-rate=0.02", "--learning-rate=0.02"}, 0.02, "--learn-rate is deprecated", ""},
		{[]string{"--optimizer=sgd", "--learn-rate=0.02"}, 0.008, "--learn-rate is deprecated", ""}, // Adam's rate, as before
		{[]string{"--optimizer=sgd", "--learn-rate=0.02", "--learning-rate=0.03"}, 0.03, "--learn-rate is deprecated", ""},
		{[]string{"--learning-rate=0.01", "--learn-rate=0.02"}, 0, "", "--learning-rate=0.01 and --learn-rate=0.02 disagree"},
		{[]string{"--optimizer=sgd", "--sgd-learn-rate=0.2", "--learning-rate=0.01"}, 0, "", "--learning-rate=0.01 and --sgd-learn-rate=0.2 disagree"},
		{[]string{"--learning-rate=-1"}, 0, "", "--learning-rate=-1 must be > 0"},
	} {
		name := strings.Join(tc.args, " ")
		tr, err := NewTrainer(&am.File{Model: m}, parseTrainOptions(t, tc.args...))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one with %q", name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if tr.st.LR != tc.lr {
			t.Errorf("%s: learning rate %g, want %g", name, tr.st.LR, tc.lr)
		}
		var logged []string
		tr.Log = func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) }
		tr.warn()
		tr.warn() // once only
		switch {
		case tc.warn == "" && len(logged) > 0:
			t.Errorf("%s: unexpected warnings %q", name, logged)
		case tc.warn != "" && (len(logged) != 1 || !strings.HasPrefix(logged[0], "WARNING: "+tc.warn)):
			t.Errorf("%s: logged %q, want one WARNING %q", name, logged, tc.warn)
		}
		tr.Close()
	}
}

// TestResolveLearningRateOnce: a command resolves the options before
// NewTrainer (to warn before loading data); NewTrainer then warns no more
// and trains at the same rate.
func TestResolveLearningRateOnce(t *testing.T) {
	o := parseTrainOptions(t, "--sgd-learn-rate=0.3", "--optimizer=sgd")
	w, err := o.ResolveLearningRate()
	if err != nil || len(w) != 1 {
		t.Fatalf("warnings %q, error %v", w, err)
	}
	if w, _ := o.ResolveLearningRate(); len(w) != 0 {
		t.Fatalf("second call warned again: %q", w)
	}
	m, _ := am.New(tinyOptions(am.KindSRU), 1)
	tr, err := NewTrainer(&am.File{Model: m}, o)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if len(tr.warnings) != 0 || tr.st.LR != 0.3 {
		t.Fatalf("warnings %q, rate %g", tr.warnings, tr.st.LR)
	}
}

// TestLearningRateTrains: training with --learning-rate gives the model of
// training with the deprecated --learn-rate at the same rate, bit for bit,
// and the warning reaches the trainer's log.
func TestLearningRateTrains(t *testing.T) {
	train := func(args ...string) (string, []string) {
		o := tinyOptions(am.KindSRU)
		o.NumPdfs, o.InputDim = 3, 6
		m, err := am.New(o, 5)
		if err != nil {
			t.Fatal(err)
		}
		to := parseTrainOptions(t, args...)
		to.MaxEpochs, to.BatchUtts, to.Quantum = 1, 4, 10
		tr, err := NewTrainer(&am.File{Model: m, Pipeline: am.Pipeline{RawDim: 6, CMVN: am.CMVNNone}}, to)
		if err != nil {
			t.Fatal(err)
		}
		defer tr.Close()
		var logged []string
		tr.Log = func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) }
		if err := tr.Train(toyData(8, 1, o), toyData(3, 2, o)); err != nil {
			t.Fatal(err)
		}
		return m.Checksum(), logged
	}
	a, la := train("--learning-rate=0.02")
	b, lb := train("--learn-rate=0.02")
	c, _ := train()
	if a != b || a == c {
		t.Errorf("checksums: --learning-rate %s, --learn-rate %s, default %s", a, b, c)
	}
	if strings.Contains(strings.Join(la, "\n"), "WARNING") || !strings.HasPrefix(lb[0], "WARNING: --learn-rate is deprecated") {
		t.Errorf("logs: %q and %q", la, lb)
	}
}
