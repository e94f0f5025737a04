package scoring

import (
	"fmt"

	"github.com/strode-asr/strode/kaldiio"
)

// TokenVectorCodec is kaldiio's token-vector codec with Kaldi's exact output
// bytes: TokenVectorHolder writes every token followed by a space
// ("key a b \n"), which align-text's output (and scripts diffing it) keep.
var TokenVectorCodec kaldiio.Codec[kaldiio.TokenVector] = tokenCodec{}

type tokenCodec struct{}

func (tokenCodec) RawObject() {}

func (tokenCodec) Read(r *kaldiio.Reader, binary bool, v *kaldiio.TokenVector) error {
	return kaldiio.TokenVectorCodec.Read(r, binary, v)
}

func (tokenCodec) Write(w *kaldiio.Writer, _ bool, v *kaldiio.TokenVector) error {
	for _, t := range *v {
		if !isToken(t) {
			return fmt.Errorf("%w: invalid token %q", kaldiio.ErrFormat, t)
		}
		if err := w.WriteString(t); err != nil {
			return err
		}
		if err := w.WriteByte(' '); err != nil {
			return err
		}
	}
	return w.WriteByte('\n')
}
