package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// inputsDict writes a small valid dict dir with files replaced as given.
func inputsDict(t *testing.T, replace map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"silence_phones.txt":    "SIL\nSPN\n",
		"optional_silence.txt":  "SIL\n",
		"nonsilence_phones.txt": "AH\nB\nIY\n",
		"extra_questions.txt":   "SIL SPN\n",
		"lexicon.txt":           "<UNK> SPN\nA AH\nBE B IY\n",
	}
	for name, text := range replace {
		files[name] = text
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A byte-order mark or a Latin-1 word in the lexicon would make a word
// that the transcripts never spell: validate-dict-dir exits 1 naming the
// file and line.
func TestValidateDictDirRejectsEncodings(t *testing.T) {
	for _, tc := range []struct{ name, lexicon, want string }{
		{"BOM", "\ufeff<UNK> SPN\nA AH\nBE B IY\n", "lexicon.txt:1: starts with a UTF-8 byte-order mark"},
		{"Latin-1", "<UNK> SPN\nA AH\nB\xc9 B IY\n", "lexicon.txt:3: is not valid UTF-8: byte 0xC9 at column 2 (in \"B\\xc9\")"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := inputsDict(t, map[string]string{"lexicon.txt": tc.lexicon})
			code, stdout, stderr := runStrode(t, "", "validate-dict-dir", dir)
			if code != 1 || !strings.Contains(stderr, filepath.Join(dir, tc.want)) {
				t.Errorf("exit %d, want 1 and %q in stderr:\n%s%s", code, tc.want, stdout, stderr)
			}
		})
	}
}

// prepare-lang validates the dict dir first, as prepare_lang.sh does: a
// repeated lexicon line or a lexiconp.txt that disagrees with lexicon.txt
// fails with the validator's file and line, and no lang dir is written.
func TestPrepareLangValidatesDictDir(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replace map[string]string
		want    string
	}{
		{"repeated line", map[string]string{"lexicon.txt": "<UNK> SPN\nA AH\nBE B IY\nA AH\n"},
			`lexicon.txt:4: line "A AH" repeats line 2`},
		{"lexiconp disagrees", map[string]string{"lexiconp.txt": "<UNK> 1.0 SPN\nA 1.0 AH\nBE 1.0 IY B\n"},
			"lexiconp.txt:3: differs from lexicon.txt line 3 (BE B IY)"},
		{"BOM", map[string]string{"lexicon.txt": "\ufeff<UNK> SPN\nA AH\nBE B IY\n"},
			"lexicon.txt:1: starts with a UTF-8 byte-order mark"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dict := inputsDict(t, tc.replace)
			lang := filepath.Join(t.TempDir(), "lang")
			code, _, stderr := runStrode(t, "", "prepare-lang", dict, "<UNK>", t.TempDir(), lang)
			if code != 1 || !strings.Contains(stderr, "*Error validating directory "+dict+"*") || !strings.Contains(stderr, filepath.Join(dict, tc.want)) {
				t.Errorf("exit %d, want 1 and %q in stderr:\n%s", code, tc.want, stderr)
			}
			if _, err := os.Stat(filepath.Join(lang, "L.fst")); err == nil {
				t.Error("a lang dir was written from a dict dir that fails validation")
			}
		})
	}
	// --skip-validation builds from the repeated line anyway; a valid dir builds.
	for _, args := range [][]string{
		{"--skip-validation", inputsDict(t, map[string]string{"lexicon.txt": "<UNK> SPN\nA AH\nBE B IY\nA AH\n"})},
		{inputsDict(t, nil)},
	} {
		lang := filepath.Join(t.TempDir(), "lang")
		args = append(append([]string{"prepare-lang"}, args...), "<UNK>", t.TempDir(), lang)
		if code, _, stderr := runStrode(t, "", args...); code != 0 {
			t.Errorf("%v: exit %d\n%s", args, code, stderr)
		}
	}
}
