package features

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
)

// needGolden returns the kaldi-golden folder, for tests that need only its
// wavs and scripts: the repository's copy in testdata/, else ../shared's
// (skipping the test when neither is there).
func needGolden(t testing.TB) string {
	t.Helper()
	return shareddata.Dir(t, "kaldi-golden")
}

// golden returns the path of one kaldi-golden file: the repository's copy
// in testdata/kaldi-golden, else ../shared's; it skips the test when
// neither has it (the large goldens are in ../shared only).
func golden(t testing.TB, name string) string {
	t.Helper()
	return shareddata.File(t, "kaldi-golden", name)
}

// textMatrix is one matrix of a Kaldi text archive.
type textMatrix struct {
	key  string
	rows [][]float64
}

// readTextArk parses a Kaldi text matrix archive (`key  [` rows `]`).
func readTextArk(t testing.TB, path string) []textMatrix {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []textMatrix
	var cur *textMatrix
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	line := 0
	for sc.Scan() {
		line++
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if cur == nil {
			if len(fields) < 2 || fields[1] != "[" {
				t.Fatalf("%s:%d: expected `key [`", path, line)
			}
			out = append(out, textMatrix{key: fields[0]})
			cur = &out[len(out)-1]
			fields = fields[2:]
			if len(fields) == 0 {
				continue
			}
		}
		end := fields[len(fields)-1] == "]"
		if end {
			fields = fields[:len(fields)-1]
		}
		if len(fields) > 0 {
			row := make([]float64, len(fields))
			for i, s := range fields {
				if row[i], err = strconv.ParseFloat(s, 64); err != nil {
					t.Fatalf("%s:%d: %v", path, line, err)
				}
			}
			cur.rows = append(cur.rows, row)
		}
		if end {
			cur = nil
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// readScp reads `key path` lines.
func readScp(t testing.TB, path string) [][2]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(l), " ")
		out = append(out, [2]string{k, strings.TrimSpace(v)})
	}
	return out
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func readWaveFile(t testing.TB, path string) *WaveData {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := ReadWave(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return w
}

// diffStats tracks the largest |ours − Kaldi| and the largest ratio of the
// difference to the acceptance tolerance 1e-3 + 1e-4·|Kaldi|.
type diffStats struct {
	maxAbs, maxRel, maxTolRatio float64
	n                           int
}

func (d *diffStats) add(got, want float64) {
	diff := math.Abs(got - want)
	if math.IsNaN(got) || math.IsInf(got, 0) {
		diff = math.Inf(1)
	}
	d.maxAbs = max(d.maxAbs, diff)
	d.maxRel = max(d.maxRel, diff/max(math.Abs(want), 1))
	d.maxTolRatio = max(d.maxTolRatio, diff/(1e-3+1e-4*math.Abs(want)))
	d.n++
}

func (d *diffStats) String() string {
	return fmt.Sprintf("%d values, max |diff| %.3g, max |diff|/max(1,|kaldi|) %.3g, max diff/tolerance %.3g", d.n, d.maxAbs, d.maxRel, d.maxTolRatio)
}

// compareMatrices checks got against the golden text archive, printing the
// largest difference.
func compareMatrices(t *testing.T, name string, want []textMatrix, got map[string][][]float32) *diffStats {
	t.Helper()
	var st diffStats
	if len(got) != len(want) {
		t.Errorf("%s: %d utterances, Kaldi has %d", name, len(got), len(want))
	}
	for _, w := range want {
		g, ok := got[w.key]
		if !ok {
			t.Errorf("%s: missing utterance %s", name, w.key)
			continue
		}
		if len(g) != len(w.rows) {
			t.Errorf("%s/%s: %d rows, Kaldi has %d", name, w.key, len(g), len(w.rows))
			continue
		}
		for r := range g {
			if len(g[r]) != len(w.rows[r]) {
				t.Errorf("%s/%s row %d: %d columns, Kaldi has %d", name, w.key, r, len(g[r]), len(w.rows[r]))
				break
			}
			for c := range g[r] {
				st.add(float64(g[r][c]), w.rows[r][c])
			}
		}
	}
	return &st
}

func toRows(data []float32, rows, cols int) [][]float32 {
	out := make([][]float32, rows)
	for r := range out {
		out[r] = data[r*cols : (r+1)*cols]
	}
	return out
}

// featureCase is one golden compute-fbank-feats / compute-mfcc-feats run.
type featureCase struct {
	file string // golden text archive
	scp  string
	mfcc bool
	set  func(f *FbankOptions, m *MfccOptions)
}

var featureCases = []featureCase{
	{file: "fbank23.txt.ark", scp: "wav.scp"},
	{file: "fbank40.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.Mel.NumBins = 40 }},
	{file: "fbank40e.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.Mel.NumBins = 40; f.UseEnergy = true }},
	{file: "fbank23_8k.txt.ark", scp: "wav_8k.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.Frame.SampFreq = 8000 }},
	{file: "fbank23_snip0.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.Frame.SnipEdges = false }},
	{file: "fbank23_hamming.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.Frame.WindowType = "hamming" }},
	{file: "fbank23_hanning.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.Frame.WindowType = "hanning" }},
	{file: "fbank23_rectangular.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.Frame.WindowType = "rectangular" }},
	{file: "fbank23_blackman.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.Frame.WindowType = "blackman" }},
	{file: "fbank23_sine.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.Frame.WindowType = "sine" }},
	{file: "fbank23_htk.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.HTKCompat = true; f.UseEnergy = true }},
	{file: "fbank23_linear.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.UseLogFbank = false }},
	{file: "fbank23_magnitude.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.UsePower = false }},
	{file: "fbank23_lowhigh.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.Mel.LowFreq = 100; f.Mel.HighFreq = -300 }},
	{file: "fbank23_nopreemph.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.Frame.PreemphCoeff = 0 }},
	{file: "fbank23_nodc.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.Frame.RemoveDCOffset = false }},
	{file: "fbank23_nopow2.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.Frame.RoundToPowerOfTwo = false }},
	{file: "fbank23_fl30fs15.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.Frame.FrameLengthMs = 30; f.Frame.FrameShiftMs = 15 }},
	{file: "fbank23_efloor.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.UseEnergy = true; f.EnergyFloor = 2 }},
	{file: "fbank23_rawenergy0.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.UseEnergy = true; f.RawEnergy = false }},
	{file: "fbank23_vtln09.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) {}},
	{file: "fbank23_vtln11.txt.ark", scp: "wav.scp", set: func(f *FbankOptions, _ *MfccOptions) { f.Mel.VtlnLow = 80; f.Mel.VtlnHigh = -600 }},
	{file: "mfcc13.txt.ark", scp: "wav.scp", mfcc: true},
	{file: "mfcc20.txt.ark", scp: "wav.scp", mfcc: true, set: func(_ *FbankOptions, m *MfccOptions) {
		m.NumCeps = 20
		m.Mel.NumBins = 30
		m.CepstralLifter = 0
		m.UseEnergy = false
	}},
	{file: "mfcc13_8k.txt.ark", scp: "wav_8k.scp", mfcc: true, set: func(_ *FbankOptions, m *MfccOptions) { m.Frame.SampFreq = 8000 }},
}

// vtlnWarp gives the --vtln-warp of a case (a compute-*-feats option, not an
// options-struct field).
func (c featureCase) vtlnWarp() float64 {
	switch c.file {
	case "fbank23_vtln09.txt.ark":
		return 0.9
	case "fbank23_vtln11.txt.ark":
		return 1.1
	}
	return 1
}

func (c featureCase) computer(t testing.TB) Computer {
	fo, mo := DefaultFbankOptions(), DefaultMfccOptions()
	fo.Frame.Dither, mo.Frame.Dither = 0, 0
	if c.set != nil {
		c.set(&fo, &mo)
	}
	var comp Computer
	var err error
	if c.mfcc {
		comp, err = NewMfcc(mo)
	} else {
		comp, err = NewFbank(fo)
	}
	if err != nil {
		t.Fatal(err)
	}
	return comp
}

// TestGoldenFeatures compares every fbank/MFCC golden case of kaldi-golden
// with our features and prints the largest difference: against Kaldi's text
// archive (7 digits) and, where Kaldi also wrote one, its binary archive
// (exact float32). A case whose goldens are in ../shared only skips on a
// bare clone.
func TestGoldenFeatures(t *testing.T) {
	for _, c := range featureCases {
		t.Run(strings.TrimSuffix(c.file, ".txt.ark"), func(t *testing.T) {
			text := shareddata.Find("kaldi-golden", c.file)
			bin := strings.TrimSuffix(c.file, ".txt.ark") + ".ark"
			binPath := shareddata.Find("kaldi-golden", bin)
			if text == "" && binPath == "" {
				golden(t, c.file) // skips, saying what is missing
			}
			off, err := NewOffline(c.computer(t))
			if err != nil {
				t.Fatal(err)
			}
			got := map[string][][]float32{}
			scp := golden(t, c.scp)
			for _, kv := range readScp(t, scp) {
				w := readWaveFile(t, golden(t, kv[1]))
				data, rows, err := off.Compute(nil, kv[0], w.Data[0], w.SampFreq, c.vtlnWarp())
				if err != nil {
					t.Fatalf("%s: %v", kv[0], err)
				}
				got[kv[0]] = toRows(data, rows, off.Dim())
			}
			if text != "" {
				st := compareMatrices(t, c.file, readTextArk(t, text), got)
				t.Logf("%s: %v", c.file, st)
				if st.maxTolRatio > 1 {
					t.Errorf("%s: difference beyond 1e-3 + 1e-4·|Kaldi|: %v", c.file, st)
				}
			}
			// Where Kaldi also wrote the binary archive, compare the exact
			// float32 values too (the text has 7 significant digits).
			if binPath != "" {
				var want []textMatrix
				for _, m := range readBinaryArk(t, binPath) {
					tm := textMatrix{key: m.key}
					for r := 0; r < m.rows; r++ {
						tm.rows = append(tm.rows, m.data[r*m.cols:(r+1)*m.cols])
					}
					want = append(want, tm)
				}
				bst := compareMatrices(t, bin, want, got)
				t.Logf("%s (binary): %v", bin, bst)
				if bst.maxTolRatio > 1 {
					t.Errorf("%s: difference beyond 1e-3 + 1e-4·|Kaldi|: %v", bin, bst)
				}
			}
		})
	}
}

// TestTestdataFeatures runs without ../shared: the 8 kHz golden utterance
// and Kaldi's fbank (binary) and MFCC (text) for it, kept in testdata.
func TestTestdataFeatures(t *testing.T) {
	w := readWaveFile(t, filepath.Join("testdata", "s_utt5_8k.wav"))
	for _, c := range []struct {
		mfcc bool
		file string
	}{{false, "fbank23_8k.ark"}, {true, "mfcc13_8k.txt.ark"}} {
		fc := featureCase{mfcc: c.mfcc, set: func(f *FbankOptions, m *MfccOptions) { f.Frame.SampFreq, m.Frame.SampFreq = 8000, 8000 }}
		off, err := NewOffline(fc.computer(t))
		if err != nil {
			t.Fatal(err)
		}
		data, rows, err := off.Compute(nil, "s_utt5_8k", w.Data[0], w.SampFreq, 1)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string][][]float32{"s_utt5_8k": toRows(data, rows, off.Dim())}
		var want []textMatrix
		if c.mfcc {
			want = readTextArk(t, filepath.Join("testdata", c.file))
		} else {
			for _, m := range readBinaryArk(t, filepath.Join("testdata", c.file)) {
				tm := textMatrix{key: m.key}
				for r := 0; r < m.rows; r++ {
					tm.rows = append(tm.rows, m.data[r*m.cols:(r+1)*m.cols])
				}
				want = append(want, tm)
			}
		}
		st := compareMatrices(t, c.file, want, got)
		t.Logf("testdata/%s: %v", c.file, st)
		if st.maxTolRatio > 1 {
			t.Errorf("%s: %v", c.file, st)
		}
	}
}
