package kaldiio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Kinds of rxfilename (Kaldi's ClassifyRxfilename) and wxfilename.
type xKind int

const (
	xStd    xKind = iota + 1 // "-" or "": standard input/output
	xFile                    // a file name
	xPipe                    // "cmd |" (input) or "| cmd" (output)
	xOffset                  // "foo.ark:1234" (input only)
)

// classifyRx classifies an rxfilename as Kaldi does.
func classifyRx(s string) (xKind, error) {
	switch {
	case s == "" || s == "-":
		return xStd, nil
	case isSpace(s[0]) || isSpace(s[len(s)-1]):
		return 0, fmt.Errorf("input name %q has leading or trailing whitespace", s)
	case s[0] == '|':
		return 0, fmt.Errorf("input name %q starts with '|' (that is an output pipe)", s)
	case s[len(s)-1] == '|':
		return xPipe, nil
	}
	if _, _, ok := splitOffset(s); ok {
		return xOffset, nil
	}
	return xFile, nil
}

// splitOffset splits "foo.ark:1234" into "foo.ark" and 1234.
func splitOffset(s string) (string, int64, bool) {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 || i == len(s)-1 {
		return "", 0, false
	}
	for _, c := range s[i+1:] {
		if c < '0' || c > '9' {
			return "", 0, false
		}
	}
	off, err := strconv.ParseInt(s[i+1:], 10, 64)
	if err != nil {
		return "", 0, false
	}
	return s[:i], off, true
}

// classifyWx classifies a wxfilename as Kaldi does.
func classifyWx(s string) (xKind, error) {
	switch {
	case s == "" || s == "-":
		return xStd, nil
	case isSpace(s[0]) || isSpace(s[len(s)-1]):
		return 0, fmt.Errorf("output name %q has leading or trailing whitespace", s)
	case s[0] == '|':
		return xPipe, nil
	case s[len(s)-1] == '|':
		return 0, fmt.Errorf("output name %q ends with '|' (that is an input pipe)", s)
	}
	if _, _, ok := splitOffset(s); ok {
		return 0, fmt.Errorf("output name %q has an offset; offsets are for reading only", s)
	}
	return xFile, nil
}

// pathErr drops the file name from an *os.PathError (the *Error around it
// names the file already).
func pathErr(what string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", what, pe.Err)
	}
	return err
}

// Option sets where "-" and pipes read and write (tests and commands give
// their own streams); by default the process's standard streams.
type Option func(*env)

type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	skip           func(Skip) // nil: a WARNING line on stderr
}

// Skip is an entry that a permissive ("p") reader skipped because it could
// not be read: the rspecifier, the key (empty when an archive broke before
// one could be read) and why.
type Skip struct {
	Rspecifier string
	Key        string
	Err        error
}

func (s Skip) String() string {
	if s.Key == "" {
		return fmt.Sprintf("reading %s: stopped at an entry that cannot be read, skipping the rest of the archive (permissive \"p\"): %v", s.Rspecifier, s.Err)
	}
	return fmt.Sprintf("reading %s: skipping key %s, which cannot be read (permissive \"p\"): %v", s.Rspecifier, s.Key, s.Err)
}

// WithSkipHandler calls f for each entry a permissive ("p") sequential
// reader skips, instead of writing "WARNING (kaldiio) ..." to stderr. A
// skip is never silent: Kaldi's tools count only the entries the reader
// hands them, so without a warning a lost utterance shows nowhere.
func WithSkipHandler(f func(Skip)) Option { return func(e *env) { e.skip = f } }

func (e *env) skipped(s Skip) {
	if e.skip != nil {
		e.skip(s)
		return
	}
	fmt.Fprintf(e.stderr, "WARNING (kaldiio) %s\n", s)
}

// WithStdin makes "-" in rxfilenames read r.
func WithStdin(r io.Reader) Option { return func(e *env) { e.stdin = r } }

