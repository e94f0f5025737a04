package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// matrix-sum-rows and vector-sum, as steps/nnet/make_priors.sh chains them
// (the sum of every frame's posteriors), and vector-sum's three usages with
// Kaldi's messages and exit codes (1: vector-sum's doubtful sum, written;
// 255: an error).
func TestMatrixSumRowsVectorSum(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mats := write("m.txt", "a  [\n 1 2\n 3 4 ]\nb  [\n 0.5 0.25 ]\n")
	vecs := write("v.txt", "a [ 1 2 3 ]\nb [ 4 5 6 ]\n")
	one := write("one.vec", "[ 1 1 1 ]\n")
	short := write("short.txt", "a [ 1 2 ]\n")
	for _, c := range []struct {
		name, stdin string
		args        []string
		code        int
		out, log    string
	}{
		{"sum rows", "", []string{"matrix-sum-rows", "ark,t:" + mats, "ark,t:-"}, 0, "a  [ 4 6 ]\nb  [ 0.5 0.25 ]\n", "Summed rows 2 matrices, 3 rows in total."},
		{"average rows", "", []string{"matrix-sum-rows", "--do-average=true", "ark,t:" + mats, "ark,t:-"}, 0, "a  [ 2 3 ]\nb  [ 0.5 0.25 ]\n", ""},
		{"archive to one vector", "", []string{"vector-sum", "--binary=false", "ark,t:" + vecs, "-"}, 0, " [ 5 7 9 ]\n", "Summed 2 vectors, 0 with errors; wrote sum to -"},
		{"tables by key", "", []string{"vector-sum", "ark,t:" + vecs, "ark,t:" + vecs, "ark,t:-"}, 0, "a  [ 2 4 6 ]\nb  [ 8 10 12 ]\n", "Summed vectors for 2 keys, had errors (missing or mismatched vectors) for 0."},
		{"a key missing, a dimension mismatched", "", []string{"vector-sum", "ark,t:" + vecs, "ark,t:" + short, "ark,t:-"}, 0, "a  [ 1 2 3 ]\nb  [ 4 5 6 ]\n", "Dimension mismatch for utterance a : 2 for system 2"},
		{"files", "", []string{"vector-sum", "--binary=false", one, one, "-"}, 0, " [ 2 2 2 ]\n", "Summed 2 vectors; wrote sum to -"},
		{"files of other dimensions", "", []string{"vector-sum", "--binary=false", one, write("two.vec", "[ 1 1 ]\n"), "-"}, 255, "", "vector of dimension 2"},
		{"mixed archive dimensions", "a [ 1 2 3 ]\nb [ 1 2 ]\n", []string{"vector-sum", "--binary=false", "ark,t:-", "-"}, 1, " [ 1 2 3 ]\n", "Mismatched vector dimensions 2 vs 3 (key b)"},
		{"empty archive", "", []string{"vector-sum", "ark,t:-", "-"}, 1, "", "Summed 0 vectors, 0 with errors"},
		{"a table and a file", "", []string{"vector-sum", "ark,t:" + vecs, one, "-"}, 255, "", "mixing tables and single files"},
		{"a bad matrix", "a [ 1 2 \n 3 ]\n", []string{"matrix-sum-rows", "ark,t:-", "ark,t:-"}, 255, "", "text matrix is ragged"},
	} {
		code, out, stderr := runStrode(t, c.stdin, c.args...)
		if code != c.code || (c.out != "" && out != c.out) || !strings.Contains(stderr, c.log) {
			t.Errorf("%s: exit %d (want %d), output %q (want %q)\n%s", c.name, code, c.code, out, c.out, stderr)
		}
	}
}
