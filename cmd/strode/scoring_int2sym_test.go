package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/kaldicmd"
)

// int2sym writes what utils/int2sym.pl -f 2- writes (every field followed
// by a space) and names the line of a bad id; sym2int undoes it.
func TestInt2Sym(t *testing.T) {
	dir := t.TempDir()
	words := filepath.Join(dir, "words.txt")
	if err := os.WriteFile(words, []byte("<eps> 0\nzero 1\none 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(stdin string, args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := app.Run(append([]string{"strode"}, args...), kaldicmd.Streams{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
		return out.String(), errb.String(), code
	}
	out, errs, code := run("u1 1 2 \nu2\nu3 2\n", "int2sym", "--field=2-", words)
	if want := "u1 zero one \nu2 \nu3 one \n"; code != 0 || out != want {
		t.Errorf("int2sym: exit %d, %q, want %q\n%s", code, out, want, errs)
	}
	back, _, _ := run(out, "sym2int", "--field=2-", words)
	if want := "u1 1 2\nu2\nu3 2\n"; back != want {
		t.Errorf("sym2int of int2sym: %q, want %q", back, want)
	}
	for _, c := range []struct{ in, want string }{
		{"u1 1\nu2 7\n", "- line 2: id 7 is not in the symbol table"},
		{"u1 one\n", `- line 1: field 2 "one" is not an integer id`},
	} {
		if _, errs, code := run(c.in, "int2sym", "--field=2-", words); code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", c.in, code, errs, c.want)
		}
	}
}

// filter-scp keeps (or, with --exclude, drops) the listed keys' lines,
// verbatim and in order, as utils/filter_scp.pl.
func TestFilterScp(t *testing.T) {
	dir := t.TempDir()
	list, scp := filepath.Join(dir, "list"), filepath.Join(dir, "feats.scp")
	os.WriteFile(list, []byte("b\nd extra fields\n"), 0o644)
	os.WriteFile(scp, []byte("a a.ark:1\nb  b.ark:2\nc c.ark:3 \nd d.ark:4\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"filter-scp", list, scp}, "b  b.ark:2\nd d.ark:4\n"},
		{[]string{"filter-scp", "--exclude", list, scp}, "a a.ark:1\nc c.ark:3 \n"},
	} {
		var out, errb bytes.Buffer
		code := app.Run(append([]string{"strode"}, c.args...), kaldicmd.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
		if code != 0 || out.String() != c.want {
			t.Errorf("%v: exit %d, %q, want %q\n%s", c.args, code, out.String(), c.want, errb.String())
		}
	}
}
