package kaldinnet

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestTTildeStats runs t-tilde-stats on Kaldi's features and 1-best
// alignments of kaldi-mini: every aligned frame is counted once, the phone
// groups add up to all frames, quantiles are ordered, and the table names
// phones from phones.txt.
func TestTTildeStats(t *testing.T) {
	d := mini(t)
	f := tinyModelFile(t, 13, 62)
	o := TTildeStatsOptions{
		Ali:        "ark,t:" + filepath.Join(d, "golden/test5_1best.ali"),
		TransModel: filepath.Join(d, "exp/mono/final.mdl"),
		Phones:     filepath.Join(d, "data/lang/phones.txt"),
	}
	st, err := ComputeTTildeStats(f, "ark:"+filepath.Join(d, "golden/test5_mfcc.ark"), o, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	if st.Utterances != 5 || st.Skipped != 0 {
		t.Fatalf("%d utterances, %d skipped; want 5, 0", st.Utterances, st.Skipped)
	}
	sum := 0
	for _, g := range st.Phones {
		sum += g.Frames
		if !(g.P10 <= g.P50 && g.P50 <= g.P90) || g.Mean <= 0 || g.ArgChanged < 0 || g.ArgChanged > 1 {
			t.Errorf("phone %s: %+v", g.Name, *g)
		}
	}
	if sum != st.All.Frames || len(st.Values) != st.All.Frames {
		t.Errorf("phones hold %d frames, all %d, values %d", sum, st.All.Frames, len(st.Values))
	}
	var b bytes.Buffer
	if err := st.WriteMarkdown(&b, 1); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| SIL |") && !strings.Contains(b.String(), "| sil |") {
		t.Errorf("no silence row in\n%s", b.String())
	}
	if _, err := ComputeTTildeStats(f, "ark:"+filepath.Join(d, "golden/test5_mfcc.ark"), TTildeStatsOptions{}, t.Logf); err == nil {
		t.Error("no --ali accepted")
	}
}
