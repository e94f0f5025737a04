package lm

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
)

// A trigram with back-offs at every level: "<s> a" and "a b" are contexts
// with weights, "a a" and "b </s>" are leaves, the 3-grams hang off "<s> a".
const carpaARPA = `
\data\
ngram 1=5
ngram 2=4
ngram 3=2

\1-grams:
-1.0	<unk>
-99	<s>	-0.5
-0.6	</s>
-0.4	a	-0.3
-0.7	b	-0.2

\2-grams:
-0.3	<s> a	-0.1
-0.5	a b	-0.25
-0.4	b </s>
-0.2	a a

\3-grams:
-0.1	<s> a b
-0.15	<s> a a

\end\
`

var carpaWords = map[string]string{"<eps>": "0", "<s>": "1", "</s>": "2", "a": "3", "b": "4", "<unk>": "5"}

func carpaBuild(t *testing.T, arpa string, opt ConstArpaOptions) *ConstArpa {
	t.Helper()
	var ints bytes.Buffer
	if _, err := MapARPA(strings.NewReader(arpa), &ints, "test.arpa", carpaWords, nil); err != nil {
		t.Fatal(err)
	}
	c, err := BuildConstArpa(&ints, "test.int.arpa", opt)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func carpaOpts() ConstArpaOptions {
	o := DefaultConstArpaOptions()
	o.Bos, o.Eos, o.Unk = 1, 2, 5
	return o
}

// ln10f is Kaldi's conversion: the float read, times M_LN10 in double,
// stored as float.
func ln10f(x float64) float32 { return float32(float64(float32(x)) * math.Ln10) }

func bitsOf(x float32) int32     { return int32(math.Float32bits(x)) }
func leafBitsOf(x float32) int32 { return bitsOf(x) &^ 1 }

// The record array, unigram and overflow tables laid out by hand from
// ConstArpaLmBuilder::ReadComplete: records sorted by word sequence, each
// logprob, backoff, #children, (word, info) sorted by word; a leaf child's
// info is its logprob's bits with the low bit cleared, a record child's is
// 2·offset+1.
func TestConstArpaLayoutByHand(t *testing.T) {
	c := carpaBuild(t, carpaARPA, carpaOpts())
	want := []int32{
		// 0: <s> — child a (3) is the record "<s> a" at 5: offset 5
		bitsOf(ln10f(-99)), bitsOf(ln10f(-0.5)), 1, 3, 5*2 + 1,
		// 5: <s> a — its children are 3-grams: leaves a (-0.15), b (-0.1)
		bitsOf(ln10f(-0.3)), bitsOf(ln10f(-0.1)), 2, 3, leafBitsOf(ln10f(-0.15)), 4, leafBitsOf(ln10f(-0.1)),
		// 12: </s>
		bitsOf(ln10f(-0.6)), 0, 0,
		// 15: a — a a is a leaf bigram (no weight, no children); a b at 22
		bitsOf(ln10f(-0.4)), bitsOf(ln10f(-0.3)), 2, 3, leafBitsOf(ln10f(-0.2)), 4, (22-15)*2 + 1,
		// 22: a b — a record for its back-off weight alone
		bitsOf(ln10f(-0.5)), bitsOf(ln10f(-0.25)), 0,
		// 25: b — b </s> a leaf
		bitsOf(ln10f(-0.7)), bitsOf(ln10f(-0.2)), 1, 2, leafBitsOf(ln10f(-0.4)),
		// 30: <unk>
		bitsOf(ln10f(-1.0)), 0, 0,
	}
	if len(c.states) != len(want) {
		t.Fatalf("records: %d int32s, want %d: %v", len(c.states), len(want), c.states)
	}
	for i := range want {
		if c.states[i] != want[i] {
			t.Errorf("records[%d] = %#x, want %#x", i, c.states[i], want[i])
		}
	}
	if c.NumWords != 6 || c.Order != 3 {
		t.Errorf("NumWords %d Order %d, want 6 3", c.NumWords, c.Order)
	}
	wantUni := []int64{-1, 0, 12, 15, 25, 30}
	for i, a := range wantUni {
		if c.unigram[i] != a {
			t.Errorf("unigram[%d] = %d, want %d", i, c.unigram[i], a)
		}
	}

	// The file, byte by byte as ConstArpaLm::Write after WriteKaldiObject's
	// binary marker: WriteToken is the token and a space; WriteBasicType a
	// size byte and the little-endian value; the arrays raw; table entries
	// are positions + 1, 0 for none.
	var f []byte
	tok := func(s string) { f = append(append(f, s...), ' ') }
	i32 := func(v int32) { f = binary.LittleEndian.AppendUint32(append(f, 4), uint32(v)) }
	f = append(f, 0, 'B')
	tok("<ConstArpaLm>")
	tok("<LmInfo>")
	i32(1)
	i32(2)
	i32(5)
	i32(3)
	tok("</LmInfo>")
	tok("<LmStates>")
	f = binary.LittleEndian.AppendUint64(append(f, 8), uint64(len(want)))
	for _, v := range want {
		f = binary.LittleEndian.AppendUint32(f, uint32(v))
	}
	tok("</LmStates>")
	tok("<LmUnigram>")
	i32(6)
	for _, a := range wantUni {
		f = binary.LittleEndian.AppendUint64(f, uint64(a+1))
	}
	tok("</LmUnigram>")
	tok("<LmOverflow>")
	i32(0)
	tok("</LmOverflow>")
	tok("</ConstArpaLm>")
	var got bytes.Buffer
	if err := c.WriteBinary(&got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), f) {
		t.Errorf("file differs from the hand-made layout:\n got %q\nwant %q", got.Bytes(), f)
	}
	back, err := ReadConstArpa(bytes.NewReader(got.Bytes()), "G.carpa")
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	back.WriteBinary(&again)
	if !bytes.Equal(again.Bytes(), f) {
		t.Error("read then written differs")
	}
}

