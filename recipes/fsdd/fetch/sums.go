package fetch

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// SumsFile is the name of the committed SHA-256 list of the upstream
// recordings (recipes/fsdd/fetch/SHA256SUMS.upstream-v1.0.10 in the
// repository, in sha256sum's format).
const SumsFile = "SHA256SUMS.upstream-v1.0.10"

//go:embed SHA256SUMS.upstream-v1.0.10
var upstreamSums []byte

// ErrBadSums reports a malformed SHA-256 list.
var ErrBadSums = errors.New("malformed SHA-256 list")

// Sums maps a recording's file name (e.g. "0_george_0.wav") to its SHA-256
// digest.
type Sums map[string][32]byte

// UpstreamSums returns the list of the 3,000 recordings of release v1.0.10,
// as committed in the repository and embedded in the binary.
func UpstreamSums() Sums {
	s, err := ParseSums(bytes.NewReader(upstreamSums), SumsFile)
	if err != nil {
		panic("fetch: the embedded " + SumsFile + " is malformed: " + err.Error())
	}
	return s
}

// ReadSums reads a sha256sum-style list from a file.
func ReadSums(path string) (Sums, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseSums(f, path)
}

// ParseSums reads sha256sum's output format: one "<64 hex digits>  <name>"
// a line (a '*' before the name, binary mode, is accepted), blank lines
// skipped. Names must be plain file names: no folders, no "." or "..". name
// labels errors.
func ParseSums(r io.Reader, name string) (Sums, error) {
	sums := Sums{}
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		if len(text) < 66 || text[64] != ' ' || (text[65] != ' ' && text[65] != '*') {
			return nil, fmt.Errorf("%w: %s:%d: want \"<sha256>  <file>\", got %q", ErrBadSums, name, line, clip(text))
		}
		var digest [32]byte
		if _, err := hex.Decode(digest[:], []byte(text[:64])); err != nil {
			return nil, fmt.Errorf("%w: %s:%d: %v", ErrBadSums, name, line, err)
		}
		file := text[66:]
		if !plainName(file) {
			return nil, fmt.Errorf("%w: %s:%d: %q is not a plain file name", ErrBadSums, name, line, clip(file))
		}
		if _, dup := sums[file]; dup {
			return nil, fmt.Errorf("%w: %s:%d: %s listed twice", ErrBadSums, name, line, file)
		}
		sums[file] = digest
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: line %d: %w", name, line+1, err)
	}
	if len(sums) == 0 {
		return nil, fmt.Errorf("%w: %s lists no files", ErrBadSums, name)
	}
	return sums, nil
}

// Names returns the listed file names, sorted.
func (s Sums) Names() []string {
	names := make([]string, 0, len(s))
	for n := range s {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// plainName reports whether s names a file directly inside a folder.
func plainName(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, "/\\\x00")
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
