package compare

import (
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// mapOpener serves files from memory.
func mapOpener(files map[string]string) Opener {
	m := fstest.MapFS{}
	for k, v := range files {
		m[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return func(path string) (io.ReadCloser, error) { return m.Open(path) }
}

func noFiles(path string) (io.ReadCloser, error) { return nil, fs.ErrNotExist }

const werLine = "%WER 12.60 [ 63 / 500, 5 ins, 10 del, 48 sub ]"

func TestReadRuns(t *testing.T) {
	files := mapOpener(map[string]string{
		"exp/a/wer":        "compute-wer --text --mode=present ark:t ark:h\n" + werLine + "\n%SER 12.60 [ 63 / 500 ]\nScored 500 sentences, 0 not present in hyp.\n",
		"exp/best_wer":     "%WER 3.33 [ 1 / 30, 0 ins, 1 del, 0 sub ] exp/decode/wer_10_0.0\n",
		"exp/results.json": `{"sru": {"wer": 12.60, "wer_line": "` + werLine + `"}, "strode": {"wer": 9.5}}`,
		"exp/adapted.json": `{"sru": {"wer": 12.6, "wer_line": "` + werLine + `", "adapted": {"wer": 8.0, "wer_line": "%WER 8.00 [ 40 / 500, 1 ins, 2 del, 37 sub ]"}}}`,
		"exp/partial/wer":  "%WER 95.24 [ 20 / 21, 0 ins, 20 del, 0 sub ] [PARTIAL]\n",
	})
	for _, c := range []struct {
		name, line string
		wer        float64
		errs, n    int
	}{
		{"percent", "sru george 777 12.6", 12.6, 0, 0},
		{"percent sign", "sru george 777 12.6%", 12.6, 0, 0},
		{"integer", "sru george 777 13", 13, 0, 0},
		{"exponent", "sru george 777 1.5e1", 15, 0, 0},
		{"errors/words", "sru george 777 63/500", 12.6, 63, 500},
		{"compute-wer file", "sru george 777 exp/a/wer", 12.6, 63, 500},
		{"best_wer", "sru george 777 exp/best_wer", 100.0 / 30, 1, 30},
		{"partial", "sru george 777 exp/partial/wer", 2000.0 / 21, 20, 21},
		{"results.json by model", "sru george 777 exp/results.json", 12.6, 63, 500},
		{"results.json without line", "strode george 777 exp/results.json", 9.5, 0, 0},
		{"results.json with key", "strode-x george 777 exp/results.json:sru", 12.6, 63, 500},
		{"adapted kept apart", "sru george 777 exp/adapted.json", 12.6, 63, 500},
		{"tabs and blanks", "  sru\tgeorge \t777   12.6  ", 12.6, 0, 0},
	} {
		runs, err := ReadRuns(strings.NewReader("# comment\n\n"+c.line+"\n"), "runs.txt", files)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(runs) != 1 {
			t.Errorf("%s: %d runs", c.name, len(runs))
			continue
		}
		r := runs[0]
		if math.Abs(r.WER-c.wer) > 1e-9 || r.Errors != c.errs || r.Words != c.n || r.Source != "runs.txt:3" ||
			r.Condition != "george" || r.Seed != "777" {
			t.Errorf("%s: got %+v, want WER %v, %d/%d at runs.txt:3", c.name, r, c.wer, c.errs, c.n)
		}
	}
}

func TestReadRunsErrors(t *testing.T) {
	files := mapOpener(map[string]string{
		"nower":       "Scored 500 sentences\n",
		"two":         werLine + "\n" + werLine + "\n",
		"zero":        "%WER -nan [ 0 / 0, 0 ins, 0 del, 0 sub ]\n",
		"r.json":      `{"sru": {"wer": 12.6}}`,
		"bad.json":    `{"sru": `,
		"noline.json": `{"sru": {"wer_line": "WER 12"}}`,
	})
	for _, c := range []struct {
		name, text, want string
		syntax           bool
	}{
		{"three fields", "sru george 12.6\n", "runs.txt:1: runs file syntax: want 4 fields", true},
		{"five fields", "# c\nsru george 777 12.6 x\n", "runs.txt:2: runs file syntax: want 4 fields", true},
		{"negative", "sru george 777 -1\n", "runs.txt:1: runs file syntax: WER \"-1\" must be a finite percentage", true},
		{"nan", "sru george 777 NaN\n", "runs.txt:1: runs file syntax: WER \"NaN\" must be a finite", true},
		{"bad number", "sru george 777 1.2.3\n", "runs.txt:1: runs file syntax: WER \"1.2.3\" is not a number", true},
		{"bad percent", "sru george 777 x%\n", "runs.txt:1: runs file syntax: WER \"x%\" is not a number", true},
		{"zero words", "sru george 777 3/0\n", "runs.txt:1: runs file syntax: errors/words \"3/0\"", true},
		{"missing file", "sru george 777 exp/none/wer\n", "runs.txt:1: WER \"exp/none/wer\" is neither a number nor a readable file", false},
		{"no %WER line", "sru george 777 nower\n", "runs.txt:1: nower: runs file syntax: no compute-wer %WER line", true},
		{"two %WER lines", "sru george 777 two\n", "runs.txt:1: two: runs file syntax: 2 %WER lines", true},
		{"zero words in file", "sru george 777 zero\n", "runs.txt:1: zero: runs file syntax: bad counts", true},
		{"json key", "strode george 777 r.json\n", "runs.txt:1: r.json: runs file syntax: no key \"strode\"", true},
		{"bad json", "sru george 777 bad.json\n", "runs.txt:1: bad.json: runs file syntax:", true},
		{"bad wer_line", "sru george 777 noline.json\n", "runs.txt:1: noline.json: key \"sru\": runs file syntax: not a compute-wer line", true},
		{"duplicate", "sru george 777 1\nsru lucas 777 2\nsru george 777 3\n", "runs.txt:3: runs file syntax: model sru, condition george, seed 777 already given at runs.txt:1", true},
		{"long line", strings.Repeat("x", maxLine+10) + "\n", "runs.txt: runs file syntax: a line longer than", true},
	} {
		_, err := ReadRuns(strings.NewReader(c.text), "runs.txt", files)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: error %v, want prefix %q", c.name, err, c.want)
			continue
		}
		if errors.Is(err, ErrSyntax) != c.syntax {
			t.Errorf("%s: errors.Is(err, ErrSyntax) = %v", c.name, !c.syntax)
		}
	}
}

// Real files through OpenFile: a compute-wer output beside a results.json.
func TestReadRunsFiles(t *testing.T) {
	dir := t.TempDir()
	wer := filepath.Join(dir, "wer")
	res := filepath.Join(dir, "results.json")
	os.WriteFile(wer, []byte(werLine+"\n"), 0o644)
	os.WriteFile(res, []byte(`{"strode": {"wer": 9.0, "wer_line": "%WER 9.00 [ 45 / 500, 1 ins, 4 del, 40 sub ]"}}`), 0o644)
	runs, err := ReadRuns(strings.NewReader("sru g 1 "+wer+"\nstrode g 1 "+res+"\n"), "-", OpenFile)
	if err != nil || len(runs) != 2 || runs[0].Errors != 63 || runs[1].Errors != 45 || runs[1].Source != "-:2" {
		t.Fatalf("runs %+v, err %v", runs, err)
	}
}

// FuzzReadRuns: any bytes give runs or an error, never a panic; every run
// has a finite WER ≥ 0 and the names of its line.
func FuzzReadRuns(f *testing.F) {
	f.Add([]byte("sru george 777 12.6\nstrode george 777 63/500\n# c\n"))
	f.Add([]byte("a b c wer\n"))
	f.Add([]byte("a b c r.json:x\n"))
	f.Add([]byte("a b c 1e308%\n\na b d 0/1\n"))
	open := mapOpener(map[string]string{
		"wer":    werLine + "\n",
		"r.json": `{"a": {"wer_line": "%WER 1 [ 1 / 100, 0 ins, 0 del, 1 sub ]"}, "x": {"wer": 3}}`,
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		runs, err := ReadRuns(strings.NewReader(string(data)), "fuzz", open)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, r := range runs {
			if math.IsNaN(r.WER) || math.IsInf(r.WER, 0) || r.WER < 0 || r.Model == "" || r.Condition == "" || r.Seed == "" {
				t.Fatalf("bad run %+v", r)
			}
		}
	})
}

// FuzzParseWERFile: compute-wer output of any shape parses or errs cleanly.
func FuzzParseWERFile(f *testing.F) {
	f.Add([]byte(werLine + "\n"))
	f.Add([]byte("%WER 95.24 [ 20 / 21, 0 ins, 20 del, 0 sub ] [PARTIAL]\n"))
	f.Add([]byte("%WER x [ -1 / 0,\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, e, n, err := ParseWERFile(data)
		if err == nil && (n <= 0 || e < 0 || math.IsNaN(w) || w < 0) {
			t.Fatalf("accepted %q: %v %d/%d", data, w, e, n)
		}
	})
}
