package kaldicmd

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testCommand records what its run saw.
type seen struct {
	binary  bool
	bins    int
	low     float64
	window  string
	args    []string
	verbose int
}

func newTestCommand(s *seen, fail error) *Command {
	return &Command{
		Name:        "compute-test-feats",
		Summary:     "a command for tests",
		Description: "Computes nothing, for tests.",
		ArgsUsage:   "<in-rspecifier> <out-wspecifier>",
		Examples:    []string{"strode compute-test-feats scp:wav.scp ark:-"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) RunFunc {
			binary := fs.Bool("binary", true, "Binary-mode output")
			bins := fs.Int("num-mel-bins", 23, "Number of triangular mel-frequency bins")
			low := fs.Float64("low-freq", 20, "Low cutoff frequency for mel bins")
			window := fs.String("window-type", "povey", "Type of window")
			return func(ctx *Context) error {
				*s = seen{*binary, *bins, *low, *window, ctx.Args(), ctx.Verbose}
				return fail
			}
		},
	}
}

func execute(t *testing.T, cmd *Command, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = cmd.Execute(args, Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

func TestOptionParsing(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want seen
	}{
		{"defaults", []string{"a", "b"}, seen{true, 23, 20, "povey", []string{"a", "b"}, 0}},
		{"equals", []string{"--binary=false", "--num-mel-bins=40", "--low-freq=64.5", "--window-type=hamming", "a", "b"},
			seen{false, 40, 64.5, "hamming", []string{"a", "b"}, 0}},
		{"space-separated value", []string{"--num-mel-bins", "80", "--window-type", "hanning", "a", "b"},
			seen{true, 80, 20, "hanning", []string{"a", "b"}, 0}},
		{"bare bool is true", []string{"--binary=f", "--binary", "a", "b"}, seen{true, 23, 20, "povey", []string{"a", "b"}, 0}},
		{"underscores as dashes", []string{"--num_mel_bins=13", "a", "b"}, seen{true, 13, 20, "povey", []string{"a", "b"}, 0}},
		{"options stop at first positional", []string{"--verbose=2", "ark:-", "--binary=false"},
			seen{true, 23, 20, "povey", []string{"ark:-", "--binary=false"}, 2}},
		{"double dash ends options", []string{"--", "--x", "b"}, seen{true, 23, 20, "povey", []string{"--x", "b"}, 0}},
		{"dash is positional", []string{"-", "ark,t:-"}, seen{true, 23, 20, "povey", []string{"-", "ark,t:-"}, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s seen
			code, _, stderr := execute(t, newTestCommand(&s, nil), tc.args...)
			if code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr)
			}
			if s.binary != tc.want.binary || s.bins != tc.want.bins || s.low != tc.want.low ||
				s.window != tc.want.window || s.verbose != tc.want.verbose || strings.Join(s.args, "|") != strings.Join(tc.want.args, "|") {
				t.Errorf("got %+v, want %+v", s, tc.want)
			}
		})
	}
}

func TestConfigFile(t *testing.T) {
	dir := t.TempDir()
	inner := filepath.Join(dir, "inner.conf")
	conf := filepath.Join(dir, "fbank.conf")
	os.WriteFile(inner, []byte("--low-freq=100\n"), 0o644)
	os.WriteFile(conf, []byte("# fbank config\n--num-mel-bins=40   # trailing comment\n\n--window_type=hamming\n--binary=false\n--config="+inner+"\n"), 0o644)

	var s seen
	code, _, stderr := execute(t, newTestCommand(&s, nil), "--config="+conf, "--num-mel-bins=80", "a", "b")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The command line overrides the config file, whatever the order.
	if s.bins != 80 || s.window != "hamming" || s.binary || s.low != 100 {
		t.Errorf("got %+v", s)
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.conf")
	os.WriteFile(bad, []byte("--num-mel-bins=40\nnum-mel-bins=3\n"), 0o644)
	unknown := filepath.Join(dir, "unknown.conf")
	os.WriteFile(unknown, []byte("\n--no-such-opt=1\n"), 0o644)
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"unknown option", []string{"--no-such-opt=1", "a", "b"}, 1, "invalid option --no-such-opt=1"},
		{"bad int", []string{"--num-mel-bins=forty", "a", "b"}, 1, `bad value "forty" for option --num-mel-bins`},
		{"bad bool", []string{"--binary=maybe", "a", "b"}, 1, "--binary"},
		{"missing value", []string{"a", "b", "--num-mel-bins"}, 1, "expected 2 argument(s), got 3"},
		{"option needs value at end", []string{"--num-mel-bins"}, 1, "option --num-mel-bins needs a value"},
		{"too few args", []string{"a"}, 1, "expected 2 argument(s), got 1"},
		{"too many args", []string{"a", "b", "c"}, 1, "got 3"},
		{"config line without dashes", []string{"--config=" + bad, "a", "b"}, 1, bad + ":2"},
		{"config unknown option", []string{"--config=" + unknown, "a", "b"}, 1, unknown + ":2: invalid option --no-such-opt"},
		{"missing config", []string{"--config=" + filepath.Join(dir, "nope.conf"), "a", "b"}, 1, "nope.conf"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s seen
			code, _, stderr := execute(t, newTestCommand(&s, nil), tc.args...)
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d", code, tc.wantCode)
			}
			if !strings.Contains(stderr, "ERROR (strode compute-test-feats)") || !strings.Contains(stderr, tc.wantErr) {
				t.Errorf("stderr lacks %q:\n%s", tc.wantErr, stderr)
			}
		})
	}
}

