package fetch

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// ErrBadSums reports a malformed SHA-256 list.
var ErrBadSums = errors.New("malformed SHA-256 list")

// Sums maps a file's path, relative to the folder the list describes and
// with '/' separators (e.g. "WAVE/SPEAKER0001/000010011.WAV", or for a flat
// list "0_george_0.wav"), to its SHA-256 digest.
type Sums map[string][32]byte

// ReadSums reads a sha256sum-style list from a file (see ParseSums).
func ReadSums(path string, flat bool) (Sums, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseSums(f, path, flat)
}

// ParseSums reads sha256sum's output format: one "<64 hex digits>  <name>"
// a line (a '*' before the name, binary mode, is accepted), blank lines
// skipped. With flat, names must be plain file names (no folders, no "." or
// ".."); otherwise they may be relative paths with '/' between folders, but
// never absolute, never with "." or ".." or empty parts, and never with a
// backslash (which sha256sum uses to escape odd names). name labels errors,
// which wrap ErrBadSums and give the line.
func ParseSums(r io.Reader, name string, flat bool) (Sums, error) {
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
		switch {
		case flat && !PlainName(file):
			return nil, fmt.Errorf("%w: %s:%d: %q is not a plain file name", ErrBadSums, name, line, clip(file))
		case !flat && !CleanPath(file):
			return nil, fmt.Errorf("%w: %s:%d: %q is not a relative path without \".\", \"..\" or empty parts", ErrBadSums, name, line, clip(file))
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
	if !flat {
		// A name that is also another's folder could never be written.
		for file := range sums {
			for dir := file; ; {
				i := strings.LastIndexByte(dir, '/')
				if i < 0 {
					break
				}
				dir = dir[:i]
				if _, clash := sums[dir]; clash {
					return nil, fmt.Errorf("%w: %s lists %s as a file and as the folder of %s", ErrBadSums, name, dir, file)
				}
			}
		}
	}
	return sums, nil
}

// Names returns the listed paths, sorted.
func (s Sums) Names() []string {
	names := make([]string, 0, len(s))
	for n := range s {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// PlainName reports whether s names a file directly inside a folder.
func PlainName(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, "/\\\x00")
}

// CleanPath reports whether s is a relative path of plain names joined by
// '/', the only kind of name Fetch writes.
func CleanPath(s string) bool {
	if s == "" {
		return false
	}
	for _, part := range strings.Split(s, "/") {
		if !PlainName(part) {
			return false
		}
	}
	return true
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
