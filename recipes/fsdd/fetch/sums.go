package fetch

import (
	"bytes"
	_ "embed"
	"io"

	corpus "github.com/strode-asr/strode/recipes/fetch"
)

// SumsFile is the name of the committed SHA-256 list of the upstream
// recordings (recipes/fsdd/fetch/SHA256SUMS.upstream-v1.0.10 in the
// repository, in sha256sum's format).
const SumsFile = "SHA256SUMS.upstream-v1.0.10"

//go:embed SHA256SUMS.upstream-v1.0.10
var upstreamSums []byte

// ErrBadSums reports a malformed SHA-256 list.
var ErrBadSums = corpus.ErrBadSums

// Sums maps a recording's file name (e.g. "0_george_0.wav") to its SHA-256
// digest.
type Sums = corpus.Sums

// UpstreamSums returns the list of the 3,000 recordings of release v1.0.10,
// as committed in the repository and embedded in the binary.
func UpstreamSums() Sums {
	s, err := ParseSums(bytes.NewReader(upstreamSums), SumsFile)
	if err != nil {
		panic("fetch: the embedded " + SumsFile + " is malformed: " + err.Error())
	}
	return s
}

// ReadSums reads a sha256sum-style list of plain file names from a file.
func ReadSums(path string) (Sums, error) { return corpus.ReadSums(path, true) }

// ParseSums reads sha256sum's output format: one "<64 hex digits>  <name>"
// a line (a '*' before the name, binary mode, is accepted), blank lines
// skipped. Names must be plain file names: no folders, no "." or "..". name
// labels errors.
func ParseSums(r io.Reader, name string) (Sums, error) { return corpus.ParseSums(r, name, true) }

// plainName reports whether s names a file directly inside a folder.
func plainName(s string) bool { return corpus.PlainName(s) }