// WithStdout makes "-" in wxfilenames (and the output of "| cmd") write w.
func WithStdout(w io.Writer) Option { return func(e *env) { e.stdout = w } }

// WithStderr sends pipe commands' standard error to w.
func WithStderr(w io.Writer) Option { return func(e *env) { e.stderr = w } }

func newEnv(opts []Option) *env {
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
	for _, o := range opts {
		o(e)
	}
	return e
}

// Input is an opened rxfilename: a file (optionally at an offset), standard
// input, or the output of a pipe command.
type Input struct {
	name   string
	r      *Reader
	file   *os.File // non-nil for files and offsets (seekable)
	size   int64    // size of a regular file, else -1
	cmd    *exec.Cmd
	pipe   *eofTracker
	closed bool
}

// eofTracker remembers whether a pipe was read to its end, so Close can
// tell a producer's failure from our stopping early.
type eofTracker struct {
	rc  io.ReadCloser
	eof bool
}

func (t *eofTracker) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	if err == io.EOF {
		t.eof = true
	}
	return n, err
}

// OpenInput opens an rxfilename as Kaldi's Input::Open does: "-" or "" is
// standard input, "cmd |" runs cmd with `sh -c` and reads its output,
// "foo.ark:1234" opens foo.ark at byte 1234, anything else is a file. Close
// it when done; for a pipe read to its end, Close reports the command's
// failure.
func OpenInput(rx string, opts ...Option) (*Input, error) {
	return openInput(rx, newEnv(opts))
}

func openInput(rx string, e *env) (*Input, error) {
	kind, err := classifyRx(rx)
	if err != nil {
		return nil, &Error{File: rx, Offset: -1, Err: fmt.Errorf("%w: %v", ErrSpecifier, err)}
	}
	in := &Input{name: rx, size: -1}
	switch kind {
	case xStd:
		in.r = NewReader(e.stdin, "standard input")
	case xPipe:
		cmdline := strings.TrimSpace(rx[:len(rx)-1])
		cmd := exec.Command("sh", "-c", cmdline)
		cmd.Stdin = e.stdin
		cmd.Stderr = e.stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, &Error{File: rx, Offset: -1, Err: err}
		}
		if err := cmd.Start(); err != nil {
			return nil, &Error{File: rx, Offset: -1, Err: fmt.Errorf("%w: starting: %v", ErrPipe, err)}
		}
		in.cmd = cmd
		in.pipe = &eofTracker{rc: out}
		in.r = NewReader(in.pipe, rx)
	case xFile, xOffset:
		path, off := rx, int64(0)
		if kind == xOffset {
			path, off, _ = splitOffset(rx)
		}
		f, err := os.Open(path)
		if err != nil {
			return nil, &Error{File: path, Offset: -1, Err: pathErr("cannot open", err)}
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, &Error{File: path, Offset: -1, Err: err}
		}
		in.file = f
		br := fileBufPool.Get().(*bufio.Reader)
		br.Reset(f)
		in.r = NewReader(br, path)
		if st.Mode().IsRegular() {
			in.size = st.Size()
			if off > st.Size() {
				f.Close()
				return nil, &Error{File: path, Offset: off, Err: fmt.Errorf("%w: offset is past the end of the file (%d bytes): %w", ErrFormat, st.Size(), io.ErrUnexpectedEOF)}
			}
			if off > 0 {
				if _, err := f.Seek(off, io.SeekStart); err != nil {
					f.Close()
					return nil, &Error{File: path, Offset: off, Err: err}
				}
			}
			in.r.SetSize(st.Size() - off)
		} else if off > 0 {
			if err := in.r.Discard(off); err != nil {
				f.Close()
				return nil, err
			}
		}
		in.r.SetOffset(off)
	}
	return in, nil
}

// fileBufPool holds the read buffers of closed file inputs: a script of
// small files (a wav.scp) opens one per entry, and 64 KB of garbage per
// file was a good part of the garbage collector's work.
var fileBufPool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

