package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"

	"github.com/strode-asr/strode/internal/kaldicmd"
)

// goldenFeatureDir is kaldi-golden: ../shared's when it is there, else the
// repository's copy in testdata/ (which holds only the small goldens: cases
// call needFiles). The tests run there because wav.scp holds relative paths.
func goldenFeatureDir(t *testing.T) string {
	t.Helper()
	g, err := filepath.Abs(shareddata.Dir(t, "kaldi-golden"))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// needFiles skips t unless every file is in dir (relative names are taken
// from the working directory, which the tests set to dir).
func needFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Skipf("needs kaldi-golden/%s, in ../shared only: %v", n, err)
		}
	}
}

func runIn(t *testing.T, args ...string) []byte {
	t.Helper()
	var out, errb bytes.Buffer
	code := app.Run(append([]string{"strode"}, args...), kaldicmd.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	if code != 0 {
		t.Fatalf("strode %s: exit %d\n%s", strings.Join(args, " "), code, errb.String())
	}
	return out.Bytes()
}

// Outputs that must be byte-identical to Kaldi's.
func TestFeatureCommandsByteIdentical(t *testing.T) {
	g := goldenFeatureDir(t)
	t.Chdir(g)
	tmp := t.TempDir()
	cases := []struct {
		args []string
		out  string // file written by the command ("" = stdout)
		want string
		in   []string // golden inputs besides wav.scp's
	}{
		{[]string{"wav-copy", "scp:wav.scp", "ark,scp:" + tmp + "/wav.ark," + tmp + "/wav_ark.scp"}, tmp + "/wav.ark", "wav.ark", nil},
		{[]string{"extract-segments", "scp:wav.scp", "segments", "ark:" + tmp + "/seg.ark"}, tmp + "/seg.ark", "segments_wav.ark", []string{"segments"}},
		{[]string{"compute-cmvn-stats", "ark:fbank23.ark", "ark:" + tmp + "/cmvn.ark"}, tmp + "/cmvn.ark", "cmvn23.ark", []string{"fbank23.ark"}},
		{[]string{"compute-cmvn-stats", "ark:fbank23.ark", "ark,t:-"}, "", "cmvn23.txt.ark", []string{"fbank23.ark"}},
		{[]string{"apply-cmvn", "--norm-vars=false", "ark:cmvn23.ark", "ark:fbank23.ark", "ark,t:-"}, "", "fbank23_cmvn.txt.ark", []string{"cmvn23.ark", "fbank23.ark"}},
		{[]string{"apply-cmvn", "--norm-vars=true", "ark:cmvn23.ark", "ark:fbank23.ark", "ark,t:-"}, "", "fbank23_cmvn_normvars.txt.ark", []string{"cmvn23.ark", "fbank23.ark"}},
		{[]string{"add-deltas", "ark:fbank23.ark", "ark,t:-"}, "", "fbank23_deltas.txt.ark", []string{"fbank23.ark"}},
		{[]string{"add-deltas", "--delta-order=3", "--delta-window=3", "ark:fbank23.ark", "ark,t:-"}, "", "fbank23_deltas_o3w3.txt.ark", []string{"fbank23.ark"}},
		{[]string{"splice-feats", "--left-context=2", "--right-context=2", "ark:fbank23.ark", "ark,t:-"}, "", "fbank23_splice2.txt.ark", []string{"fbank23.ark"}},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			want, prefix := c.want, false
			if _, err := os.Stat(want); err != nil && want == "fbank23_splice2.txt.ark" {
				// The repository's copy of kaldi-golden keeps the first
				// utterance's output only.
				want, prefix = "fbank23_splice2.s_utt1.txt.ark", true
			}
			needFiles(t, g, append(c.in, want)...)
			got := runIn(t, c.args...)
			if c.out != "" {
				var err error
				if got, err = os.ReadFile(c.out); err != nil {
					t.Fatal(err)
				}
			}
			wantB, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			if prefix && len(got) > len(wantB) {
				got = got[:len(wantB)]
			}
			if !bytes.Equal(got, wantB) {
				t.Errorf("%s: output differs from Kaldi's %s (%d vs %d bytes)", strings.Join(c.args, " "), want, len(got), len(wantB))
			}
			if c.want != "wav.ark" {
				return
			}
			scp, _ := os.ReadFile(tmp + "/wav_ark.scp")
			if want, _ := os.ReadFile("wav_ark.scp"); strings.ReplaceAll(string(scp), tmp+"/", "") != string(want) {
				t.Errorf("wav_ark.scp differs:\n%s", scp)
			}
		})
	}
}

// parseTextArk reads a text matrix archive into key -> values.
func parseTextArk(t *testing.T, b []byte) map[string][]float64 {
	t.Helper()
	m := map[string][]float64{}
	var key string
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[1] == "[" {
			key, f = f[0], f[2:]
		}
		for _, s := range f {
			if s == "]" {
				continue
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("%q: %v", s, err)
			}
			m[key] = append(m[key], v)
		}
	}
	return m
}

