package tree

import (
	"bytes"
	"slices"
	"testing"

	"github.com/strode-asr/strode/kaldiio"
)

func TestCompileQuestions(t *testing.T) {
	q, err := CompileQuestions([][]int32{{3, 1}, {2}, {1, 3}, {}}, 3, CompileQuestionsOptions{ContextWidth: 3, NumItersRefine: 5, LeftmostQuestionsTruncate: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(q.Keys(), []int32{-1, 0, 1, 2}) {
		t.Fatalf("keys %v", q.Keys())
	}
	// Sorted, deduplicated (the empty set sorts first), truncated at
	// position 0 only.
	want := [][]int32{{}, {1, 3}, {2}}
	if got := q.Get(1).InitialQuestions; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("position 1 questions %v, want %v", got, want)
	}
	if got := q.Get(0).InitialQuestions; len(got) != 2 {
		t.Errorf("position 0 has %d questions, want 2 (truncated)", len(got))
	}
	if got := q.Get(-1).InitialQuestions; !slices.EqualFunc(got, [][]int32{{0}, {0, 1}}, slices.Equal) {
		t.Errorf("pdf-class questions %v", got)
	}
	if r := q.Get(2).Refine; r.NumIters != 5 || r.TopN != 2 {
		t.Errorf("refine options %+v", r)
	}
	if _, err := CompileQuestions([][]int32{{1, 1}}, 3, CompileQuestionsOptions{ContextWidth: 3}); err == nil {
		t.Error("a question with a repeated phone accepted")
	}
}

// The text form is Kaldi's Questions::Write.
func TestQuestionsTextFormat(t *testing.T) {
	q, err := CompileQuestions([][]int32{{1}, {1, 2}}, 2, CompileQuestionsOptions{ContextWidth: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := string(writeBytes(t, QuestionsCodec, false, q))
	want := "<Questions> <Key> -1 <QuestionsForKey> 1 [ 0 ]\n<RefineClustersOptions> 0 2 </RefineClustersOptions> </QuestionsForKey> " +
		"<Key> 0 <QuestionsForKey> 2 [ 1 ]\n[ 1 2 ]\n<RefineClustersOptions> 0 2 </RefineClustersOptions> </QuestionsForKey> </Questions> "
	if got != want {
		t.Errorf("text questions\n got %q\nwant %q", got, want)
	}
	b := writeBytes(t, QuestionsCodec, true, q)
	if !bytes.HasPrefix(b, []byte("\x00B<Questions> <Key> \x04\xff\xff\xff\xff<QuestionsForKey> \x04\x01\x00\x00\x00\x04\x01\x00\x00\x00\x00\x00\x00\x00<RefineClustersOptions> ")) {
		t.Errorf("binary questions start %q", b[:60])
	}
}

func TestQuestionsRoundTripAndErrors(t *testing.T) {
	q := synthQuestions(t)
	for _, binary := range []bool{true, false} {
		b := writeBytes(t, QuestionsCodec, binary, q)
		back, err := readBytes(t, QuestionsCodec, b)
		if err != nil {
			t.Fatalf("binary=%v: %v", binary, err)
		}
		if again := writeBytes(t, QuestionsCodec, binary, back); !bytes.Equal(b, again) {
			t.Errorf("binary=%v: questions do not round-trip", binary)
		}
	}
	bad := map[string]string{
		"unsorted question": "<Questions> <Key> 0 <QuestionsForKey> 1 [ 2 1 ]\n<RefineClustersOptions> 0 2 </RefineClustersOptions> </QuestionsForKey> </Questions> ",
		"negative value":    "<Questions> <Key> 0 <QuestionsForKey> 1 [ -2 ]\n<RefineClustersOptions> 0 2 </RefineClustersOptions> </QuestionsForKey> </Questions> ",
		"top-n 1":           "<Questions> <Key> 0 <QuestionsForKey> 0 <RefineClustersOptions> 3 1 </RefineClustersOptions> </QuestionsForKey> </Questions> ",
		"bad token":         "<Questions> <Kye> 0 ",
		"negative count":    "<Questions> <Key> 0 <QuestionsForKey> -1 ",
		"truncated":         "<Questions> <Key> 0 <QuestionsForKey> 2 [ 1 ]\n",
	}
	for name, text := range bad {
		if _, err := readBytes(t, QuestionsCodec, []byte(text)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// Two groups of phones far apart, each of two near ones: the question sets
// are the two groups and the single phones (the root, all four, is not a
// question: Kaldi's ObtainSetsOfPhones leaves it out).
func TestAutomaticallyObtainQuestions(t *testing.T) {
	means := map[int32]float32{1: 0, 2: 1, 3: 10, 4: 11.5}
	var stats BuildTreeStats
	for c := int32(1); c <= 4; c++ {
		for pc := int32(0); pc < 3; pc++ {
			stats = append(stats, Stat{Event: ev(pc, 1, c, 2), Stats: twoFrames(means[c]+float32(pc), 100)})
		}
	}
	sortStats(stats)
	res, err := AutomaticallyObtainQuestions(stats, [][]int32{{1}, {2}, {3}, {4}}, ClusterPhonesOptions{CentralPosition: 1, PdfClassList: []int32{1}})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int32{{1}, {1, 2}, {2}, {3}, {3, 4}, {4}}
	if !slices.EqualFunc(res.Sets, want, slices.Equal) {
		t.Errorf("questions %v, want %v", res.Sets, want)
	}
	km, err := KMeansClusterPhones(stats, [][]int32{{1}, {2}, {3}, {4}}, 2, ClusterPhonesOptions{CentralPosition: 1, PdfClassList: []int32{1}})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(km.Sets, slices.Compare)
	if !slices.EqualFunc(km.Sets, [][]int32{{1, 2}, {3, 4}}, slices.Equal) {
		t.Errorf("k-means classes %v", km.Sets)
	}
	// A phone set without stats is warned about; sets sharing a phone are
	// an error.
	res, err = AutomaticallyObtainQuestions(stats, [][]int32{{1}, {2}, {3}, {4}, {5}}, ClusterPhonesOptions{CentralPosition: 1, PdfClassList: []int32{1}})
	if err != nil || len(res.Warnings) == 0 {
		t.Errorf("unseen phone set: err %v, warnings %v", err, res.Warnings)
	}
	if _, err := AutomaticallyObtainQuestions(stats, [][]int32{{1, 2}, {2}}, ClusterPhonesOptions{CentralPosition: 1, PdfClassList: []int32{1}}); err == nil {
		t.Error("a phone in two sets accepted")
	}
	if _, err := AutomaticallyObtainQuestions(stats, [][]int32{{1}}, ClusterPhonesOptions{CentralPosition: 1, PdfClassList: []int32{7}}); err == nil {
		t.Error("a pdf-class list matching no stats accepted")
	}
}

func TestWriteIntegerVectorVector(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteIntegerVectorVector("-", [][]int32{{1, 2}, {}, {30}}, kaldiio.WithStdout(&buf)); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "1 2\n\n30\n" {
		t.Errorf("wrote %q", buf.String())
	}
	back, err := parseIntLines(&buf, "x")
	if err != nil || !slices.EqualFunc(back, [][]int32{{1, 2}, {}, {30}}, slices.Equal) {
		t.Errorf("read back %v, %v", back, err)
	}
}
