package kaldiio

import (
	"fmt"
	"strconv"
)

// TableWriter writes a table (Kaldi's TableWriter): an archive ("ark:",
// binary by default, "ark,t:" for text), an archive plus a script pointing
// into it ("ark,scp:a.ark,a.scp", offsets at each object's "\0B"), or the
// files a script names ("scp:out.scp", one single-object file per key).
// Files are written under temporary names and renamed by Close; "f" flushes
// after every entry.
type TableWriter[T any] struct {
	spec  Wspecifier
	codec Codec[T]
	raw   bool
	env   *env

	ark, scp *Output
	targets  map[string]string // Script: key -> wxfilename
	err      error
	closed   bool
}

// OpenTableWriter opens a wspecifier for writing.
func OpenTableWriter[T any](wspecifier string, c Codec[T], opts ...Option) (*TableWriter[T], error) {
	spec, err := ParseWspecifier(wspecifier)
	if err != nil {
		return nil, err
	}
	_, raw := c.(RawCodec)
	w := &TableWriter[T]{spec: spec, codec: c, raw: raw, env: newEnv(opts)}
	switch spec.Kind {
	case Script:
		in, err := openInput(spec.ScpPath, w.env)
		if err != nil {
			return nil, err
		}
		defer in.Close()
		r := in.Reader()
		w.targets = map[string]string{}
		for line := 1; !r.AtEOF(); line++ {
			off := r.off
			text, err := r.readLine("script line")
			if err != nil {
				return nil, err
			}
			e, err := ParseScpLine(string(text))
			if err == nil && e.Range != "" {
				err = fmt.Errorf("%w: a script to write to cannot have ranges", ErrSpecifier)
			}
			if err == nil {
				_, err = classifyWx(e.Rx)
			}
			if err != nil {
				return nil, &Error{File: spec.ScpPath, Offset: off, Line: line, Err: err}
			}
			w.targets[e.Key] = e.Rx
		}
		return w, nil
	case ArchiveAndScript:
		if k, _ := classifyWx(spec.ArkPath); k != xFile {
			return nil, specErr(wspecifier, "\"ark,scp:\" needs the archive to be a file, so the script can point into it")
		}
	}
	if w.ark, err = openOutput(spec.ArkPath, w.env); err != nil {
		return nil, err
	}
	if spec.Kind == ArchiveAndScript {
		if w.scp, err = openOutput(spec.ScpPath, w.env); err != nil {
			w.ark.Abort()
			return nil, err
		}
	}
	return w, nil
}

// validKey reports whether key is a valid Kaldi table key (IsToken:
// non-empty, printable, no whitespace).
func validKey(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if isSpace(c) || c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

// Write writes one entry. After an error the writer is broken: every later
// call returns that error and Close discards the output.
func (w *TableWriter[T]) Write(key string, v T) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return fmt.Errorf("kaldiio: Write on a closed TableWriter")
	}
	if !validKey(key) {
		return fmt.Errorf("%w: invalid key %q (keys are non-empty and have no whitespace)", ErrSpecifier, key)
	}
	if w.spec.Kind == Script {
		wx, ok := w.targets[key]
		if !ok {
			if w.spec.Permissive {
				return nil
			}
			return &Error{File: w.spec.ScpPath, Key: key, Offset: -1, Err: fmt.Errorf("%w: key is not in the script", ErrNotFound)}
		}
		return WriteObject(wx, w.codec, w.spec.Binary, &v, w.opts()...)
	}
	bw := w.ark.Writer()
	bw.WriteString(key)
	bw.WriteByte(' ')
	off := bw.Offset()
	if w.spec.Binary && !w.raw {
		bw.WriteBinaryHeader()
	}
	if err := w.codec.Write(bw, w.spec.Binary, &v); err != nil {
		w.err = &Error{File: w.spec.ArkPath, Key: key, Offset: off, Err: err}
		return w.err
	}
	if w.scp != nil {
		sw := w.scp.Writer()
		sw.WriteString(key)
		sw.WriteByte(' ')
		sw.WriteString(w.spec.ArkPath)
		sw.WriteByte(':')
		sw.WriteString(strconv.FormatInt(off, 10))
		sw.WriteByte('\n')
	}
	if w.spec.Flush {
		return w.Flush()
	}
	return nil
}

func (w *TableWriter[T]) opts() []Option {
	e := w.env
	return []Option{WithStdin(e.stdin), WithStdout(e.stdout), WithStderr(e.stderr)}
}

// Flush pushes everything written so far to the files, stream or pipe.
func (w *TableWriter[T]) Flush() error {
	if w.err != nil {
		return w.err
	}
	for _, o := range []*Output{w.ark, w.scp} {
		if o != nil {
			if err := o.Flush(); err != nil {
				w.err = err
				return err
			}
		}
	}
	return nil
}

// Close finishes the table: flushes, renames files into place, waits for
// pipe commands (their failure is an error). After an earlier error the
// outputs are discarded and that error is returned.
func (w *TableWriter[T]) Close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.err != nil {
		for _, o := range []*Output{w.ark, w.scp} {
			if o != nil {
				o.Abort()
			}
		}
		return w.err
	}
	for _, o := range []*Output{w.ark, w.scp} {
		if o != nil {
			if err := o.Close(); err != nil && w.err == nil {
				w.err = err
			}
		}
	}
	return w.err
}

// Abort closes the table without keeping it: temporary files are removed
// (nothing is renamed into place) and pipe failures are ignored. Use it when
// the producer of the entries failed.
func (w *TableWriter[T]) Abort() {
	if w.closed {
		return
	}
	w.closed = true
	for _, o := range []*Output{w.ark, w.scp} {
		if o != nil {
			o.Abort()
		}
	}
}
