package kaldiio

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unsafe"
)

// SequentialReader streams a table (Kaldi's SequentialTableReader) in the
// style of bufio.Scanner:
//
//	r, err := kaldiio.OpenSequentialReader("ark:feats.ark", kaldiio.MatrixCodec)
//	if err != nil { ... }
//	defer r.Close()
//	for r.Next() {
//		key, m := r.Key(), r.Value()
//		...
//	}
//	if err := r.Err(); err != nil { ... }
//
// Memory does not grow with the table: one entry is held at a time (script
// files are read line by line). With SetReuse(true) each entry is decoded
// into the storage of the previous one, so streaming a table allocates
// nothing per entry; Value is then valid only until the next call to Next.
type SequentialReader[T any] struct {
	spec  Rspecifier
	name  string // the rspecifier, for errors
	codec Codec[T]
	raw   bool
	env   *env
	reuse bool

	in *Input // the archive, or the script file

	// script reading
	data     *Input // the data file of the last entry, kept open to seek in
	dataPath string
	tmp      T
	line     int

	keyBuf      []byte // the current key; Key converts it once, on demand
	key         string
	keyOK       bool
	val         T
	err         error
	done        bool
	entryFailed bool // the last error was reading an entry's object, not the script itself
	skippedN    int  // entries a permissive reader skipped
}

// Skipped is the number of entries a permissive ("p") reader has skipped
// because they could not be read (for an archive, 1 when it broke off).
// Tools that report "Done N out of M" count them in M, so that a lost
// entry shows in the summary as well as in its warning.
func (s *SequentialReader[T]) Skipped() int { return s.skippedN }

