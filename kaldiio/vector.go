package kaldiio

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

// readBinaryVector reads a binary FV or DV vector, token included, into
// dst's storage, converting when the file's precision is not T's (Kaldi's
// Vector<Real>::Read accepts either). want lists the tokens for the error.
func readBinaryVector[T real](r *Reader, dst []T, want string) ([]T, error) {
	tok, err := r.readTokenBytes()
	if err != nil {
		return nil, err
	}
	switch string(tok) {
	case "FV":
		n, err := readVectorHeader(r, 4, "float vector")
		if err != nil {
			return nil, err
		}
		return readRawAs[float32](r, dst, n)
	case "DV":
		n, err := readVectorHeader(r, 8, "double vector")
		if err != nil {
			return nil, err
		}
		return readRawAs[float64](r, dst, n)
	}
	return nil, r.unknownToken(string(tok), want)
}

type vectorCodec struct{}

func (vectorCodec) Read(r *Reader, binary bool, v *Vector) error {
	if !binary {
		d, err := readTextVector(r, []float32(*v))
		*v = d
		return err
	}
	d, err := readBinaryVector(r, []float32(*v), "FV or DV (a vector)")
	if err != nil {
		return err
	}
	*v = d
	return nil
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
	d, err := readBinaryVector(r, []float64(*v), "DV or FV (a vector)")
	if err != nil {
		return err
	}
	*v = d
	return nil
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
