package kaldiio

import (
	"fmt"
	"strings"
)

// TokenVector is a list of whitespace-free tokens: a line of a Kaldi text
// table such as data/text or decoded word sequences (TokenVectorHolder).
type TokenVector []string

// TokenVectorCodec is Kaldi's TokenVectorHolder: text only in both modes,
// "KEY tok1 tok2 \n" (every token followed by a space), no binary marker (so
// it is a RawCodec). Read splits the
// rest of the line on whitespace; Write fails on a token that is empty or
// holds whitespace.
var TokenVectorCodec Codec[TokenVector] = tokenVectorCodec{}

type tokenVectorCodec struct{}

func (tokenVectorCodec) RawObject() {}

func (tokenVectorCodec) Read(r *Reader, _ bool, v *TokenVector) error {
	line, err := r.readLine("token vector")
	if err != nil {
		return err
	}
	*v = append((*v)[:0], strings.Fields(string(line))...)
	return nil
}

func (tokenVectorCodec) Write(w *Writer, _ bool, v *TokenVector) error {
	for _, t := range *v {
		if !validKey(t) {
			return fmt.Errorf("%w: invalid token %q (tokens are non-empty with no whitespace)", ErrFormat, t)
		}
		w.WriteString(t)
		w.WriteByte(' ')
	}
	return w.WriteByte('\n')
}
