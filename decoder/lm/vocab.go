package lm

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// SRILM's special tokens.
const (
	BOS        = "<s>"   // sentence start: a context, never predicted
	EOS        = "</s>"  // sentence end: an ordinary event
	DefaultUnk = "<unk>" // the unknown word (-map-unk renames it)
)

// Vocab maps words to dense ids, as SRILM's Vocab: the unknown word, <s>
// and </s> come first and are always there. <s> is a non-event (it gets no
// probability of its own); so is the unknown word unless UnkIsWord (SRILM's
// -unk), in which case it is an ordinary word.
type Vocab struct {
	words     []string
	ids       map[string]int32
	bos, eos  int32
	unk       int32
	unkIsWord bool
}

// NewVocab returns a vocabulary holding only the special tokens; unk names
// the unknown word ("" means <unk>).
func NewVocab(unk string, unkIsWord bool) *Vocab {
	if unk == "" {
		unk = DefaultUnk
	}
	v := &Vocab{ids: map[string]int32{}, unkIsWord: unkIsWord}
	v.unk = v.Add(unk)
	v.bos = v.Add(BOS)
	v.eos = v.Add(EOS)
	return v
}

// Add returns the id of w, adding it when new.
func (v *Vocab) Add(w string) int32 {
	if id, ok := v.ids[w]; ok {
		return id
	}
	id := int32(len(v.words))
	v.words = append(v.words, w)
	v.ids[w] = id
	return id
}

// ID returns the id of w and whether it is in the vocabulary.
func (v *Vocab) ID(w string) (int32, bool) {
	id, ok := v.ids[w]
	return id, ok
}

// Index returns the id of w, or the unknown word's when w is not in the
// vocabulary.
func (v *Vocab) Index(w string) int32 {
	if id, ok := v.ids[w]; ok {
		return id
	}
	return v.unk
}

// Word returns the word of id.
func (v *Vocab) Word(id int32) string { return v.words[id] }

// Len is the number of words, special tokens included.
func (v *Vocab) Len() int { return len(v.words) }

// BOS, EOS and Unk are the ids of <s>, </s> and the unknown word.
func (v *Vocab) BOS() int32 { return v.bos }
func (v *Vocab) EOS() int32 { return v.eos }
func (v *Vocab) Unk() int32 { return v.unk }

// UnkIsWord tells whether the unknown word is an ordinary word (-unk).
func (v *Vocab) UnkIsWord() bool { return v.unkIsWord }

// IsNonEvent tells whether id is a pseudo-word that gets no probability:
// <s>, and the unknown word unless it is a word.
func (v *Vocab) IsNonEvent(id int32) bool {
	return id == v.bos || (id == v.unk && !v.unkIsWord)
}

// NumEvents is the number of words that can be predicted (SRILM's
// Ngram::vocabSize): all but the non-events. Interpolation's uniform
// distribution divides by it.
func (v *Vocab) NumEvents() int {
	n := 0
	for id := range v.words {
		if !v.IsNonEvent(int32(id)) {
			n++
		}
	}
	return n
}

// ReadVocab adds the words of a vocabulary file to v, as SRILM's
// Vocab::read: the first field of each non-blank line (so Kaldi's
// words.txt, "word id" per line, reads as its words). name labels errors.
func ReadVocab(r io.Reader, name string, v *Vocab) error {
	br := bufio.NewReaderSize(r, 64*1024)
	for line := 1; ; line++ {
		s, err := br.ReadString('\n')
		if f := strings.Fields(s); len(f) > 0 {
			v.Add(f[0])
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading vocabulary %s:%d: %w", name, line, err)
		}
	}
}
