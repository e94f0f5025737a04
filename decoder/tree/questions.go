package tree

import (
	"fmt"
	"slices"

	"github.com/strode-asr/strode/kaldiio"
)

// QuestionsForKey is Kaldi's QuestionsForKey: the sets of values a split
// on one key may ask about, and how to refine the chosen question at each
// node (NumIters 0: use the questions as they are).
type QuestionsForKey struct {
	InitialQuestions [][]int32
	Refine           RefineClustersOptions
}

// Questions is Kaldi's Questions (a questions.qst file): QuestionsForKey
// per event key.
type Questions struct {
	byKey map[int32]*QuestionsForKey
}

// NewQuestions returns an empty set of questions.
func NewQuestions() *Questions { return &Questions{byKey: map[int32]*QuestionsForKey{}} }

// Set sets the questions of a key (Kaldi's SetQuestionsOf).
func (q *Questions) Set(key int32, qk QuestionsForKey) {
	if q.byKey == nil {
		q.byKey = map[int32]*QuestionsForKey{}
	}
	c := QuestionsForKey{Refine: qk.Refine, InitialQuestions: make([][]int32, len(qk.InitialQuestions))}
	for i, s := range qk.InitialQuestions {
		c.InitialQuestions[i] = slices.Clone(s)
	}
	q.byKey[key] = &c
}

// Get returns the questions of key, nil if it has none.
func (q *Questions) Get(key int32) *QuestionsForKey { return q.byKey[key] }

