package kaldi

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestMMIKaldiMini runs the from-scratch pipeline on kaldi-mini with
// --mmi-epochs 2 --mmi-ali net (--quick: the monophone targets, sru alone):
// stage 5 builds the unigram denominator graph, the CE sru's denominator
// lattices of every training utterance, its alignment of them (the
// numerator) and exp/sru_mmi, whose MMI objective rises from epoch to epoch;
// stages 6 and 7 decode and score it beside sru, in the results table. A bad
// --mmi-epochs or --mmi-ali, or --mmi-epochs with --realign-iters, stops at
// once.
func TestMMIKaldiMini(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a GMM, an sru and its MMI model (about 2 minutes on 2 cores): without -short")
	}
	dir, _, out := runFromScratch(t, "--models", "sru", "--mmi-epochs", "2", "--mmi-ali", "net")
	t.Logf("%s", out)
	for _, want := range []string{"exp/strode_dengraph/HCLG.fst (unigram of", "sru_denlats: ", "aligning the training data with sru into sru_ali", "training sru_mmi: 2 epochs of MMI from sru"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the log lacks %q", want)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "exp", "sru_mmi", "log", "train.log"))
	must(t, err)
	var objf []float64
	for _, m := range regexp.MustCompile(`epoch \d+: MMI objective (\S+) per frame`).FindAllStringSubmatch(string(b), -1) {
		v, err := strconv.ParseFloat(m[1], 64)
		must(t, err)
		objf = append(objf, v)
	}
	if len(objf) != 2 || objf[1] <= objf[0] {
		t.Errorf("MMI objective per epoch %v: want two, rising", objf)
	}
	rows := map[string]bool{}
	for _, r := range readResults(t, dir) {
		rows[r.Model+" "+r.Set] = true
	}
	for _, m := range []string{"sru test", "sru_mmi test"} {
		if !rows[m] {
			t.Errorf("results table lacks %s: %v", m, rows)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--mmi-epochs", "two"}, "--mmi-epochs must be a number of epochs, not 'two'"},
		{[]string{"--mmi-epochs", "1", "--mmi-ali", "tri3"}, "--mmi-ali must be gmm or net, not 'tri3'"},
		{[]string{"--mmi-epochs", "1", "--sequence-criterion", "mpe"}, "--sequence-criterion must be mmi or smbr, not 'mpe'"},
		{[]string{"--mmi-epochs", "1", "--realign-iters", "1"}, "--mmi-epochs takes the models of stage 4: not with --realign-iters"},
	} {
		out, err := recipe(t, dir, append(append([]string{}, fromScratchArgs...), c.args...)...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.want) {
			t.Errorf("%v: %v, want a failure saying %q\n%s", c.args, err, c.want, out)
		}
	}
}
