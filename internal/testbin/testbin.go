package testbin

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

const modulePath = "github.com/strode-asr/strode"

var (
	once    sync.Once
	binPath string
	binErr  error
)

// Strode returns the path of the strode binary for tb: $STRODE when set,
// else cmd/strode built from this module (once per source tree, see the
// package comment). It fails tb when the build fails.
func Strode(tb testing.TB) string {
	tb.Helper()
	p, err := Path()
	if err != nil {
		tb.Fatalf("strode binary: %v", err)
	}
	return p
}

// Path is Strode for callers without a testing.TB (TestMain).
func Path() (string, error) {
	once.Do(func() { binPath, binErr = find() })
	return binPath, binErr
}

func find() (string, error) {
	if p := os.Getenv("STRODE"); p != "" {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", err
		}
		if st, err := os.Stat(abs); err != nil || st.IsDir() {
			return "", fmt.Errorf("$STRODE=%s is not a file: %v", p, err)
		}
		return abs, nil
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	env, err := goEnv(root)
	if err != nil {
		return "", err
	}
	key, err := sourceKey(root, env)
	if err != nil {
		return "", err
	}
	cache, err := cacheDir()
	if err != nil {
		return "", err
	}
	return build(root, cache, key)
}

// moduleRoot is the folder of this module's go.mod: found from this file's
// path (internal/testbin/testbin.go), else by walking up from the working
// directory (a test's working directory is its package's folder).
func moduleRoot() (string, error) {
	if _, file, _, ok := runtime.Caller(0); ok {
		root := filepath.Join(filepath.Dir(file), "..", "..")
		if isModule(root) {
			return filepath.Abs(root)
		}
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if isModule(dir) {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no go.mod of %s above %s", modulePath, dir)
		}
		dir = up
	}
}

func isModule(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) == "module "+modulePath {
			return true
		}
	}
	return false
}

// goEnv is the go command's view of the settings that change the binary.
func goEnv(root string) (string, error) {
	c := exec.Command("go", "env", "GOVERSION", "GOOS", "GOARCH", "GOAMD64", "GOARM64", "CGO_ENABLED", "CC", "GOFLAGS", "GOEXPERIMENT", "GOWORK")
	c.Dir = root
	out, err := c.Output()
	if err != nil {
		return "", fmt.Errorf("go env: %v", err)
	}
	return string(out), nil
}

// sourceKey hashes root, env and every file the build of cmd/strode can read:
// the module's non-test Go sources (all packages, not only cmd/strode's
// dependencies: listing those needs `go list`, slower than hashing a few MB),
// assembly and C files, the files //go:embed names, go.mod and go.sum.
// testdata folders, hidden folders and nested modules are not part of the
// build and are skipped.
func sourceKey(root, env string) (string, error) {
	var files []string
	embeds := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || isFile(filepath.Join(p, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		switch {
		case strings.HasSuffix(name, "_test.go"):
		case strings.HasSuffix(name, ".go"):
			files = append(files, p)
			pats, err := embedPatterns(p)
			if err != nil {
				return err
			}
			for _, pat := range pats {
				matches, _ := filepath.Glob(filepath.Join(filepath.Dir(p), pat))
				for _, m := range matches {
					embeds[m] = true
				}
			}
		case p == filepath.Join(root, "go.mod"), p == filepath.Join(root, "go.sum"):
			files = append(files, p)
		default:
			switch filepath.Ext(name) {
			case ".s", ".c", ".h", ".cc", ".cpp", ".syso":
				files = append(files, p)
			}
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hashing the sources under %s: %v", root, err)
	}
	for m := range embeds {
		filepath.WalkDir(m, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				files = append(files, p)
			}
			return nil
		})
	}
	sort.Strings(files)
	h := sha256.New()
	// The root too: a binary records its source paths (stack traces,
	// debug info), so another checkout of the same sources gets its own.
	fmt.Fprintf(h, "%s\x00%s\x00", root, env)
	for i, f := range files {
		if i > 0 && files[i-1] == f {
			continue
		}
		rel, _ := filepath.Rel(root, f)
		fh, err := os.Open(f)
		if err != nil {
			return "", err
		}
		st, err := fh.Stat()
		if err == nil {
			fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), st.Size())
			_, err = io.Copy(h, fh)
		}
		fh.Close()
		if err != nil {
			return "", fmt.Errorf("hashing %s: %v", f, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}

// embedPatterns returns the patterns of a Go file's //go:embed lines
// (quoted patterns are unquoted; "all:" prefixes dropped).
func embedPatterns(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil || !bytes.Contains(b, []byte("//go:embed")) {
		return nil, err
	}
	var pats []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, len(b)+1)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "//go:embed ") {
			continue
		}
		for _, f := range strings.Fields(strings.TrimPrefix(line, "//go:embed ")) {
			f = strings.TrimPrefix(strings.Trim(f, "\"`"), "all:")
			pats = append(pats, f)
		}
	}
	return pats, sc.Err()
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// cacheDir is $STRODE_TESTBIN_CACHE, else strode-testbin in the user's
// cache folder, else in the temporary folder.
func cacheDir() (string, error) {
	dir := os.Getenv("STRODE_TESTBIN_CACHE")
	if dir == "" {
		if c, err := os.UserCacheDir(); err == nil {
			dir = filepath.Join(c, "strode-testbin")
		} else {
			dir = filepath.Join(os.TempDir(), fmt.Sprintf("strode-testbin-%d", os.Getuid()))
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return dir, nil
}

// build returns cache/key/strode, building it first unless it is there.
// The lock keeps concurrent test processes from building the same binary
// twice; the rename keeps a reader from seeing half of one.
func build(root, cache, key string) (string, error) {
	dir := filepath.Join(cache, key)
	bin := filepath.Join(dir, "strode")
	if isFile(bin) {
		touch(dir)
		return bin, nil
	}
	unlock, err := lock(filepath.Join(cache, key+".lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	if isFile(bin) { // built by another process while we waited
		touch(dir)
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp := filepath.Join(dir, fmt.Sprintf(".strode.%d.tmp", os.Getpid()))
	c := exec.Command("go", "build", "-o", tmp, "./cmd/strode")
	c.Dir = root
	if out, err := c.CombinedOutput(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("go build -o %s ./cmd/strode in %s: %v\n%s", tmp, root, err, out)
	}
	if err := os.Rename(tmp, bin); err != nil {
		os.Remove(tmp)
		return "", err
	}
	prune(cache, key)
	return bin, nil
}

func touch(dir string) {
	now := time.Now()
	os.Chtimes(dir, now, now)
}

// prune removes the entries (and their locks) not used for two days: every
// edit of a source makes a new one.
func prune(cache, keep string) {
	ents, err := os.ReadDir(cache)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.IsDir() || e.Name() == keep {
			continue
		}
		st, err := e.Info()
		if err != nil || time.Since(st.ModTime()) < 48*time.Hour {
			continue
		}
		os.RemoveAll(filepath.Join(cache, e.Name()))
		os.Remove(filepath.Join(cache, e.Name()+".lock"))
	}
}