// Every (word, history) over the vocabulary up to order 3: ConstArpa's
// lookup equals the ARPA model's own back-off scoring (decoder/lm's
// WordProb, log10 → ln), up to the low mantissa bit Kaldi drops from leaf
// n-grams and float32 sums.
func TestConstArpaMatchesARPAModel(t *testing.T) {
	m, err := ReadARPA(strings.NewReader(carpaARPA), "test.arpa", ReadOptions{UnkIsWord: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, maxOffset := range []int64{0, 2} { // 2: most children go through the overflow table
		opt := carpaOpts()
		opt.maxOffset = maxOffset
		c := carpaBuild(t, carpaARPA, opt)
		if maxOffset == 2 && len(c.overflow) == 0 {
			t.Fatal("no overflow entries with a 2-word offset limit")
		}
		// Through the file, so that the reader's tables are what is used.
		var buf bytes.Buffer
		c.WriteBinary(&buf)
		if c, err = ReadConstArpa(&buf, "G.carpa"); err != nil {
			t.Fatal(err)
		}
		words := []string{"<s>", "</s>", "a", "b", "<unk>"}
		id := func(w string) int32 {
			var v int32
			for _, ch := range carpaWords[w] {
				v = v*10 + int32(ch-'0')
			}
			return v
		}
		var hists [][]string
		hists = append(hists, nil)
		for _, x := range words {
			hists = append(hists, []string{x})
			for _, y := range words {
				hists = append(hists, []string{x, y})
			}
		}
		for _, h := range hists {
			hid := make([]int32, len(h))
			for i, w := range h {
				hid[i] = id(w)
			}
			for _, w := range words {
				want := m.Prob(w, h...) * math.Ln10
				got := c.NgramLogprob(id(w), hid)
				if math.Abs(float64(got)-want) > 1e-5*math.Max(1, math.Abs(want)) {
					t.Errorf("offset limit %d: ln p(%s | %v) = %g, ARPA model %g", maxOffset, w, h, got, want)
				}
			}
		}
		// A word-id outside the model is the unknown word.
		if got, want := c.NgramLogprob(77, []int32{3}), c.NgramLogprob(5, []int32{3}); got != want {
			t.Errorf("OOV id: %g, <unk> %g", got, want)
		}
	}
}

// The deterministic FST's states are the histories the model has, its
// arcs the costs by hand.
func TestConstArpaFst(t *testing.T) {
	c := carpaBuild(t, carpaARPA, carpaOpts())
	f := NewConstArpaFst(c)
	// <s> a: explicit bigram; state "<s> a" (it has children).
	s1, cost, ok := f.GetArc(f.Start(), 3)
	if !ok || cost != -ln10f(-0.3) {
		t.Fatalf("<s> a: %v %g", ok, cost)
	}
	// then b: the explicit trigram (a leaf: low bit cleared); state "a b"
	// has no children, so the history is trimmed to "b".
	s2, cost, ok := f.GetArc(s1, 4)
	if !ok || cost != -math.Float32frombits(uint32(leafBitsOf(ln10f(-0.1)))) {
		t.Fatalf("<s> a b: %v %g", ok, cost)
	}
	if got := f.states[s2]; len(got) != 1 || got[0] != 4 {
		t.Errorf("state after <s> a b is %v, want [4]", got)
	}
	// final after b: "b </s>" explicit (leaf).
	if got, want := f.Final(s2), -math.Float32frombits(uint32(leafBitsOf(ln10f(-0.4)))); got != want {
		t.Errorf("final after b: %g, want %g", got, want)
	}
	// b a: no bigram; back off through b's weight to a's unigram.
	_, cost, _ = f.GetArc(s2, 3)
	if want := -(ln10f(-0.2) + ln10f(-0.4)); cost != want {
		t.Errorf("b a: %g, want %g", cost, want)
	}
	// Without an unknown word, an id with no unigram has no probability:
	// Kaldi's FLT_MIN. After a history with a back-off weight, Kaldi adds
	// the weight to that marker, so the arc exists with the weight as its
	// cost; we keep that.
	opt := carpaOpts()
	opt.Unk = -1
	c2 := carpaBuild(t, carpaARPA, opt)
	if got := c2.NgramLogprob(9, nil); got != constArpaNoProb {
		t.Errorf("unigram of an unknown id: %g", got)
	}
	if _, cost, ok := NewConstArpaFst(c2).GetArc(0, 9); !ok || cost != -(ln10f(-0.5)+constArpaNoProb) {
		t.Errorf("unknown id after <s>: %v %g, want Kaldi's back-off-only arc", ok, cost)
	}
	o1 := carpaOpts()
	o1.Unk = -1
	uni := carpaBuild(t, "\\data\\\nngram 1=3\n\\1-grams:\n-1 <s>\n-1 </s>\n-1 a\n\\end\\\n", o1)
	if _, _, ok := NewConstArpaFst(uni).GetArc(0, 9); ok {
		t.Error("a unigram model has an arc for an id without probability")
	}
}

// The old on-disk form (no tokens, a 32-bit record count, every value with
// its size byte) reads as the same model.
func TestConstArpaOldFormat(t *testing.T) {
	c := carpaBuild(t, carpaARPA, carpaOpts())
	var f []byte
	i32 := func(v int32) { f = binary.LittleEndian.AppendUint32(append(f, 4), uint32(v)) }
	i64 := func(v int64) { f = binary.LittleEndian.AppendUint64(append(f, 8), uint64(v)) }
	f = append(f, 0, 'B')
	i32(c.Bos)
	i32(c.Eos)
	i32(c.Unk)
	i32(c.Order)
	i32(int32(len(c.states)))
	for _, v := range c.states {
		i32(v)
	}
	i32(c.NumWords)
	for _, a := range c.unigram {
		i64(a + 1)
	}
	i32(0)
	old, err := ReadConstArpa(bytes.NewReader(f), "old.carpa")
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	c.WriteBinary(&a)
	old.WriteBinary(&b)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("old format reads as a different model")
	}
}

func TestConstArpaBadInput(t *testing.T) {
	for _, tc := range []struct{ name, arpa, want string }{
		{"no data", "hello\n", `\data\ section missing`},
		{"no parent", "\\data\\\nngram 1=1\nngram 2=1\n\\1-grams:\n-1 1\n\\2-grams:\n-1 3 1\n\\end\\\n", "line 7 [-1 3 1]: 2-gram [3 1] does not have a parent"},
		{"backoff at top", "\\data\\\nngram 1=2\n\\1-grams:\n-1 1 -0.5\n-1 2\n\\end\\\n", "line 4 [-1 1 -0.5]: Invalid n-gram data line"},
		{"epsilon", "\\data\\\nngram 1=2\n\\1-grams:\n-1 0\n\\end\\\n", "epsilon symbol '0'"},
		{"word", "\\data\\\nngram 1=2\n\\1-grams:\n-1 a\n\\end\\\n", "invalid symbol 'a'"},
		{"too many", "\\data\\\nngram 1=1\n\\1-grams:\n-1 1\n-1 2\n\\end\\\n", "header said there would be 1"},
		{"no end", "\\data\\\nngram 1=2\n\\1-grams:\n-1 1\n-1 2\n", `expecting \end\`},
		{"no eos unigram", "\\data\\\nngram 1=1\n\\1-grams:\n-1 1\n\\end\\\n", "EOS symbol 2 is not below"},
		{"duplicate", "\\data\\\nngram 1=3\n\\1-grams:\n-1 1\n-1 2\n-1 2\n\\end\\\n", "line 6 [-1 2]: duplicate 1-gram"},
		{"bad logprob", "\\data\\\nngram 1=2\n\\1-grams:\nx 1\n\\end\\\n", "invalid n-gram logprob 'x'"},
	} {
		opt := DefaultConstArpaOptions()
		opt.Bos, opt.Eos = 1, 2
		_, err := BuildConstArpa(strings.NewReader(tc.arpa), "lm.int", opt)
		if err == nil || !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "lm.int") {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := BuildConstArpa(strings.NewReader(carpaARPA), "x", DefaultConstArpaOptions()); err == nil || !strings.Contains(err.Error(), "BOS and EOS symbols are required") {
		t.Errorf("no --bos-symbol: %v", err)
	}
	// Corrupt files: every truncation and a pointer out of range fail with
	// an error naming the file, never a panic.
	var buf bytes.Buffer
	carpaBuild(t, carpaARPA, carpaOpts()).WriteBinary(&buf)
	good := buf.Bytes()
	for n := 0; n < len(good); n++ {
		if _, err := ReadConstArpa(bytes.NewReader(good[:n]), "G.carpa"); err == nil || !strings.Contains(err.Error(), "G.carpa") {
			t.Fatalf("truncated at %d: %v", n, err)
		}
	}
	bad := bytes.Clone(good)
	// The first record's child info (<s> → <s> a) at int32 index 4 of the
	// array, which starts after the header: point it past the end.
	hdr := len("\x00B<ConstArpaLm> <LmInfo> ") + 4*5 + len("</LmInfo> <LmStates> ") + 9
	binary.LittleEndian.PutUint32(bad[hdr+4*4:], uint32(1000*2+1))
	if _, err := ReadConstArpa(bytes.NewReader(bad), "G.carpa"); err == nil || !strings.Contains(err.Error(), "outside the records") {
		t.Errorf("bad child pointer: %v", err)
	}
}

func FuzzReadConstArpa(f *testing.F) {
	var buf bytes.Buffer
	c, _ := BuildConstArpa(strings.NewReader("\\data\\\nngram 1=3\nngram 2=1\n\\1-grams:\n-1 1 -0.5\n-1 2\n-1 3\n\\2-grams:\n-0.5 1 3\n\\end\\\n"), "x",
		ConstArpaOptions{Bos: 1, Eos: 2, Unk: 3})
	c.WriteBinary(&buf)
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ReadConstArpa(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		fst := NewConstArpaFst(c)
		for w := int32(0); w < c.NumWords+1; w++ {
			if next, _, ok := fst.GetArc(0, w); ok {
				fst.Final(next)
			}
		}
	})
}