// Reader returns the Reader over the input.
func (in *Input) Reader() *Reader { return in.r }

// Name returns the rxfilename.
func (in *Input) Name() string { return in.name }

// seek moves a file input to off (for the next entry of a script that points
// into the same archive) and resets the Reader.
func (in *Input) seek(off int64) error {
	if in.file == nil || in.size < 0 {
		return errors.New("not a regular file")
	}
	if off > in.size {
		return &Error{File: in.file.Name(), Offset: off, Err: fmt.Errorf("%w: offset is past the end of the file (%d bytes): %w", ErrFormat, in.size, io.ErrUnexpectedEOF)}
	}
	// Within what the buffer holds, skip forward instead of seeking (a
	// script usually walks its archive in order).
	if ahead := off - in.r.off; ahead >= 0 && ahead <= int64(in.r.br.Buffered()) {
		in.r.Discard(ahead)
		in.r.lines = 0
		return nil
	}
	if _, err := in.file.Seek(off, io.SeekStart); err != nil {
		return err
	}
	in.r.br.Reset(in.file)
	in.r.off, in.r.lines = off, 0
	in.r.SetSize(in.size - off)
	return nil
}

// Close closes the input. For a pipe, it waits for the command; if the
// pipe was read to its end, a non-zero exit status is an error wrapping
// ErrPipe. Closing a pipe before its end is not the producer's failure: its
// exit status (typically SIGPIPE) is then ignored.
func (in *Input) Close() error {
	if in.closed {
		return nil
	}
	in.closed = true
	switch {
	case in.file != nil:
		// The buffer goes back to the pool for the next file; the Reader
		// loses it, so a read after Close fails loudly instead of reading
		// another file's bytes.
		if br := in.r.br; br != nil {
			br.Reset(nil)
			in.r.br = nil
			fileBufPool.Put(br)
		}
		return in.file.Close()
	case in.cmd != nil:
		readAll := in.pipe.eof
		in.pipe.rc.Close()
		err := in.cmd.Wait()
		if err != nil && readAll {
			return &Error{File: in.name, Offset: -1, Err: fmt.Errorf("%w: %v", ErrPipe, err)}
		}
	}
	return nil
}

// Output is an opened wxfilename: a file (written under a temporary name
// and renamed into place by Close), standard output, or the input of a pipe
// command.
type Output struct {
	name    string
	w       *Writer
	file    *os.File
	tmp     string // temporary name being written; renamed to path on Close
	path    string
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	closed  bool
	discard bool
}

// OpenOutput opens a wxfilename as Kaldi's Output::Open does: "-" or "" is
// standard output, "| cmd" runs cmd with `sh -c` writing to its input, and
// anything else is a file, written to a temporary name in the same folder
// and renamed by Close (so a failed run never leaves a half-written file
// under the real name). Special files (/dev/null, fifos) are written in
// place.
func OpenOutput(wx string, opts ...Option) (*Output, error) {
	return openOutput(wx, newEnv(opts))
}

func openOutput(wx string, e *env) (*Output, error) {
	kind, err := classifyWx(wx)
	if err != nil {
		return nil, &Error{File: wx, Offset: -1, Err: fmt.Errorf("%w: %v", ErrSpecifier, err)}
	}
	out := &Output{name: wx}
	switch kind {
	case xStd:
		out.w = NewWriter(e.stdout)
	case xPipe:
		cmd := exec.Command("sh", "-c", strings.TrimSpace(wx[1:]))
		cmd.Stdout = e.stdout
		cmd.Stderr = e.stderr
		stdin, err := cmd.StdinPipe()
		if err != nil {
			return nil, &Error{File: wx, Offset: -1, Err: err}
		}
		if err := cmd.Start(); err != nil {
			return nil, &Error{File: wx, Offset: -1, Err: fmt.Errorf("%w: starting: %v", ErrPipe, err)}
		}
		out.cmd, out.stdin = cmd, stdin
		out.w = NewWriter(stdin)
	case xFile:
		if st, err := os.Stat(wx); err == nil && !st.Mode().IsRegular() {
			f, err := os.OpenFile(wx, os.O_WRONLY, 0)
			if err != nil {
				return nil, &Error{File: wx, Offset: -1, Err: err}
			}
			out.file = f
			out.w = NewWriter(f)
			return out, nil
		}
		dir, base := filepath.Split(wx)
		if dir == "" {
			dir = "."
		}
		f, err := os.CreateTemp(dir, "."+base+".tmp*")
		if err != nil {
			return nil, &Error{File: wx, Offset: -1, Err: pathErr("cannot create", err)}
		}
		// CreateTemp makes the file 0600; give it the usual 0666 &^ umask.
		f.Chmod(0o644)
		out.file, out.tmp, out.path = f, f.Name(), wx
		out.w = NewWriter(f)
	}
	return out, nil
}

