package fsdd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunShLookupOrder runs the top-level run.sh --fetch-only in a scratch
// tree (repo/ with a copy of run.sh and the recipes/local helpers it
// sources, shared/ beside it) and checks where it
// takes FSDD from: --fsdd-dir, then ../shared/data/fsdd, then the cache
// data/fsdd, else `strode fetch-fsdd` into data/fsdd. A stand-in `go` on
// PATH "builds" a stand-in strode that records its arguments, so nothing is
// compiled or downloaded: the test takes milliseconds.
func TestRunShLookupOrder(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash")
	}
	script, err := os.ReadFile("../../run.sh")
	if err != nil {
		t.Fatal(err)
	}
	helpers := map[string][]byte{}
	for _, h := range []string{"parse_options.sh", "strode_bin.sh"} {
		if helpers[h], err = os.ReadFile("../local/" + h); err != nil {
			t.Fatal(err)
		}
	}
	fakeBin := t.TempDir()
	write := func(path, text string, mode os.FileMode) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	// go build -o bin/strode ./cmd/strode copies the stand-in strode, which
	// logs its arguments and, when FAKE_FETCH=ok, "downloads" an empty corpus.
	write(filepath.Join(fakeBin, "strode"), "#!/bin/sh\necho \"$@\" >> strode.args\n[ \"$FAKE_FETCH\" = ok ] || { echo 'ERROR (strode fetch-fsdd) offline' >&2; exit 255; }\nmkdir -p data/fsdd/recordings\necho data/fsdd\n", 0o755)
	write(filepath.Join(fakeBin, "go"), "#!/bin/sh\n[ \"$1 $2 $3\" = \"build -o bin/strode\" ] || exit 3\ncp \""+filepath.Join(fakeBin, "strode")+"\" bin/strode\n", 0o755)

	for _, tc := range []struct {
		name    string
		dirs    []string // folders given recordings/, relative to the scratch root
		args    []string
		fetch   string // FAKE_FETCH
		want    string // the folder printed, "" for a failure
		stderr  string // part of stderr
		strode  string // the stand-in strode's arguments, "" when it must not run
		fetched bool
	}{
		{name: "--fsdd-dir first", dirs: []string{"mine", "shared/data/fsdd", "repo/data/fsdd"}, args: []string{"--fsdd-dir", "../mine"}, want: "../mine"},
		{name: "then ../shared", dirs: []string{"shared/data/fsdd", "repo/data/fsdd"}, want: "../shared/data/fsdd"},
		{name: "then the cache", dirs: []string{"repo/data/fsdd"}, want: "data/fsdd"},
		{name: "--fsdd-dir without recordings", dirs: []string{"shared/data/fsdd"}, args: []string{"--fsdd-dir", "../empty"}, stderr: "--fsdd-dir ../empty has no recordings/"},
		{name: "else download", fetch: "ok", args: []string{"--fsdd-url", "file:///tmp/fsdd-v1.0.10.tar.gz"}, want: "data/fsdd",
			strode: "fetch-fsdd --sums=REPO/recipes/fsdd/SHA256SUMS.upstream-v1.0.10 --url=file:///tmp/fsdd-v1.0.10.tar.gz data/fsdd"},
		{name: "download fails", fetch: "no", stderr: "./run.sh --fsdd-url file:///path/to/fsdd-v1.0.10.tar.gz",
			strode: "fetch-fsdd --sums=REPO/recipes/fsdd/SHA256SUMS.upstream-v1.0.10 data/fsdd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			repo := filepath.Join(root, "repo")
			write(filepath.Join(repo, "run.sh"), string(script), 0o755)
			write(filepath.Join(repo, "go.mod"), "module scratch\n", 0o644) // strode_bin.sh builds only in a Go tree
			for h, text := range helpers {
				write(filepath.Join(repo, "recipes", "local", h), string(text), 0o644)
			}
			for _, d := range tc.dirs {
				if err := os.MkdirAll(filepath.Join(root, d, "recordings"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command("bash", append([]string{"run.sh", "--fetch-only"}, tc.args...)...)
			cmd.Dir = repo
			cmd.Env = append(os.Environ(), "PATH="+fakeBin+string(os.PathListSeparator)+os.Getenv("PATH"), "FAKE_FETCH="+tc.fetch)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			got := strings.TrimSpace(string(out))
			if tc.want != "" && (err != nil || got != tc.want) {
				t.Errorf("printed %q (%v), want %q\n%s", got, err, tc.want, stderr.String())
			}
			if tc.want == "" && err == nil {
				t.Errorf("succeeded with %q, want a failure", got)
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, stderr.String())
			}
			args, _ := os.ReadFile(filepath.Join(repo, "strode.args"))
			if want := strings.ReplaceAll(tc.strode, "REPO", repo); strings.TrimSpace(string(args)) != want {
				t.Errorf("strode ran with %q, want %q", strings.TrimSpace(string(args)), want)
			}
		})
	}
}