// Keys returns the keys that have questions, sorted (Kaldi's
// GetKeysWithQuestions).
func (q *Questions) Keys() []int32 {
	keys := make([]int32, 0, len(q.byKey))
	for k := range q.byKey {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// check validates one key's questions as Kaldi's code assumes them: each
// question sorted, values non-negative, and TopN ≥ 2 when refining.
func (qk *QuestionsForKey) check(key int32) error {
	for i, s := range qk.InitialQuestions {
		if !slices.IsSorted(s) {
			return fmt.Errorf("question %d of key %d is not sorted: %v", i, key, s)
		}
		if len(s) > 0 && s[0] < 0 {
			return fmt.Errorf("question %d of key %d has negative value %d", i, key, s[0])
		}
	}
	if qk.Refine.NumIters > 0 && qk.Refine.TopN < 2 {
		return fmt.Errorf("key %d: refining questions needs top-n >= 2, got %d", key, qk.Refine.TopN)
	}
	return nil
}

// QuestionsCodec reads and writes Kaldi's Questions ("<Questions>", then
// "<Key> k <QuestionsForKey> n [ ... ] ... <RefineClustersOptions> iters
// top-n </RefineClustersOptions> </QuestionsForKey>" per key in increasing
// key order, "</Questions>"), binary or text.
var QuestionsCodec kaldiio.Codec[Questions] = questionsCodec{}

// maxQuestions bounds the questions one key may declare.
const maxQuestions = 1 << 20

type questionsCodec struct{}

func (questionsCodec) Read(r *kaldiio.Reader, binary bool, q *Questions) error {
	if err := r.ExpectToken(binary, "<Questions>"); err != nil {
		return err
	}
	*q = Questions{byKey: map[int32]*QuestionsForKey{}}
	for {
		tok, err := r.ReadToken(binary)
		if err != nil {
			return err
		}
		if tok == "</Questions>" {
			return nil
		}
		if tok != "<Key>" {
			return r.Errorf("questions: expected <Key> or </Questions>, got %q", tok)
		}
		key, err := r.ReadInt32(binary)
		if err != nil {
			return err
		}
		if err := r.ExpectToken(binary, "<QuestionsForKey>"); err != nil {
			return err
		}
		n, err := r.ReadInt32(binary)
		if err != nil {
			return err
		}
		if n < 0 || n > maxQuestions {
			return r.Errorf("questions for key %d: count %d", key, n)
		}
		qk := &QuestionsForKey{InitialQuestions: make([][]int32, 0, min(n, 1<<12))}
		for i := int32(0); i < n; i++ {
			s, err := r.ReadIntVector(binary, nil)
			if err != nil {
				return err
			}
			qk.InitialQuestions = append(qk.InitialQuestions, s)
		}
		if err := r.ExpectToken(binary, "<RefineClustersOptions>"); err != nil {
			return err
		}
		if qk.Refine.NumIters, err = r.ReadInt32(binary); err != nil {
			return err
		}
		if qk.Refine.TopN, err = r.ReadInt32(binary); err != nil {
			return err
		}
		if err := r.ExpectToken(binary, "</RefineClustersOptions>"); err != nil {
			return err
		}
		if err := r.ExpectToken(binary, "</QuestionsForKey>"); err != nil {
			return err
		}
		if err := qk.check(key); err != nil {
			return r.Errorf("%v", err)
		}
		q.byKey[key] = qk
	}
}

func (questionsCodec) Write(w *kaldiio.Writer, binary bool, q *Questions) error {
	w.WriteToken(binary, "<Questions>")
	for _, key := range q.Keys() {
		qk := q.byKey[key]
		w.WriteToken(binary, "<Key>")
		w.WriteInt32(binary, key)
		w.WriteToken(binary, "<QuestionsForKey>")
		w.WriteInt32(binary, int32(len(qk.InitialQuestions)))
		for _, s := range qk.InitialQuestions {
			w.WriteIntVector(binary, s)
		}
		w.WriteToken(binary, "<RefineClustersOptions>")
		w.WriteInt32(binary, qk.Refine.NumIters)
		w.WriteInt32(binary, qk.Refine.TopN)
		w.WriteToken(binary, "</RefineClustersOptions>")
		w.WriteToken(binary, "</QuestionsForKey>")
	}
	return w.WriteToken(binary, "</Questions>")
}

// ReadQuestions reads a questions file (questions.qst), binary or text.
func ReadQuestions(rx string, opts ...kaldiio.Option) (*Questions, error) {
	q := &Questions{}
	if err := kaldiio.ReadObject(rx, QuestionsCodec, q, opts...); err != nil {
		return nil, err
	}
	return q, nil
}

// CompileQuestionsOptions are compile-questions' options.
type CompileQuestionsOptions struct {
	ContextWidth              int // N
	CentralPosition           int // P: not used (questions ask about every position), taken as Kaldi does
	NumItersRefine            int32
	LeftmostQuestionsTruncate int // > 0: position 0 gets only the first this many
}

// CompileQuestions is compile-questions: the phone sets (each sorted, the
// list sorted and deduplicated) become the questions of every context
// position 0..N−1, and the pdf-class key gets {0}, {0,1}, ... up to the
// largest number of pdf-classes of any phone minus one. maxPdfClasses is
// that largest number. Refinement uses NumItersRefine iterations, top 2.
func CompileQuestions(phoneSets [][]int32, maxPdfClasses int, opts CompileQuestionsOptions) (*Questions, error) {
	qs := make([][]int32, len(phoneSets))
	for i, s := range phoneSets {
		s = slices.Clone(s)
		slices.Sort(s)
		if len(slices.Compact(slices.Clone(s))) != len(s) {
			return nil, fmt.Errorf("question %d contains duplicate phones: %v", i+1, s)
		}
		if len(s) > 0 && s[0] < 0 {
			return nil, fmt.Errorf("question %d contains negative phone %d", i+1, s[0])
		}
		qs[i] = s
	}
	slices.SortFunc(qs, slices.Compare)
	qs = slices.CompactFunc(qs, slices.Equal)
	q := NewQuestions()
	refine := RefineClustersOptions{NumIters: opts.NumItersRefine, TopN: 2}
	for n := 0; n < opts.ContextWidth; n++ {
		these := qs
		if n == 0 && opts.LeftmostQuestionsTruncate > 0 && opts.LeftmostQuestionsTruncate < len(qs) {
			these = qs[:opts.LeftmostQuestionsTruncate]
		}
		q.Set(int32(n), QuestionsForKey{InitialQuestions: these, Refine: refine})
	}
	var pc [][]int32
	for i := 0; i < maxPdfClasses-1; i++ {
		s := make([]int32, i+1)
		for j := range s {
			s[j] = int32(j)
		}
		pc = append(pc, s)
	}
	q.Set(-1, QuestionsForKey{InitialQuestions: pc, Refine: refine})
	return q, nil
}