// compute-fbank-feats over wave archives, scp offsets into them and
// extracted segments, against Kaldi's text output.
func TestComputeFbankFeatsCommand(t *testing.T) {
	g := goldenFeatureDir(t)
	t.Chdir(g)
	for _, c := range []struct {
		args []string
		want string
		in   string // the golden input
	}{
		{[]string{"compute-fbank-feats", "--dither=0", "scp:wav.scp", "ark,t:-"}, "fbank23.txt.ark", "wav.scp"},
		{[]string{"compute-fbank-feats", "--dither=0", "--num-threads=2", "scp:wav_ark.scp", "ark,t:-"}, "fbank23_from_wavark.txt.ark", "wav.ark"},
		{[]string{"compute-fbank-feats", "--dither=0", "ark:segments_wav.ark", "ark,t:-"}, "fbank23_segments.txt.ark", "segments_wav.ark"},
		{[]string{"compute-mfcc-feats", "--dither=0", "--sample-frequency=8000", "scp:wav_8k.scp", "ark,t:-"}, "mfcc13_8k.txt.ark", "wav_8k.scp"},
	} {
		t.Run(c.want, func(t *testing.T) {
			needFiles(t, g, c.in, c.want)
			got := parseTextArk(t, runIn(t, c.args...))
			wantB, err := os.ReadFile(c.want)
			if err != nil {
				t.Fatal(err)
			}
			want := parseTextArk(t, wantB)
			if len(got) != len(want) {
				t.Fatalf("%s: %d utterances, Kaldi %d", c.want, len(got), len(want))
			}
			var maxDiff float64
			for k, w := range want {
				gv := got[k]
				if len(gv) != len(w) {
					t.Fatalf("%s/%s: %d values, Kaldi %d", c.want, k, len(gv), len(w))
				}
				for i := range w {
					d := math.Abs(gv[i] - w[i])
					if d > 1e-3+1e-4*math.Abs(w[i]) {
						t.Fatalf("%s/%s[%d]: %v, Kaldi %v", c.want, k, i, gv[i], w[i])
					}
					maxDiff = max(maxDiff, d)
				}
			}
			t.Logf("%s: max |diff| %.3g", c.want, maxDiff)
		})
	}
}

// A sample-rate mismatch is Kaldi's per-utterance failure: nothing done, exit 1.
func TestComputeFbankFeatsSampleRateMismatch(t *testing.T) {
	g := goldenFeatureDir(t)
	t.Chdir(g)
	var out, errb bytes.Buffer
	code := app.Run([]string{"strode", "compute-fbank-feats", "--dither=0", "scp:wav_8k.scp", "ark:/dev/null"}, kaldicmd.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	if code != 1 || !strings.Contains(errb.String(), "Waveform and config sample Frequency mismatch: 8000 .vs 16000") {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
}

// The options added to match Kaldi's option lists, through the command
// line: --output-format=htk and --write-utt2dur (compute-fbank-feats),
// --weights (compute-cmvn-stats: weights of one give Kaldi's unweighted
// stats byte for byte) and --reverse (apply-cmvn: undoes Kaldi's
// apply-cmvn output).
func TestFeatureCommandsKaldiOptions(t *testing.T) {
	g := goldenFeatureDir(t)
	t.Chdir(g)
	tmp := t.TempDir()
	runIn(t, "compute-fbank-feats", "--dither=0", "--output-format=htk", "--write-utt2dur=ark,t:"+tmp+"/utt2dur", "scp:wav.scp", "ark:"+tmp+"/htk.ark")
	htk, err := os.ReadFile(tmp + "/htk.ark")
	if err != nil {
		t.Fatal(err)
	}
	// s_utt1 has 129 frames of 23 bins: header 129, 100000, 92, FBANK|_0.
	wantHead := []byte("s_utt1 \x00\x00\x00\x81\x00\x01\x86\xa0\x00\x5c\x20\x07")
	if !bytes.HasPrefix(htk, wantHead) {
		t.Fatalf("HTK archive starts %q, want %q", htk[:len(wantHead)], wantHead)
	}
	dur, _ := os.ReadFile(tmp + "/utt2dur")
	if lines := strings.Split(strings.TrimSpace(string(dur)), "\n"); len(lines) != 4 || !strings.HasPrefix(lines[0], "s_utt1 1.3") {
		t.Fatalf("utt2dur:\n%s", dur)
	}

	lens, err := os.ReadFile("fbank23.len")
	if err != nil {
		t.Fatal(err)
	}
	var w strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(lens)), "\n") {
		f := strings.Fields(line)
		n, _ := strconv.Atoi(f[1])
		w.WriteString(f[0] + " [ " + strings.Repeat("1 ", n) + "]\n")
	}
	os.WriteFile(tmp+"/weights.txt", []byte(w.String()), 0o644)
	got := runIn(t, "compute-cmvn-stats", "--weights=ark:"+tmp+"/weights.txt", "ark:fbank23.ark", "ark,t:-")
	want, _ := os.ReadFile("cmvn23.txt.ark")
	if !bytes.Equal(got, want) {
		t.Fatalf("compute-cmvn-stats with unit weights differs from Kaldi's cmvn23.txt.ark")
	}

	t.Run("apply-cmvn --reverse", func(t *testing.T) {
		needFiles(t, g, "fbank23_cmvn.txt.ark", "fbank23.txt.ark")
		back := parseTextArk(t, runIn(t, "apply-cmvn", "--reverse", "ark:cmvn23.ark", "ark,t:fbank23_cmvn.txt.ark", "ark,t:-"))
		orig, _ := os.ReadFile("fbank23.txt.ark")
		for k, ov := range parseTextArk(t, orig) {
			for i, o := range ov {
				if d := math.Abs(back[k][i] - o); d > 1e-4+1e-5*math.Abs(o) {
					t.Fatalf("apply-cmvn --reverse %s[%d]: %v, original %v", k, i, back[k][i], o)
				}
			}
		}
	})
}
