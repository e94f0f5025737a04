package tree

import (
	"bytes"
	"math"
	"testing"

	"github.com/strode-asr/strode/kaldiio"
)

func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func writeBytes[T any](t testing.TB, c kaldiio.Codec[T], binary bool, v *T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := kaldiio.NewWriter(&buf)
	if binary {
		w.WriteBinaryHeader()
	}
	if err := c.Write(w, binary, v); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readBytes[T any](t testing.TB, c kaldiio.Codec[T], b []byte) (*T, error) {
	t.Helper()
	r := kaldiio.NewReader(bytes.NewReader(b), "test")
	binary, err := r.ReadBinaryHeader()
	if err != nil {
		return nil, err
	}
	v := new(T)
	if err := c.Read(r, binary, v); err != nil {
		return nil, err
	}
	return v, nil
}