// Writer returns the Writer over the output.
func (o *Output) Writer() *Writer { return o.w }

// Name returns the wxfilename.
func (o *Output) Name() string { return o.name }

// Flush pushes buffered bytes to the file, stream or pipe.
func (o *Output) Flush() error {
	if err := o.w.Flush(); err != nil {
		return &Error{File: o.name, Offset: o.w.Offset(), Err: err}
	}
	return nil
}

// Abort closes the output without keeping it: a temporary file is removed.
func (o *Output) Abort() {
	o.discard = true
	o.Close()
}

// Close flushes and closes the output; a file is renamed into place, a
// pipe command is waited for and its failure reported (ErrPipe).
func (o *Output) Close() error {
	if o.closed {
		return nil
	}
	o.closed = true
	err := o.w.Flush()
	switch {
	case o.file != nil:
		if cerr := o.file.Close(); err == nil {
			err = cerr
		}
		if o.tmp != "" {
			if err != nil || o.discard {
				os.Remove(o.tmp)
			} else if rerr := os.Rename(o.tmp, o.path); rerr != nil {
				os.Remove(o.tmp)
				err = rerr
			}
		}
	case o.cmd != nil:
		if cerr := o.stdin.Close(); err == nil {
			err = cerr
		}
		if werr := o.cmd.Wait(); werr != nil && !o.discard {
			return &Error{File: o.name, Offset: -1, Err: fmt.Errorf("%w: %v", ErrPipe, werr)}
		}
	}
	if err != nil && !o.discard {
		return &Error{File: o.name, Offset: -1, Err: err}
	}
	return nil
}

// ReadObject reads a single Kaldi object from an rxfilename, as Kaldi's
// ReadKaldiObject: an optional "\0B" marker, then the object in binary or
// text form (e.g. `copy-matrix --binary=true m.txt m.bin` files, final.mdl).
func ReadObject[T any](rx string, c Codec[T], v *T, opts ...Option) error {
	in, err := OpenInput(rx, opts...)
	if err != nil {
		return err
	}
	r := in.Reader()
	binary := true
	if _, raw := c.(RawCodec); !raw {
		if binary, err = r.ReadBinaryHeader(); err != nil {
			in.Close()
			return err
		}
	}
	if err := c.Read(r, binary, v); err != nil {
		in.Close()
		return withKey(err, rx, "")
	}
	return in.Close()
}

// WriteObject writes a single Kaldi object to a wxfilename, as Kaldi's
// WriteKaldiObject: "\0B" and the binary form, or the text form.
func WriteObject[T any](wx string, c Codec[T], binary bool, v *T, opts ...Option) error {
	out, err := OpenOutput(wx, opts...)
	if err != nil {
		return err
	}
	w := out.Writer()
	if _, raw := c.(RawCodec); binary && !raw {
		w.WriteBinaryHeader()
	}
	if err := c.Write(w, binary, v); err != nil {
		out.Abort()
		return &Error{File: wx, Offset: -1, Err: err}
	}
	return out.Close()
}
