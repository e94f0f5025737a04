package kaldiio

// Codecs of Kaldi's holders for non-matrix objects: BasicVectorHolder<int32>
// (alignments), PosteriorHolder and BasicHolder (int32, float, double).

import (
	"bufio"
	"bytes"
	"io"
)

// newLineReader reads one line already in memory, with a buffer no larger
// than the line.
func newLineReader(line []byte, name string) *Reader {
	return NewReader(bufio.NewReaderSize(bytes.NewReader(line), max(16, len(line))), name)
}

// readLine reads the rest of the current line (without the newline, which
// is consumed). EOF ends the last line.
func (r *Reader) readLine(what string) ([]byte, error) {
	line := r.lbuf[:0]
	defer func() { r.lbuf = line }()
	for {
		b, err := r.br.ReadSlice('\n')
		r.consumed(b)
		if err == nil {
			line = append(line, b[:len(b)-1]...)
			return line, nil
		}
		line = append(line, b...)
		if err == io.EOF {
			return line, nil
		}
		if err != bufio.ErrBufferFull {
			return nil, r.eofErr(err, what)
		}
	}
}

type intVectorCodec struct{}

func (intVectorCodec) Read(r *Reader, binary bool, v *IntVector) error {
	out := (*v)[:0]
	if binary {
		off, line := r.off, r.lines
		n, err := r.ReadInt32(true)
		if err != nil {
			return err
		}
		if n < 0 {
			return &Error{File: r.name, Offset: off, Line: line + 1, Err: formatf("integer vector has negative length %d", n)}
		}
		if err := r.checkAvailable(int64(n)*5, func() string { return "integer vector of length " + itoa(int(n)) }); err != nil {
			return err
		}
		for i := int32(0); i < n; i++ {
			x, err := r.ReadInt32(true)
			if err != nil {
				return err
			}
			out = append(out, x)
		}
		*v = out
		return nil
	}
	// Text: the rest of the line, integers separated by whitespace.
	startLine := r.lines + 1
	startOff := r.off
	line, err := r.readLine("integer vector")
	if err != nil {
		return err
	}
	lr := newLineReader(line, r.name)
	lr.off, lr.lines = startOff, startLine-1
	for {
		if err := lr.SkipSpace(); err != nil {
			break
		}
		x, err := lr.ReadInt32(false)
		if err != nil {
			return err
		}
		out = append(out, x)
	}
	*v = out
	return nil
}

func (intVectorCodec) Write(w *Writer, binary bool, v *IntVector) error {
	if binary {
		w.WriteInt32(true, int32(len(*v)))
		for _, x := range *v {
			w.WriteInt32(true, x)
		}
		return nil
	}
	for _, x := range *v {
		w.WriteInt32(false, x)
	}
	return w.WriteByte('\n')
}

type posteriorCodec struct{}

func (posteriorCodec) Read(r *Reader, binary bool, p *Posterior) error {
	out := (*p)[:0]
	if binary {
		off, line := r.off, r.lines
		n, err := r.ReadInt32(true)
		if err != nil {
			return err
		}
		if n < 0 {
			return &Error{File: r.name, Offset: off, Line: line + 1, Err: formatf("posterior has negative length %d", n)}
		}
		if err := r.checkAvailable(int64(n)*5, func() string { return "posterior of " + itoa(int(n)) + " frames" }); err != nil {
			return err
		}
		for i := int32(0); i < n; i++ {
			off, line := r.off, r.lines
			m, err := r.ReadInt32(true)
			if err != nil {
				return err
			}
			if m < 0 {
				return &Error{File: r.name, Offset: off, Line: line + 1, Err: formatf("posterior frame %d has negative length %d", i, m)}
			}
			if err := r.checkAvailable(int64(m)*10, func() string { return "posterior frame" }); err != nil {
				return err
			}
			var frame []PostEntry
			if int(i) < cap(out) {
				frame = out[:i+1][i][:0]
			}
			for j := int32(0); j < m; j++ {
				id, err := r.ReadInt32(true)
				if err != nil {
					return err
				}
				wt, err := r.ReadFloat32(true)
				if err != nil {
					return err
				}
				frame = append(frame, PostEntry{id, wt})
			}
			out = append(out, frame)
		}
		*p = out
		return nil
	}
	// Text: "[ id w id w ] [ ... ] \n" on one line.
	startLine, startOff := r.lines, r.off
	line, err := r.readLine("posterior")
	if err != nil {
		return err
	}
	lr := newLineReader(line, r.name)
	lr.off, lr.lines = startOff, startLine
	for {
		if err := lr.SkipSpace(); err != nil {
			break
		}
		if c, _ := lr.Peek(); c != '[' {
			return lr.Errorf("posterior: expected '[', got %q", c)
		}
		lr.ReadByte()
		var frame []PostEntry
		for {
			if err := lr.SkipSpace(); err != nil {
				return lr.Errorf("posterior: no closing ']'")
			}
			if c, _ := lr.Peek(); c == ']' {
				lr.ReadByte()
				break
			}
			id, err := lr.ReadInt32(false)
			if err != nil {
				return err
			}
			wt, err := lr.ReadFloat32(false)
			if err != nil {
				return err
			}
			frame = append(frame, PostEntry{id, wt})
		}
		out = append(out, frame)
	}
	*p = out
	return nil
}

func (posteriorCodec) Write(w *Writer, binary bool, p *Posterior) error {
	if binary {
		w.WriteInt32(true, int32(len(*p)))
		for _, f := range *p {
			w.WriteInt32(true, int32(len(f)))
			for _, e := range f {
				w.WriteInt32(true, e.ID)
				w.WriteFloat32(true, e.Weight)
			}
		}
		return nil
	}
	for _, f := range *p {
		w.WriteString("[ ")
		for _, e := range f {
			w.buf = appendInt(w.buf[:0], int64(e.ID))
			w.buf = append(w.buf, ' ')
			w.buf = append(AppendFloat(w.buf, float64(e.Weight)), ' ')
			w.Write(w.buf)
		}
		w.WriteString("] ")
	}
	return w.WriteByte('\n')
}

// endTextLine consumes trailing blanks and the newline after a text basic
// value, as Kaldi's BasicHolder::Read insists on.
func endTextLine(r *Reader) error {
	for {
		c, err := r.Peek()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return r.eofErr(err, "end of line")
		}
		if c == '\n' {
			r.ReadByte()
			return nil
		}
		if !isSpace(c) {
			return r.Errorf("expected end of line after value, got %q", c)
		}
		r.ReadByte()
	}
}

// basicCodec is Kaldi's BasicHolder for one scalar type: the value alone in
// binary, the value and a newline in text.
type basicCodec[T any] struct {
	read  func(r *Reader, binary bool) (T, error)
	write func(w *Writer, binary bool, v T) error
}

func (c basicCodec[T]) Read(r *Reader, binary bool, v *T) error {
	x, err := c.read(r, binary)
	if err != nil {
		return err
	}
	*v = x
	if !binary {
		return endTextLine(r)
	}
	return nil
}

func (c basicCodec[T]) Write(w *Writer, binary bool, v *T) error {
	c.write(w, binary, *v)
	if !binary {
		return w.WriteByte('\n')
	}
	return nil
}
