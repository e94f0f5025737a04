package kaldiio

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. Every error this package returns for bad input wraps one of
// these (test with errors.Is) inside an *Error that names the place.
var (
	// ErrFormat: the bytes are not what Kaldi writes (wrong marker, bad
	// token, bad size byte, absurd dimension, malformed text).
	ErrFormat = errors.New("malformed Kaldi data")
	// ErrUnknownObject: a token that no codec of the table knows.
	ErrUnknownObject = errors.New("unknown object")
	// ErrSpecifier: a malformed rspecifier, wspecifier, rxfilename or scp line.
	ErrSpecifier = errors.New("bad specifier")
	// ErrNotFound: a key a random-access reader does not hold.
	ErrNotFound = errors.New("key not found")
	// ErrPipe: a pipe command that failed (non-zero exit status).
	ErrPipe = errors.New("pipe command failed")
)

// ErrCompress (compressed.go) marks a matrix that cannot be compressed (NaN
// or Inf with a range-scaled method), e.g. a text matrix with "nan" read
// through CompressedMatrixCodec; Kaldi aborts there.

// Error is an error with its place: the file (rxfilename, as given), the
// utterance key, the byte offset and, for text, the line. Zero fields are
// left out of the message: "fbank.ark: key \"utt1\": byte 1234 (line 3): ...".
type Error struct {
	File   string // file, pipe or "-" being read or written
	Key    string // table key, if the error is inside an entry
	Offset int64  // byte offset in File; -1 when unknown
	Line   int    // 1-based line (text input); 0 when unknown or binary
	Err    error
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	if e.Key != "" {
		fmt.Fprintf(&b, "key %q: ", e.Key)
	}
	if e.Offset >= 0 {
		fmt.Fprintf(&b, "byte %d", e.Offset)
		if e.Line > 0 {
			fmt.Fprintf(&b, " (line %d)", e.Line)
		}
		b.WriteString(": ")
	} else if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// withKey returns err with its key set (when err is an *Error without one),
// or err wrapped in a new *Error naming file and key.
func withKey(err error, file, key string) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		if e.Key == "" {
			c := *e
			c.Key = key
			if c.File == "" {
				c.File = file
			}
			return &c
		}
		return err
	}
	return &Error{File: file, Key: key, Offset: -1, Err: err}
}

// formatf makes a formatting error (wrapping ErrFormat) with no place yet.
func formatf(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, a...))
}