// OpenSequentialReader opens an rspecifier for streaming. Options set the
// standard streams used for "-" and pipes.
func OpenSequentialReader[T any](rspecifier string, c Codec[T], opts ...Option) (*SequentialReader[T], error) {
	spec, err := ParseRspecifier(rspecifier)
	if err != nil {
		return nil, err
	}
	_, raw := c.(RawCodec)
	s := &SequentialReader[T]{spec: spec, name: rspecifier, codec: c, raw: raw, env: newEnv(opts)}
	s.in, err = openInput(spec.Path, s.env)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// SetReuse turns on (or off) decoding each entry into the previous entry's
// storage. With it on, streaming allocates nothing per entry once buffers
// have grown to the largest entry, and a Value stays valid only until the
// next Next.
func (s *SequentialReader[T]) SetReuse(on bool) { s.reuse = on }

// Next advances to the next entry. It returns false at the end of the table
// or on an error (see Err).
func (s *SequentialReader[T]) Next() bool {
	for !s.done {
		var ok bool
		var err error
		if s.spec.Kind == Script {
			ok, err = s.nextScript()
		} else {
			ok, err = s.nextArchive()
		}
		if err != nil && s.spec.Permissive {
			if s.spec.Kind == Script && s.entryFailed {
				// Skip the entry, as Kaldi's "p" does for scripts, but say
				// which key and why.
				s.skippedN++
				s.env.skipped(Skip{Rspecifier: s.name, Key: s.Key(), Err: err})
				continue
			}
			if s.spec.Kind == Archive {
				// The archive just ends, as Kaldi's does; at least the
				// entry that broke it is lost.
				var e *Error
				key := ""
				if errors.As(err, &e) {
					key = e.Key
				}
				s.skippedN++
				s.env.skipped(Skip{Rspecifier: s.name, Key: key, Err: err})
				err = nil
			}
		}
		if err != nil {
			s.err = err
			s.finish()
			return false
		}
		if !ok {
			s.finish()
			return false
		}
		return true
	}
	return false
}

func (s *SequentialReader[T]) finish() {
	s.done = true
	if err := s.closeInputs(); err != nil && s.err == nil {
		s.err = err
	}
}

func (s *SequentialReader[T]) closeInputs() error {
	var err error
	if s.data != nil {
		err = s.data.Close()
		s.data = nil
	}
	if s.in != nil {
		if cerr := s.in.Close(); err == nil {
			err = cerr
		}
		s.in = nil
	}
	return err
}

// readKey reads a key and the separator after it, leaving r at the object.
// At the end of the stream it returns nil, nil. The bytes are valid until
// the next read.
func readKey(r *Reader) ([]byte, error) {
	if err := r.SkipSpace(); err != nil {
		if err == io.EOF {
			return nil, nil
		}
		return nil, r.eofErr(err, "key")
	}
	key, err := r.readWord("", "key")
	if err != nil {
		return nil, err
	}
	c, err := r.Peek()
	if err != nil {
		return nil, &Error{File: r.name, Key: string(key), Offset: r.off, Line: r.lines + 1,
			Err: fmt.Errorf("%w: key with no object after it: %w", ErrFormat, io.ErrUnexpectedEOF)}
	}
	switch c {
	case ' ', '\t':
		r.ReadByte()
	case '\n':
	default: // as Kaldi: only a space, tab or newline may follow a key
		return nil, &Error{File: r.name, Key: string(key), Offset: r.off, Line: r.lines + 1,
			Err: formatf("expected space after key, got %q", c)}
	}
	return key, nil
}

// readObject reads the binary marker (unless the codec is raw) and the
// object.
func readObject[T any](r *Reader, c Codec[T], raw bool, v *T) error {
	binary := true
	if !raw {
		var err error
		if binary, err = r.ReadBinaryHeader(); err != nil {
			return err
		}
	}
	return c.Read(r, binary, v)
}

func (s *SequentialReader[T]) nextArchive() (bool, error) {
	r := s.in.Reader()
	key, err := readKey(r)
	if err != nil || key == nil {
		return false, err
	}
	s.setKey(key)
	if !s.reuse {
		var zero T
		s.val = zero
	}
	if err := readObject(r, s.codec, s.raw, &s.val); err != nil {
		return false, withKey(err, r.name, s.Key())
	}
	return true, nil
}

func (s *SequentialReader[T]) nextScript() (bool, error) {
	r := s.in.Reader()
	if r.AtEOF() {
		return false, nil
	}
	s.entryFailed = false
	s.line++
	lineOff := r.off
	text, err := r.readLine("script line")
	if err != nil {
		return false, err
	}
	// The entry's strings view the line buffer (no allocation); nothing
	// below keeps them beyond this call except through copies.
	e, err := ParseScpLine(unsafe.String(unsafe.SliceData(text), len(text)))
	if err != nil {
		return false, &Error{File: s.in.name, Offset: lineOff, Line: s.line, Err: err}
	}
	e.Line = s.line
	s.setKey(text[:len(e.Key)])
	if !s.reuse {
		var zero T
		s.val = zero
	}
	if err := s.readEntry(e); err != nil {
		s.entryFailed = true
		return false, withKey(err, s.in.name, s.Key())
	}
	return true, nil
}

// readEntry reads the object an scp entry points at into s.val.
func (s *SequentialReader[T]) readEntry(e ScpEntry) error {
	dst := &s.val
	if e.Range != "" {
		dst = &s.tmp
		if !s.reuse {
			var zero T
			s.tmp = zero
		}
	}
	if err := s.openEntry(e); err != nil {
		return err
	}
	if err := readObject(s.data.Reader(), s.codec, s.raw, dst); err != nil {
		return err
	}
	if s.data.cmd != nil { // a pipe entry: its whole output is the object
		s.data.Reader().Discard(1 << 62)
		err := s.data.Close()
		s.data, s.dataPath = nil, ""
		if err != nil {
			return err
		}
	}
	if e.Range != "" {
		return applyRange(s.codec, &s.val, &s.tmp, e, s.in.name)
	}
	return nil
}

// applyRange cuts src to e's range into dst; errors name the script file
// and line of the entry.
func applyRange[T any](c Codec[T], dst, src *T, e ScpEntry, scp string) error {
	rc, ok := c.(RangeCodec[T])
	if !ok {
		return &Error{File: scp, Offset: -1, Line: e.Line, Err: fmt.Errorf("%w: range [%s] given for objects that cannot be cut", ErrSpecifier, e.Range)}
	}
	if err := rc.ExtractRange(dst, src, e.Range); err != nil {
		return &Error{File: scp, Offset: -1, Line: e.Line, Err: fmt.Errorf("%s: %w", e.Rx, err)}
	}
	return nil
}

// openEntry makes s.data read the object of e: files stay open between
// entries of the same archive, so a script pointing into one archive seeks
// rather than reopening.
func (s *SequentialReader[T]) openEntry(e ScpEntry) error {
	kind, _ := classifyRx(e.Rx)
	path, off := e.Rx, int64(0)
	if kind == xOffset {
		path, off, _ = splitOffset(e.Rx)
	}
	if (kind == xFile || kind == xOffset) && s.data != nil && s.dataPath == path {
		if err := s.data.seek(off); err == nil {
			return nil
		} else {
			var pe *Error
			if errors.As(err, &pe) {
				return err
			}
		}
	}
	if s.data != nil {
		s.data.Close()
		s.data, s.dataPath = nil, ""
	}
	in, err := openInput(strings.Clone(e.Rx), s.env)
	if err != nil {
		return err
	}
	s.data = in
	if kind == xFile || kind == xOffset {
		s.dataPath = strings.Clone(path)
	}
	return nil
}

func (s *SequentialReader[T]) setKey(k []byte) {
	s.keyBuf = append(s.keyBuf[:0], k...)
	s.keyOK = false
}

// Key returns the current entry's key. (Next itself allocates nothing in
// reuse mode; the key string is made here, once per entry, when asked for.
// KeyBytes gives it without allocating.)
func (s *SequentialReader[T]) Key() string {
	if !s.keyOK {
		s.key, s.keyOK = string(s.keyBuf), true
	}
	return s.key
}

// KeyBytes returns the current entry's key as bytes, valid until the next
// call to Next; it never allocates.
func (s *SequentialReader[T]) KeyBytes() []byte { return s.keyBuf }

// Value returns the current entry's object.
func (s *SequentialReader[T]) Value() T { return s.val }

// Err returns the first error met, or nil at a clean end of the table (a
// pipe read to its end whose command failed is an error).
func (s *SequentialReader[T]) Err() error { return s.err }

// Close releases the table. Closing before the end is fine: a pipe's
// producer is then not blamed for the broken pipe. It returns Err.
func (s *SequentialReader[T]) Close() error {
	if !s.done {
		s.done = true
		s.closeInputs()
	}
	return s.err
}
