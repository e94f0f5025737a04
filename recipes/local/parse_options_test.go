package local

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// script writes a recipe-like script that sources parse_options.sh and
// prints its variables.
func script(t *testing.T, dir, body string) string {
	t.Helper()
	po, err := filepath.Abs("parse_options.sh")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "t.sh")
	text := "#!/usr/bin/env bash\n# t.sh: a test script\n#   --foo-bar X\nset -euo pipefail\n" + body + "\n. " + po + "\n" +
		`echo "foo_bar=$foo_bar quick=$quick nj=$nj rest=[$*]${forward_options:+ forward=[${forward_options[*]}]}"` + "\n"
	if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// The option parser of every recipe script: Kaldi's utils/parse_options.sh
// rules, plus bare boolean switches and forwarding.
func TestParseOptions(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash")
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "c.conf")
	if err := os.WriteFile(conf, []byte("nj=8\nfoo_bar=fromconf\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plain := script(t, dir, "foo_bar=default; quick=false; nj=2; cmd=run.pl")
	for _, c := range []struct {
		args []string
		want string // stdout, or part of stderr when fail
		fail bool
	}{
		{[]string{"--foo-bar", "x"}, "foo_bar=x quick=false nj=2 rest=[]", false},
		{[]string{"--foo-bar=y", "z"}, "foo_bar=y quick=false nj=2 rest=[z]", false},
		{[]string{"--foo_bar", "u"}, "foo_bar=u quick=false nj=2 rest=[]", false},
		{[]string{"--foo-bar", "--x=1", "pos"}, "foo_bar=--x=1 quick=false nj=2 rest=[pos]", false},
		{[]string{"--foo-bar", ""}, "foo_bar= quick=false nj=2 rest=[]", false},
		{[]string{"--quick"}, "foo_bar=default quick=true nj=2 rest=[]", false},
		{[]string{"--quick", "--nj", "3"}, "foo_bar=default quick=true nj=3 rest=[]", false},
		{[]string{"--quick", "false"}, "foo_bar=default quick=false nj=2 rest=[]", false},
		{[]string{"--quick=true", "--", "--nj", "3"}, "foo_bar=default quick=true nj=2 rest=[-- --nj 3]", false},
		{[]string{"--config", conf}, "foo_bar=fromconf quick=false nj=8 rest=[]", false},
		{[]string{"--nj", "5", "--config=" + conf}, "foo_bar=fromconf quick=false nj=5 rest=[]", false},
		{[]string{"--help"}, "t.sh: a test script\n  --foo-bar X", false},
		{[]string{"--quick", "yes"}, "--quick takes true or false, not 'yes'", true},
		{[]string{"--nj"}, "option --nj needs a value", true},
		{[]string{"--bogus", "1"}, "unknown option --bogus", true},
		{[]string{"--cmd", ""}, "empty argument to --cmd option", true},
		{[]string{"--config", filepath.Join(dir, "none")}, "missing config", true},
		{[]string{"--forward-options", "x"}, "invalid option --forward-options", true},
	} {
		out, err := exec.Command("bash", append([]string{plain}, c.args...)...).CombinedOutput()
		got := strings.TrimSpace(string(out))
		if c.fail {
			if err == nil || !strings.Contains(got, c.want) {
				t.Errorf("%q: %v, %q; want a failure with %q", c.args, err, got, c.want)
			}
		} else if err != nil || got != c.want {
			t.Errorf("%q: %v, %q; want %q", c.args, err, got, c.want)
		}
	}
	// forward_options collects what the script does not know, in order.
	fwd := script(t, dir, "foo_bar=default; quick=false; nj=2; forward_options=()")
	out, err := exec.Command("bash", fwd, "--stage", "3", "--nj", "4", "--fast", "--train-opts", "--a=1", "--x=y").CombinedOutput()
	if want := "foo_bar=default quick=false nj=4 rest=[] forward=[--stage 3 --fast --train-opts --a=1 --x=y]"; err != nil || strings.TrimSpace(string(out)) != want {
		t.Errorf("forwarding: %v, %q; want %q", err, out, want)
	}
}

// strode_bin.sh: --strode or $STRODE first, a missing one is an error, and
// without a binary or Go it names the install command.
func TestStrodeBin(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash")
	}
	// A scratch repository without bin/strode, so nothing is built.
	repo := t.TempDir()
	helper, err := os.ReadFile("strode_bin.sh")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, "recipes", "local"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "recipes", "local", "strode_bin.sh"), helper, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module x\n\ngo 1.26.8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sh := filepath.Join(repo, "s.sh")
	if err := os.WriteFile(sh, []byte("set -eu\nstrode=${1:-}\n. "+filepath.Join(repo, "recipes/local/strode_bin.sh")+"\necho \"$strode $STRODE\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	bashPath, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal(err)
	}
	noGo := t.TempDir() // a PATH with the tools the helper needs, without go and strode
	for _, tool := range []string{"dirname", "sed", "uname", "tr", "find"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("needs %s", tool)
		}
		os.Symlink(p, filepath.Join(noGo, tool))
	}
	trueBin, _ := exec.LookPath("true")
	for _, c := range []struct {
		name, arg, env, want string
		fail                 bool
	}{
		{"--strode", trueBin, "", trueBin + " " + trueBin, false},
		{"$STRODE", "", "STRODE=" + trueBin, trueBin + " " + trueBin, false},
		{"missing", "/nonexistent/strode", "", "no strode binary at /nonexistent/strode", true},
		{"no Go", "", "", "https://go.dev/dl/go1.26.8.", true},
	} {
		cmd := exec.Command(bashPath, sh, c.arg)
		cmd.Env = []string{"PATH=" + noGo, "HOME=" + repo}
		if c.env != "" {
			cmd.Env = append(cmd.Env, c.env)
		}
		out, err := cmd.CombinedOutput()
		got := strings.TrimSpace(string(out))
		if (err != nil) != c.fail || !strings.Contains(got, c.want) {
			t.Errorf("%s: %v, %q; want %q", c.name, err, got, c.want)
		}
	}
}
