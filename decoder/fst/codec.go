package fst

import (
	"bytes"
	"fmt"
	"io"

	"github.com/strode-asr/strode/kaldiio"
)

// Codec is Kaldi's VectorFstHolder for FST archives (ark:*.fsts): binary
// entries are OpenFst VectorFst (or ConstFst) bytes with no "\0B" marker;
// text entries are a newline, the AT&T text form (6-digit weights, as
// Kaldi's FstPrinter) and an empty line. Reading tells the two apart by the
// first byte, as Kaldi does.
var Codec kaldiio.Codec[VectorFst] = fstCodec{}

type fstCodec struct{}

// RawObject marks FSTs as having no "\0B" marker.
func (fstCodec) RawObject() {}

func (fstCodec) Read(r *kaldiio.Reader, _ bool, f *VectorFst) error {
	c, err := r.Peek()
	if err != nil {
		return r.Errorf("reading FST: %v", err)
	}
	if !isSpaceByte(c) {
		fr := NewReader(r, r.Name())
		fr.SetBaseOffset(r.Offset())
		g, err := fr.Read()
		if err != nil {
			return err
		}
		*f = *g
		return nil
	}
	// Text: spaces up to and including one newline, then lines to an empty line.
	for {
		c, err := r.ReadByte()
		if err != nil {
			return r.Errorf("reading text FST: %v", err)
		}
		if c == '\n' {
			break
		}
		if !isSpaceByte(c) {
			return r.Errorf("reading text FST: unexpected %q before the first line", c)
		}
	}
	var text bytes.Buffer
	startLine := r.Line()
	for {
		line, done, err := readLineBytes(r)
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			break
		}
		text.Write(line)
		text.WriteByte('\n')
		if done {
			break
		}
	}
	tr := NewTextReader(&text, fmt.Sprintf("%s (text FST from line %d)", r.Name(), startLine), TextOptions{})
	g, err := tr.ReadAll()
	if err != nil {
		return err
	}
	*f = *g
	return nil
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// readLineBytes reads to '\n' (not included); done reports end of input.
func readLineBytes(r *kaldiio.Reader) (line []byte, done bool, err error) {
	for {
		c, err := r.ReadByte()
		if err != nil {
			if r.AtEOF() {
				return line, true, nil
			}
			return nil, false, err
		}
		if c == '\n' {
			return line, false, nil
		}
		if c != '\r' {
			line = append(line, c)
		}
	}
}

func (fstCodec) Write(w *kaldiio.Writer, binary bool, f *VectorFst) error {
	if binary {
		return WriteVectorFst(w, f)
	}
	if err := w.WriteByte('\n'); err != nil {
		return err
	}
	if err := WriteText(w, f, TextOptions{Precision: 6}); err != nil {
		return err
	}
	return w.WriteByte('\n')
}

// ReadRx reads one binary FST (VectorFst or ConstFst) from a Kaldi
// rxfilename: a file, "-" or a "cmd |" pipe, as Kaldi's ReadFstKaldi.
func ReadRx(rx string, opts ...kaldiio.Option) (*VectorFst, error) {
	in, err := kaldiio.OpenInput(rx, opts...)
	if err != nil {
		return nil, err
	}
	f, err := NewReader(in.Reader(), rx).Read()
	if err == io.EOF {
		err = fmt.Errorf("reading FST %s: empty input: %w", rx, ErrNotFst)
	}
	if cerr := in.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}
