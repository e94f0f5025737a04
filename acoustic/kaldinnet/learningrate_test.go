package kaldinnet

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/trainer"
)

// TestTrainLearningRateOptions: `strode train` settles its learning-rate
// options before it reads any data: a deprecated alias is a WARNING at the
// head of the log, and one that disagrees with --learning-rate fails at
// once, naming both.
func TestTrainLearningRateOptions(t *testing.T) {
	setup := func(args ...string) TrainSetup {
		s := TrainSetup{Data: DefaultOptions(), Train: trainer.DefaultTrainOptions(), Feats: "ark:/nonexistent/feats.ark", Targets: "ark:/nonexistent/ali.ark"}
		fs := flag.NewFlagSet("train", flag.ContinueOnError)
		s.Train.Register(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return s
	}
	var logged []string
	log := func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) }
	_, err := Train(setup("--learn-rate=0.01"), t.TempDir()+"/out.am", log, nil)
	if err == nil || len(logged) == 0 || logged[0] != "WARNING: --learn-rate is deprecated: use --learning-rate (the rate of the chosen --optimizer)" {
		t.Errorf("error %v, log %q: want the deprecation warning first, then a failure to read the features", err, logged)
	}
	logged = nil
	_, err = Train(setup("--learning-rate=0.01", "--learn-rate=0.02"), t.TempDir()+"/out.am", log, nil)
	if err == nil || !strings.Contains(err.Error(), "--learning-rate=0.01 and --learn-rate=0.02 disagree") || len(logged) != 0 {
		t.Errorf("error %v, log %q: want the conflict, before anything is read", err, logged)
	}
}
