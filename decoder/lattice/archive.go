package lattice

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// Entry is one lattice of an archive: exactly one of Compact and Lattice is
// set, as the file held it.
type Entry struct {
	Key     string
	Compact *CompactLattice
	Lattice *Lattice
}

// ArchiveReader reads a Kaldi archive of lattices (binary or text entries,
// mixed), as `ark:` tables hold them. It is the package's own table reader,
// used where no generic table layer is wired in.
type ArchiveReader struct {
	r    *countingReader
	name string
}

type countingReader struct {
	br  *bufio.Reader
	off int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.br.Read(p)
	c.off += int64(n)
	return n, err
}

func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.br.ReadByte()
	if err == nil {
		c.off++
	}
	return b, err
}

// NewArchiveReader reads entries from r; name labels errors.
func NewArchiveReader(r io.Reader, name string) *ArchiveReader {
	return &ArchiveReader{r: &countingReader{br: bufio.NewReaderSize(r, 1<<16)}, name: name}
}

// Next returns the next entry or io.EOF. Errors name the archive, the key
// and the byte offset of the entry.
func (a *ArchiveReader) Next() (Entry, error) {
	var key []byte
	for {
		c, err := a.r.ReadByte()
		if err == io.EOF {
			if len(key) == 0 {
				return Entry{}, io.EOF
			}
			return Entry{}, fmt.Errorf("%s: byte %d: %w: end of file after key %q", a.name, a.r.off, ErrFormat, key)
		}
		if err != nil {
			return Entry{}, fmt.Errorf("%s: %w", a.name, err)
		}
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			if len(key) == 0 {
				continue
			}
			if c == '\n' {
				a.r.br.UnreadByte()
				a.r.off--
			}
			break
		}
		key = append(key, c)
	}
	e := Entry{Key: string(key)}
	start := a.r.off
	wrap := func(err error) error {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			err = fmt.Errorf("%w: unexpected end of file", ErrFormat)
		}
		return fmt.Errorf("%s: key %q (entry at byte %d): %w", a.name, e.Key, start, err)
	}
	// Kaldi writes lattices without the "\0B" marker (so a lone lattice file
	// is an OpenFst file); binary entries start with OpenFst's magic number.
	if p, _ := a.r.br.Peek(1); len(p) == 1 && p[0] == fstMagic&0xff {
		var err error
		if e.Compact, e.Lattice, err = ReadBinary(a.r); err != nil {
			return e, wrap(err)
		}
		return e, nil
	}
	var err error
	if e.Compact, e.Lattice, err = ReadText(a.r); err != nil {
		return e, wrap(err)
	}
	return e, nil
}

// WriteEntry writes one archive entry: "key " then the lattice in binary
// (the OpenFst bytes, with no "\0B" marker, as Kaldi's lattice holders write
// them) or text form. Exactly one of c and l is used
// (c when non-nil).
func WriteEntry(w io.Writer, key string, binary bool, c *CompactLattice, l *Lattice) error {
	if _, err := io.WriteString(w, key+" "); err != nil {
		return err
	}
	switch {
	case binary && c != nil:
		return c.WriteBinary(w)
	case binary:
		return l.WriteBinary(w)
	case c != nil:
		return c.WriteText(w)
	default:
		return l.WriteText(w)
	}
}
