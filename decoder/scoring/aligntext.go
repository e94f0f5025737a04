package scoring

import (
	"errors"
	"fmt"
	"io"
	"unicode"
)

// ErrSpecialSymbol marks a sentence containing align-text's special symbol or
// separator, which would make the alignment ambiguous.
var ErrSpecialSymbol = errors.New("sentence contains the special symbol or separator")

// AlignTextOptions are align-text's options with Kaldi's names and defaults.
type AlignTextOptions struct {
	SpecialSymbol string // --special-symbol: stands for the missing word of an insertion or deletion
	Separator     string // --separator: between aligned pairs
}

// DefaultAlignTextOptions are Kaldi's defaults ("<eps>" and ";"; Kaldi's
// score_kaldi.sh passes --special-symbol="***").
func DefaultAlignTextOptions() AlignTextOptions {
	return AlignTextOptions{SpecialSymbol: "<eps>", Separator: ";"}
}

// AlignTokens returns align-text's output tokens for one utterance:
// "ref1 hyp1 ; ref2 hyp2 ; ...". It fails, naming key, when a sentence holds
// the special symbol or separator, or a token that is not printable.
func (o AlignTextOptions) AlignTokens(key string, text1, text2 []string) ([]string, error) {
	for side, s := range [][]string{text1, text2} {
		for _, t := range s {
			if t == o.SpecialSymbol || t == o.Separator {
				return nil, fmt.Errorf("%w: utterance %s, text%d has %q", ErrSpecialSymbol, key, side+1, t)
			}
			if !isToken(t) {
				return nil, fmt.Errorf("In text%d, the utterance %s contains unprintable characters.That means there is a problem with the text (such as incorrect encoding).", side+1, key)
			}
		}
	}
	pairs, _ := Align(text1, text2, o.SpecialSymbol)
	out := make([]string, 0, 3*len(pairs))
	for i, p := range pairs {
		out = append(out, p.Ref, p.Hyp)
		if i != len(pairs)-1 {
			out = append(out, o.Separator)
		}
	}
	return out, nil
}

// isToken is Kaldi's IsToken: non-empty, printable, no whitespace.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if unicode.IsSpace(r) || (r < 0x80 && !unicode.IsPrint(r)) {
			return false
		}
	}
	return true
}

// WriteTokenEntry writes one entry of a Kaldi text token table as Kaldi's
// TokenVectorHolder does: "key tok tok \n" (every token followed by a space).
func WriteTokenEntry(w io.Writer, key string, tokens []string) error {
	b := make([]byte, 0, 64)
	b = append(b, key...)
	b = append(b, ' ')
	for _, t := range tokens {
		b = append(b, t...)
		b = append(b, ' ')
	}
	b = append(b, '\n')
	_, err := w.Write(b)
	return err
}
