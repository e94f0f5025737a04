package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

// TestSummary: results.json of recipes/fsdd, the speaker-independent WER
// of each model and, with adaptation rounds, the last round's.
func TestSummary(t *testing.T) {
	dir := t.TempDir()
	var dirs []string
	for i, m := range []string{"strode", "sru"} { // the order given is kept
		md := filepath.Join(dir, m)
		dirs = append(dirs, md)
		if err := os.MkdirAll(md, 0o755); err != nil {
			t.Fatal(err)
		}
		writeModel(t, filepath.Join(md, "final.am"), []am.Epoch{{Epoch: 1, ValidAcc: 0.5, Seconds: 1, Accepted: true}})
		dd := filepath.Join(md, "decode_test")
		write(t, filepath.Join(dd, "best_wer"), kaldiBestWER)
		write(t, filepath.Join(dd, "wer_7_0.0"), kaldiWER)
		write(t, filepath.Join(dd, "decode_time"), "3.000 60.00 2\n")
		ad := AdaptDir(md, 2)
		write(t, filepath.Join(ad, "decode_test", "wer"), strings.Replace(kaldiWER, "0.91 [ 1 /", "0.00 [ 0 /", 1))
		write(t, filepath.Join(ad, "keep.list"), strings.Repeat("u\n", 24+i))
	}
	rows, err := Collect(dirs)
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].WERLine != "%WER 0.91 [ 1 / 110, 1 ins, 0 del, 0 sub ]" {
		t.Errorf("WER line %q", rows[0].WERLine)
	}
	for _, c := range []struct {
		rounds int
		want   string
	}{
		{0, `{
  "strode": {"wer":0.91,"wer_line":"%WER 0.91 [ 1 / 110, 1 ins, 0 del, 0 sub ]"},
  "sru": {"wer":0.91,"wer_line":"%WER 0.91 [ 1 / 110, 1 ins, 0 del, 0 sub ]"}
}
`},
		{2, `{
  "strode": {"wer":0.91,"wer_line":"%WER 0.91 [ 1 / 110, 1 ins, 0 del, 0 sub ]","adapted":{"wer":0.00,"wer_line":"%WER 0.00 [ 0 / 110, 1 ins, 0 del, 0 sub ]","utterances":24,"rounds":2}},
  "sru": {"wer":0.91,"wer_line":"%WER 0.91 [ 1 / 110, 1 ins, 0 del, 0 sub ]","adapted":{"wer":0.00,"wer_line":"%WER 0.00 [ 0 / 110, 1 ins, 0 del, 0 sub ]","utterances":25,"rounds":2}}
}
`},
	} {
		sums, err := Summarize(dirs, rows, c.rounds)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "results.json")
		if err := WriteSummaryJSONFile(path, sums); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("%d rounds:\n%s\nwant\n%s", c.rounds, got, c.want)
		}
	}
	if _, err := Summarize(dirs, rows, 3); err == nil || !strings.Contains(err.Error(), "adapt3") {
		t.Errorf("a missing round: %v, want an error naming adapt3", err)
	}
	if _, err := Summarize(dirs[:1], rows, 0); err == nil {
		t.Error("two rows for one model directory: no error")
	}
}
