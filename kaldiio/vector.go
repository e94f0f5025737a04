package kaldiio

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

// readVectorHeader reads the int32 dimension after FV/DV and checks the
// bytes can be there.
func readVectorHeader(r *Reader, elemSize int64, what string) (int, error) {
	off, line := r.off, r.lines
	n, err := r.ReadInt32(true)
	if err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, &Error{File: r.name, Offset: off, Line: line + 1, Err: formatf("%s has negative dimension %d", what, n)}
	}
	if err := r.checkAvailable(int64(n)*elemSize, func() string { return what + " of dimension " + itoa(int(n)) }); err != nil {
		return 0, err
	}
	return int(n), nil
}

type vectorCodec struct{}

func (vectorCodec) Read(r *Reader, binary bool, v *Vector) error {
	if !binary {
		d, err := readTextVector(r, []float32(*v))
		*v = d
		return err
	}
	tok, err := r.readTokenBytes()
	if err != nil {
		return err
	}
	switch string(tok) {
	case "FV":
		n, err := readVectorHeader(r, 4, "float vector")
		if err != nil {
			return err
		}
		d, err := readRaw(r, []float32((*v)[:0]), n)
		*v = d
		return err
	case "DV":
		n, err := readVectorHeader(r, 8, "double vector")
		if err != nil {
			return err
		}
		d, err := readRaw[float64](r, nil, n)
		if err != nil {
			return err
		}
		out := growFloat32([]float32(*v), n)
		for i, x := range d {
			out[i] = float32(x)
		}
		*v = out
		return nil
	}
	return r.unknownToken(string(tok), "FV or DV (a vector)")
}

func (vectorCodec) Write(w *Writer, binary bool, v *Vector) error {
	if binary {
		w.WriteToken(true, "FV")
		w.WriteInt32(true, int32(len(*v)))
		_, err := w.Write(rawBytes([]float32(*v)))
		return err
	}
	return writeTextVector(w, len(*v), func(i int) float64 { return float64((*v)[i]) })
}

type doubleVectorCodec struct{}

func (doubleVectorCodec) Read(r *Reader, binary bool, v *DoubleVector) error {
	if !binary {
		d, err := readTextVector(r, []float64(*v))
		*v = d
		return err
	}
	tok, err := r.readTokenBytes()
	if err != nil {
		return err
	}
	switch string(tok) {
	case "DV":
		n, err := readVectorHeader(r, 8, "double vector")
		if err != nil {
			return err
		}
		d, err := readRaw(r, []float64((*v)[:0]), n)
		*v = d
		return err
	case "FV":
		n, err := readVectorHeader(r, 4, "float vector")
		if err != nil {
			return err
		}
		d, err := readRaw[float32](r, nil, n)
		if err != nil {
			return err
		}
		out := growFloat64([]float64(*v), n)
		for i, x := range d {
			out[i] = float64(x)
		}
		*v = out
		return nil
	}
	return r.unknownToken(string(tok), "DV or FV (a vector)")
}

func (doubleVectorCodec) Write(w *Writer, binary bool, v *DoubleVector) error {
	if binary {
		w.WriteToken(true, "DV")
		w.WriteInt32(true, int32(len(*v)))
		_, err := w.Write(rawBytes([]float64(*v)))
		return err
	}
	return writeTextVector(w, len(*v), func(i int) float64 { return (*v)[i] })
}

// writeTextVector writes Kaldi's text vector " [ 1 2 3 ]\n" (" [ ]\n" when
// empty).
func writeTextVector(w *Writer, n int, at func(int) float64) error {
	buf := append(w.buf[:0], " [ "...)
	for i := 0; i < n; i++ {
		buf = append(AppendFloat(buf, at(i)), ' ')
	}
	buf = append(buf, "]\n"...)
	_, err := w.Write(buf)
	w.buf = buf[:0]
	return err
}

// readTextVector parses "[ 1 2 3 ]" (over any number of lines).
func readTextVector[E float32 | float64](r *Reader, dst []E) ([]E, error) {
	bits := 32
	var z E
	if any(z) == any(float64(0)) {
		bits = 64
	}
	if err := r.SkipSpace(); err != nil {
		return nil, r.eofErr(err, "text vector")
	}
	if c, _ := r.Peek(); c != '[' {
		return nil, r.Errorf("text vector: expected '[', got %q", c)
	}
	r.ReadByte()
	dst = dst[:0]
	for {
		if err := r.SkipSpace(); err != nil {
			return nil, r.eofErr(err, "text vector (no closing ']')")
		}
		if c, _ := r.Peek(); c == ']' {
			r.ReadByte()
			return dst, nil
		}
		off, line := r.off, r.lines
		w, err := r.readWord("[]", "vector value")
		if err != nil {
			return nil, err
		}
		v, ok := parseFloat(w, bits)
		if !ok {
			return nil, &Error{File: r.name, Offset: off, Line: line + 1, Err: formatf("text vector: bad number %q", w)}
		}
		dst = append(dst, E(v))
	}
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

type int32Codec struct{}

func (int32Codec) Read(r *Reader, binary bool, v *int32) error {
	x, err := r.ReadInt32(binary)
	if err != nil {
		return err
	}
	*v = x
	if !binary {
		return endTextLine(r)
	}
	return nil
}

func (int32Codec) Write(w *Writer, binary bool, v *int32) error {
	w.WriteInt32(binary, *v)
	if !binary {
		return w.WriteByte('\n')
	}
	return nil
}

type floatCodec struct{}

func (floatCodec) Read(r *Reader, binary bool, v *float32) error {
	x, err := r.ReadFloat32(binary)
	if err != nil {
		return err
	}
	*v = x
	if !binary {
		return endTextLine(r)
	}
	return nil
}

func (floatCodec) Write(w *Writer, binary bool, v *float32) error {
	w.WriteFloat32(binary, *v)
	if !binary {
		return w.WriteByte('\n')
	}
	return nil
}

type doubleCodec struct{}

func (doubleCodec) Read(r *Reader, binary bool, v *float64) error {
	x, err := r.ReadFloat64(binary)
	if err != nil {
		return err
	}
	*v = x
	if !binary {
		return endTextLine(r)
	}
	return nil
}

func (doubleCodec) Write(w *Writer, binary bool, v *float64) error {
	w.WriteFloat64(binary, *v)
	if !binary {
		return w.WriteByte('\n')
	}
	return nil
}
