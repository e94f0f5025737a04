package hmm

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/kaldiio"
)

func writeObj[T any](t *testing.T, c kaldiio.Codec[T], binary bool, v *T) []byte {
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

func readObj[T any](t *testing.T, c kaldiio.Codec[T], path string) *T {
	t.Helper()
	v := new(T)
	if err := kaldiio.ReadObject(path, c, v); err != nil {
		t.Fatal(err)
	}
	return v
}

// Transition model round trips are byte-identical with Kaldi's files, binary
// and text. (Text to binary is not compared: the text holds
// log-probabilities to 7 digits, not the exact floats.)
func TestHmmObjectsRoundTripByteIdentical(t *testing.T) {
	for _, src := range []string{"testdata/mono.tm", "testdata/mono.tm.txt"} {
		tm := readObj(t, TransitionModelCodec, src)
		for _, want := range []string{"testdata/mono.tm", "testdata/mono.tm.txt"} {
			if strings.HasSuffix(src, ".txt") && !strings.HasSuffix(want, ".txt") {
				continue
			}
			exp, _ := os.ReadFile(want)
			if got := writeObj(t, TransitionModelCodec, !strings.HasSuffix(want, ".txt"), tm); !bytes.Equal(got, exp) {
				t.Errorf("transition model read from %s, written like %s: differs", src, want)
			}
		}
	}
}

func TestTransitionModelMappings(t *testing.T) {
	tm := readObj(t, TransitionModelCodec, "testdata/mono.tm")
	if tm.NumPdfs() != 62 || tm.NumTransitionIDs() != 132 || tm.NumTransitionStates() != 62 || tm.NumPhones() != 20 {
		t.Fatalf("pdfs %d tids %d tstates %d phones %d", tm.NumPdfs(), tm.NumTransitionIDs(), tm.NumTransitionStates(), tm.NumPhones())
	}
	// From show-transitions: tid 1 is SIL state 0's self-loop, tid 4 its 0->3.
	if tm.TransitionIDToPhone(4) != 1 || tm.TransitionIDToHmmState(4) != 0 || tm.TransitionIDToPdf(4) != 0 || !tm.IsSelfLoop(1) || tm.IsSelfLoop(4) {
		t.Error("tid 1/4 mapping")
	}
	for tid := int32(1); tid <= 132; tid++ {
		ts := tm.TransitionIDToTransitionState(tid)
		if tm.PairToTransitionID(ts, tm.TransitionIDToTransitionIndex(tid)) != tid {
			t.Fatalf("tid %d does not round-trip through (state, index)", tid)
		}
	}
	var buf bytes.Buffer
	phones := mustSymbols(t, "testdata/phones.txt")
	if err := tm.Print(&buf, phones, nil); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile("testdata/show-transitions.txt")
	if buf.String() != string(want) {
		t.Error("show-transitions output differs from Kaldi's")
	}
	buf.Reset()
	tm.PrintInfo(&buf)
	want, _ = os.ReadFile("testdata/hmm-info.txt")
	if buf.String() != string(want) {
		t.Errorf("hmm-info: got\n%s\nwant\n%s", buf.String(), want)
	}
}

// The topology file of the lang directory reads as the one in the model.
func TestTopologyText(t *testing.T) {
	topo := readObj(t, TopologyCodec, "testdata/topo")
	tm := readObj(t, TransitionModelCodec, "testdata/mono.tm")
	a := writeObj(t, TopologyCodec, true, topo)
	b := writeObj(t, TopologyCodec, true, &tm.Topo)
	if !bytes.Equal(a, b) {
		t.Error("lang/topo differs from final.mdl's topology")
	}
}

// final.mdl (transition model followed by the GMMs) reads as Kaldi's tools
// read it.
func TestReadFinalMdl(t *testing.T) {
	dir := sharedDir(t, "kaldi-mini")
	for _, f := range []string{"exp/mono/final.mdl", "exp/mono/final.mdl.txt"} {
		tm, err := ReadTransitionModel(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if tm.NumPdfs() != 62 || tm.NumTransitionIDs() != 132 {
			t.Errorf("%s: %d pdfs, %d tids", f, tm.NumPdfs(), tm.NumTransitionIDs())
		}
	}
}

func TestHmmObjectErrors(t *testing.T) {
	good, _ := os.ReadFile("testdata/mono.tm")
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"truncated", good[:len(good)/2]},
		{"wrong token", bytes.Replace(good, []byte("<LogProbs>"), []byte("<LogProbX>"), 1)},
		{"empty", nil},
	} {
		p := filepath.Join(dir, "m")
		os.WriteFile(p, tc.data, 0o644)
		_, err := ReadTransitionModel(p)
		if err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %v (want an error naming %s)", tc.name, err, p)
		}
	}
	// A log-prob vector of the wrong length is caught by the consistency check.
	bad := bytes.Replace(good, []byte("FV \x04\x85\x00\x00\x00"), []byte("FV \x04\x84\x00\x00\x00"), 1)
	p := filepath.Join(dir, "short")
	os.WriteFile(p, bad, 0o644)
	if _, err := ReadTransitionModel(p); err == nil {
		t.Error("log-probs of the wrong length accepted")
	}
}

func FuzzTransitionModel(f *testing.F) {
	for _, p := range []string{"testdata/mono.tm", "testdata/mono.tm.txt"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := kaldiio.NewReader(bytes.NewReader(data), "fuzz")
		binary, err := r.ReadBinaryHeader()
		if err != nil {
			return
		}
		var tm TransitionModel
		if TransitionModelCodec.Read(r, binary, &tm) == nil {
			var buf bytes.Buffer
			w := kaldiio.NewWriter(&buf)
			if err := TransitionModelCodec.Write(w, binary, &tm); err != nil {
				t.Fatal(err)
			}
			for tid := int32(1); int(tid) <= tm.NumTransitionIDs(); tid++ {
				tm.TransitionIDToPdf(tid)
				tm.IsFinal(tid)
			}
		}
	})
}