func TestRunFailure(t *testing.T) {
	var s seen
	code, _, stderr := execute(t, newTestCommand(&s, errors.New("cannot open foo.ark")), "a", "b")
	if code != FailureStatus || !strings.Contains(stderr, "ERROR (strode compute-test-feats) cannot open foo.ark\n") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = execute(t, newTestCommand(&s, Exit(3, errors.New("partial"))), "a", "b")
	if code != 3 || !strings.Contains(stderr, "partial") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestUsageText(t *testing.T) {
	var s seen
	code, stdout, _ := execute(t, newTestCommand(&s, nil), "--help")
	if code != 0 {
		t.Fatalf("--help exits %d", code)
	}
	want := `
Computes nothing, for tests.
Usage: strode compute-test-feats [options] <in-rspecifier> <out-wspecifier>
e.g.: strode compute-test-feats scp:wav.scp ark:-
Options:
  --binary                    : Binary-mode output (bool, default = true)
  --low-freq                  : Low cutoff frequency for mel bins (float, default = 20)
  --num-mel-bins              : Number of triangular mel-frequency bins (int, default = 23)
  --window-type               : Type of window (string, default = "povey")

Standard options:
  --config                    : Configuration file to read (this option may be repeated) (string, default = "")
  --help                      : Print out usage message (bool, default = false)
  --print-args                : Print the command line arguments (to stderr) (bool, default = true)
  --verbose                   : Verbose level (higher->more logging) (int, default = 0)

`
	if stdout != want {
		t.Errorf("usage text:\n%s\nwant:\n%s", stdout, want)
	}
}

func TestPrintArgsAndLogging(t *testing.T) {
	cmd := &Command{Name: "echo-args", MinArgs: 0, MaxArgs: -1, Setup: func(fs *flag.FlagSet) RunFunc {
		return func(ctx *Context) error {
			ctx.Log("Copied %d feature matrices.", 3)
			ctx.Warn("odd")
			ctx.Vlog(2, "hidden unless --verbose=2")
			return nil
		}
	}}
	_, _, stderr := execute(t, cmd, "ark:gunzip -c a.gz |", "ark,t:-")
	want := "strode echo-args 'ark:gunzip -c a.gz |' ark,t:-\nLOG (strode echo-args) Copied 3 feature matrices.\nWARNING (strode echo-args) odd\n"
	if stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	_, _, stderr = execute(t, cmd, "--print-args=false", "--verbose=2")
	if strings.Contains(stderr, "strode echo-args --") || !strings.Contains(stderr, "VLOG[2] (strode echo-args) hidden") {
		t.Errorf("stderr %q", stderr)
	}
}

func TestApp(t *testing.T) {
	var s seen
	app := &App{Name: "strode", Usage: "STRODE for Kaldi"}
	app.Add(newTestCommand(&s, nil))
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := app.Run(append([]string{"strode"}, args...), Streams{strings.NewReader(""), &out, &errb})
		return code, out.String(), errb.String()
	}
	code, stdout, _ := run("--help")
	if code != 0 || !strings.Contains(stdout, "compute-test-feats") || !strings.Contains(stdout, "a command for tests") {
		t.Errorf("--help: exit %d\n%s", code, stdout)
	}
	code, _, stderr := run("no-such-command")
	if code == 0 || !strings.Contains(stderr, `unknown command "no-such-command"`) {
		t.Errorf("unknown command: exit %d, %q", code, stderr)
	}
	code, _, stderr = run("--no-such-flag")
	if code == 0 || !strings.Contains(stderr, "ERROR (strode)") {
		t.Errorf("unknown flag: exit %d, %q", code, stderr)
	}
	code, _, stderr = run("compute-test-feats", "--num-mel-bins=7", "x", "y")
	if code != 0 || s.bins != 7 {
		t.Errorf("dispatch: exit %d, %+v, %s", code, s, stderr)
	}
	code, _, _ = run("compute-test-feats", "x")
	if code != 1 {
		t.Errorf("usage error through app: exit %d", code)
	}
}

// ReadConfigFile reads one component's options from a config file, with
// errors naming the file and line.
func TestReadConfigFile(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/fbank.conf"
	os.WriteFile(path, []byte("# comment\n--num-mel-bins=40\n--use-energy\n"), 0o644)
	fs := flag.NewFlagSet("fbank", flag.ContinueOnError)
	bins := fs.Int("num-mel-bins", 23, "")
	energy := fs.Bool("use-energy", false, "")
	if err := ReadConfigFile(fs, path); err != nil || *bins != 40 || !*energy {
		t.Fatalf("%v: bins %d energy %v", err, *bins, *energy)
	}
	os.WriteFile(path, []byte("--num-mel-bins=40\n--frame-shift=5\n"), 0o644)
	if err := ReadConfigFile(fs, path); err == nil || !strings.Contains(err.Error(), "fbank.conf:2") {
		t.Errorf("unknown option: %v", err)
	}
}
