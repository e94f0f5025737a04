package align

import (
	"bytes"
	"slices"
	"testing"

	"github.com/strode-asr/strode/kaldiio"
)

// The pair-vector holder writes Kaldi's forms ("a b ; c d \n" in text) and
// reads back what it wrote, in both modes.
func TestInt32PairVectorCodec(t *testing.T) {
	for _, tc := range []struct {
		pairs [][2]int32
		text  string
	}{
		{[][2]int32{{1, 5}, {3, 12}}, "1 5 ; 3 12 \n"},
		{[][2]int32{{-1, 0}}, "-1 0 \n"},
		{nil, "\n"},
	} {
		for _, binary := range []bool{false, true} {
			var buf bytes.Buffer
			w := kaldiio.NewWriter(&buf)
			if err := Int32PairVectorCodec.Write(w, binary, &tc.pairs); err != nil {
				t.Fatal(err)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if !binary && buf.String() != tc.text {
				t.Errorf("%v: text %q, want %q", tc.pairs, buf.String(), tc.text)
			}
			var back [][2]int32
			if err := Int32PairVectorCodec.Read(kaldiio.NewReader(&buf, "pairs"), binary, &back); err != nil {
				t.Fatalf("%v binary=%v: %v", tc.pairs, binary, err)
			}
			if !slices.Equal(back, tc.pairs) {
				t.Errorf("binary=%v: read back %v, want %v", binary, back, tc.pairs)
			}
		}
	}
	var v [][2]int32
	for _, bad := range []string{"1 2 3 \n", "1 x \n", "1 ; 2 \n"} {
		if err := Int32PairVectorCodec.Read(kaldiio.NewReader(bytes.NewReader([]byte(bad)), "pairs"), false, &v); err == nil {
			t.Errorf("%q accepted as %v", bad, v)
		}
	}
}

func FuzzInt32PairVectorCodec(f *testing.F) {
	f.Add([]byte("1 5 ; 3 12 \n"), false)
	f.Add([]byte("\x04\x01\x00\x00\x00\x04\x01\x00\x00\x00\x04\x05\x00\x00\x00"), true)
	f.Fuzz(func(t *testing.T, data []byte, binary bool) {
		var v [][2]int32
		if Int32PairVectorCodec.Read(kaldiio.NewReader(bytes.NewReader(data), "fuzz"), binary, &v) != nil {
			return
		}
		var buf bytes.Buffer
		w := kaldiio.NewWriter(&buf)
		if err := Int32PairVectorCodec.Write(w, binary, &v); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		var back [][2]int32
		if err := Int32PairVectorCodec.Read(kaldiio.NewReader(&buf, "fuzz"), binary, &back); err != nil || !slices.Equal(back, v) {
			t.Fatalf("%v does not round-trip: %v, %v", v, back, err)
		}
	})
}
