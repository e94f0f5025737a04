package report

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

// writeModel saves a tiny sru model with the given training history.
func writeModel(t *testing.T, path string, hist []am.Epoch) {
	t.Helper()
	o, err := am.Preset("small")
	if err != nil {
		t.Fatal(err)
	}
	o.Kind, o.SRU.Hidden, o.SRU.Layers, o.InputDim, o.NumPdfs = am.KindSRU, 4, 1, 3, 5
	m, err := am.New(o, 1)
	if err != nil {
		t.Fatal(err)
	}
	f := &am.File{Model: m, Pipeline: am.Pipeline{RawDim: 3, CMVN: am.CMVNNone}, History: hist}
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The best_wer and wer files are those Kaldi's score_kaldi.sh wrote for
// ../shared/kaldi-mini's monophone system (its MANIFEST.md).
const kaldiBestWER = "%WER 0.91 [ 1 / 110, 1 ins, 0 del, 0 sub ] exp/mono/decode_test/wer_7_0.0\n"
const kaldiWER = `compute-wer --text --mode=present ark:exp/mono/decode_test/scoring_kaldi/test_filt.txt ark,p:- 
%WER 0.91 [ 1 / 110, 1 ins, 0 del, 0 sub ]
%SER 3.33 [ 1 / 30 ]
Scored 30 sentences, 0 not present in hyp.
`

func TestCollect(t *testing.T) {
	dir := t.TempDir()
	md := filepath.Join(dir, "sru")
	if err := os.MkdirAll(md, 0o755); err != nil {
		t.Fatal(err)
	}
	writeModel(t, filepath.Join(md, "final.am"), []am.Epoch{
		{Epoch: 1, ValidAcc: 0.80, Seconds: 10, Accepted: true},
		{Epoch: 2, ValidAcc: 0.85, Seconds: 12, Accepted: true},
		{Epoch: 3, ValidAcc: 0.84, Seconds: 14, Accepted: false},
	})
	for _, set := range []string{"test", "dev"} {
		dd := filepath.Join(md, "decode_"+set)
		write(t, filepath.Join(dd, "best_wer"), kaldiBestWER) // names a file relative to another directory
		write(t, filepath.Join(dd, "wer_7_0.0"), kaldiWER)
		write(t, filepath.Join(dd, "decode_time"), "3.000 60.00 2\n")
	}
	rows, err := Collect([]string{md})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Set != "dev" || rows[1].Set != "test" {
		t.Fatalf("rows %+v, want dev then test", rows)
	}
	r := rows[1]
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"WER", r.WER, 0.91}, {"SER", r.SER, 3.33}, {"errors", float64(r.Errors), 1}, {"words", float64(r.Words), 110},
		{"held-out acc (epoch 2, the last accepted)", r.HeldOutAcc, 85}, {"epochs", float64(r.Epochs), 3},
		{"s/epoch", r.SecondsPerEpoch, 12}, {"RTF", r.RTF, 0.05}, {"jobs", float64(r.Jobs), 2},
	} {
		if d := c.got - c.want; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, rows[1:]); err != nil {
		t.Fatal(err)
	}
	want := "| sru | test | 0.91 | 3.33 | 1 / 110 | 85.00% | 3 | 12.0 | 0.050 (2) |"
	if !strings.Contains(b.String(), want) {
		t.Errorf("table\n%s\nlacks %q", b.String(), want)
	}
}

// A GMM system's directory (final.mdl, no final.am): a gmm row with its WER
// and decoding speed and no training columns, beside a network's.
func TestCollectGMM(t *testing.T) {
	dir := t.TempDir()
	md := filepath.Join(dir, "strode_tri1")
	write(t, filepath.Join(md, "final.mdl"), "not read")
	dd := filepath.Join(md, "decode_test")
	write(t, filepath.Join(dd, "best_wer"), kaldiBestWER)
	write(t, filepath.Join(dd, "wer_7_0.0"), kaldiWER)
	write(t, filepath.Join(dd, "decode_time"), "6.000 60.00 2\n")
	rows, err := Collect([]string{md})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Kind != GMMKind || rows[0].WER != 0.91 || rows[0].Epochs != 0 || rows[0].RTF != 0.1 {
		t.Fatalf("rows %+v, want one gmm row, WER 0.91, RTF 0.1", rows)
	}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, rows); err != nil {
		t.Fatal(err)
	}
	if want := "| strode_tri1 | test | 0.91 | 3.33 | 1 / 110 | GMM | | | 0.100 (2) |"; !strings.Contains(b.String(), want) {
		t.Errorf("table\n%s\nlacks %q", b.String(), want)
	}
}

func TestCollectErrors(t *testing.T) {
	for _, c := range []struct {
		name, bestWER, decodeTime, want string
		sentinel                        bool
	}{
		{"unscored", "", "1 2 1", "best_wer", false},
		{"not a WER line", "WER 1.0 [ 1 / 2 ] x\n", "1 2 1", "best_wer line 1", true},
		{"bad decode_time", kaldiBestWER, "1 x 1", "decode_time line 1", true},
		{"short decode_time", kaldiBestWER, "1 2", "decode_time line 1", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			md := filepath.Join(t.TempDir(), "m")
			if err := os.MkdirAll(md, 0o755); err != nil {
				t.Fatal(err)
			}
			writeModel(t, filepath.Join(md, "final.am"), nil)
			dd := filepath.Join(md, "decode_test")
			if c.bestWER != "" {
				write(t, filepath.Join(dd, "best_wer"), c.bestWER)
			}
			write(t, filepath.Join(dd, "wer_7_0.0"), kaldiWER)
			write(t, filepath.Join(dd, "decode_time"), c.decodeTime)
			_, err := Collect([]string{md})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one naming %q", err, c.want)
			}
			if c.sentinel && !errors.Is(err, ErrFormat) {
				t.Errorf("error %v is not ErrFormat", err)
			}
		})
	}
}

// The LM columns come from ngram -ppl's output per set; a set without one
// keeps them empty, a malformed file is an error naming it.
func TestAddLMAndColumns(t *testing.T) {
	dir := t.TempDir()
	ppl := "file exp/strode_lm/text_dev: 260 sentences, 1629 words, 13 OOVs\n0 zeroprobs, logprob= -4173.957 ppl= 162.0362 ppl1= 364.9906\n"
	if err := os.WriteFile(filepath.Join(dir, "ppl_dev.txt"), []byte(ppl), 0o644); err != nil {
		t.Fatal(err)
	}
	rows := []Row{{Model: "sru", Set: "dev", Targets: "tree (296 leaves)"}, {Model: "sru", Set: "test"}}
	if err := AddLM(rows, dir); err != nil {
		t.Fatal(err)
	}
	if rows[0].LMPerplexity != 162.0362 || rows[0].OOVRate == nil || math.Abs(*rows[0].OOVRate-100*13.0/1629) > 1e-9 {
		t.Errorf("dev: ppl %g, OOV rate %v", rows[0].LMPerplexity, rows[0].OOVRate)
	}
	if rows[1].OOVRate != nil {
		t.Errorf("test has no ppl file but got OOV rate %g", *rows[1].OOVRate)
	}
	var b strings.Builder
	if err := WriteMarkdown(&b, rows); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| targets |", "| LM ppl | %OOV |", "| sru | dev | tree (296 leaves) |", "| 162.0 | 0.80 |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	os.WriteFile(filepath.Join(dir, "ppl_dev.txt"), []byte("nothing here\n"), 0o644)
	if err := AddLM(rows, dir); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "ppl_dev.txt") {
		t.Errorf("malformed ppl file: %v", err)
	}
}
