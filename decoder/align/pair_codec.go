package align

import (
	"strconv"

	"github.com/strode-asr/strode/kaldiio"
)

// Int32PairVectorCodec is Kaldi's BasicPairVectorHolder<int32> (e.g.
// ali-to-phones --write-lengths): text "a b ; c d \n"; binary an int32
// count then each pair as two int32 with size bytes.
var Int32PairVectorCodec kaldiio.Codec[[][2]int32] = pairCodec{}

type pairCodec struct{}

func (pairCodec) Write(w *kaldiio.Writer, binary bool, v *[][2]int32) error {
	if binary {
		w.WriteInt32(true, int32(len(*v)))
		for _, p := range *v {
			w.WriteInt32(true, p[0])
			w.WriteInt32(true, p[1])
		}
		return nil
	}
	var b []byte
	for i, p := range *v {
		if i > 0 {
			b = append(b, "; "...)
		}
		b = strconv.AppendInt(b, int64(p[0]), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(p[1]), 10)
		b = append(b, ' ')
	}
	b = append(b, '\n')
	_, err := w.Write(b)
	return err
}

func (pairCodec) Read(r *kaldiio.Reader, binary bool, v *[][2]int32) error {
	*v = (*v)[:0]
	if binary {
		n, err := r.ReadInt32(true)
		if err != nil {
			return err
		}
		if n < 0 {
			return r.Errorf("pair vector of size %d", n)
		}
		for i := int32(0); i < n; i++ {
			a, err := r.ReadInt32(true)
			if err != nil {
				return err
			}
			b, err := r.ReadInt32(true)
			if err != nil {
				return err
			}
			*v = append(*v, [2]int32{a, b})
		}
		return nil
	}
	line, _, err := readLineBytes(r)
	if err != nil {
		return err
	}
	var cur []int32
	flush := func() error {
		if len(cur) == 0 {
			return nil
		}
		if len(cur) != 2 {
			return r.Errorf("pair vector element with %d numbers", len(cur))
		}
		*v = append(*v, [2]int32{cur[0], cur[1]})
		cur = cur[:0]
		return nil
	}
	start := 0
	for i := 0; i <= len(line); i++ {
		if i < len(line) && !isSpaceByte(line[i]) {
			continue
		}
		if i > start {
			tok := string(line[start:i])
			if tok == ";" {
				if err := flush(); err != nil {
					return err
				}
			} else {
				x, err := strconv.ParseInt(tok, 10, 32)
				if err != nil {
					return r.Errorf("bad integer %q in pair vector", tok)
				}
				cur = append(cur, int32(x))
			}
		}
		start = i + 1
	}
	return flush()
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// readLineBytes reads to '\n' (not included); done reports end of input.
// (The FST archive codec has the same helper: each holder reads its own
// text line, as Kaldi's do.)
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
