package fsdd

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/strode-asr/strode/decoder/mkgraph"
)

// The dict dir reads back as prepare-lang's builtin:digits-no-oh, with
// Kaldi's extra questions (silence; non-silence) added.
func TestWriteDictReadsBack(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dict")
	if err := WriteDict(dir); err != nil {
		t.Fatal(err)
	}
	got, err := mkgraph.ReadDictDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := mkgraph.DigitsDict(false)
	if len(got.ExtraQuestions) != 2 || !reflect.DeepEqual(got.ExtraQuestions[0], []string{"SIL"}) ||
		len(got.ExtraQuestions[1]) != len(want.NonsilencePhones) {
		t.Errorf("extra questions %v", got.ExtraQuestions)
	}
	got.ExtraQuestions = nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, want)
	}
	if n := len(got.Lexicon); n != 11 {
		t.Errorf("%d lexicon entries, want the ten digits and <SIL>", n)
	}
}
