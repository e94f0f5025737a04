package scoring

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrFormat marks a transcript table that is not a Kaldi text archive.
var ErrFormat = errors.New("invalid text archive")

// ErrDuplicateKey marks a key that occurs twice in a table read for random
// access (Kaldi refuses it there too).
var ErrDuplicateKey = errors.New("duplicate key")

// Entry is one utterance of a token table: its key and its tokens (words).
type Entry struct {
	Key    string
	Tokens []string
}

// TokenReader reads a Kaldi text archive of token vectors — "key tok tok ...\n"
// per entry, as data/*/text and hypothesis files are — the way Kaldi's
// SequentialTokenVectorReader does: the key is the first whitespace-delimited
// string (blank lines before it are skipped), it must be followed by a space,
// tab or newline, and the rest of the line split on whitespace is the value,
// so "key\n" is an utterance with no words.
type TokenReader struct {
	r    *bufio.Reader
	name string // for error messages
	line int
	off  int64
}

// NewTokenReader reads entries from r; name (a file name or specifier) is
// used in error messages.
func NewTokenReader(r io.Reader, name string) *TokenReader {
	return &TokenReader{r: bufio.NewReader(r), name: name}
}

// Next returns the next entry, or io.EOF after the last one. Errors name the
// table, line and byte offset.
func (t *TokenReader) Next() (Entry, error) {
	for {
		lineOff := t.off
		s, err := t.r.ReadString('\n')
		t.off += int64(len(s))
		if s == "" && err != nil {
			if err == io.EOF {
				return Entry{}, io.EOF
			}
			return Entry{}, fmt.Errorf("reading %s: %w", t.name, err)
		}
		t.line++
		if err != nil && err != io.EOF {
			return Entry{}, fmt.Errorf("reading %s: %w", t.name, err)
		}
		rest := strings.TrimLeft(s, " \t\n\r\f\v")
		if rest == "" {
			if err == io.EOF {
				return Entry{}, io.EOF
			}
			continue // a blank line: `is >> key` skips it
		}
		end := strings.IndexAny(rest, " \t\n\r\f\v")
		if end < 0 {
			// The key runs to end of file with no newline after it.
			return Entry{}, fmt.Errorf("%w: %s line %d (byte %d): expected space after key %q, got end of file", ErrFormat, t.name, t.line, lineOff, rest)
		}
		key := rest[:end]
		if c := rest[end]; c != ' ' && c != '\t' && c != '\n' {
			return Entry{}, fmt.Errorf("%w: %s line %d (byte %d): expected space after key %q, got character %q", ErrFormat, t.name, t.line, lineOff, key, c)
		}
		return Entry{Key: key, Tokens: strings.Fields(rest[end:])}, nil
	}
}

// ReadTokenTable reads a whole token table for random access by key, as
// Kaldi's RandomAccessTokenVectorReader on an unsorted archive does; a key
// that occurs twice is an error.
func ReadTokenTable(r io.Reader, name string) (map[string][]string, error) {
	tr := NewTokenReader(r, name)
	m := make(map[string][]string)
	for {
		e, err := tr.Next()
		if err == io.EOF {
			return m, nil
		}
		if err != nil {
			return nil, err
		}
		if _, dup := m[e.Key]; dup {
			return nil, fmt.Errorf("%w %q in %s (line %d)", ErrDuplicateKey, e.Key, name, tr.line)
		}
		m[e.Key] = e.Tokens
	}
}
