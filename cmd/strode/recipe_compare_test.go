package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCompareCommand(t *testing.T) {
	td := filepath.Join("..", "..", "recipes", "compare", "testdata")
	runs, err := os.ReadFile(filepath.Join(td, "fsdd_session7.runs"))
	if err != nil {
		t.Fatal(err)
	}
	golden, _ := os.ReadFile(filepath.Join(td, "fsdd_session7.md"))
	dir := t.TempDir()
	js, png := filepath.Join(dir, "compare.json"), filepath.Join(dir, "compare.png")
	out, errs, code := runScoringCmd(t, string(runs), "compare", "--baseline=sru", "--json="+js, "--png="+png, "-")
	want := strings.ReplaceAll(string(golden), "fsdd_session7.runs:", "-:")
	if code != 0 || out != want {
		t.Errorf("exit %d, stdout:\n%s\nstderr: %s", code, out, errs)
	}
	var rep struct{ Pairs []struct{ A, B string } }
	b, err := os.ReadFile(js)
	if err != nil || json.Unmarshal(b, &rep) != nil || len(rep.Pairs) != 1 || rep.Pairs[0].B != "strode" {
		t.Errorf("compare.json: %v %s", err, b)
	}
	for _, f := range []string{png, filepath.Join(dir, "compare.svg")} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	// A bad line: the error names the file and the line, exit status 255 (Kaldi's for errors).
	bad := filepath.Join(dir, "runs.txt")
	os.WriteFile(bad, []byte("sru george 777 12.6\nstrode george\n"), 0o644)
	_, errs, code = runScoringCmd(t, "", "compare", bad)
	if code != 255 || !strings.Contains(errs, bad+":2: runs file syntax: want 4 fields") {
		t.Errorf("bad line: exit %d, stderr %s", code, errs)
	}
	_, errs, code = runScoringCmd(t, "sru g 1 10\n", "compare", "--baseline=dnn", "-")
	if code == 0 || !strings.Contains(errs, `baseline model "dnn" has no runs`) {
		t.Errorf("unknown baseline: exit %d, stderr %s", code, errs)
	}
}
