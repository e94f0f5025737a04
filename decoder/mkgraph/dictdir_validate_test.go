package mkgraph

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goodDict is a small valid dict dir as Kaldi's librispeech/wsj
// prepare_dict.sh write them: stress variants of a phone on one line, one
// extra question for silence and one per stress level.
func goodDict() map[string]string {
	return map[string]string{
		"silence_phones.txt":    "SIL\nSPN\n",
		"optional_silence.txt":  "SIL\n",
		"nonsilence_phones.txt": "AH AH0 AH1\nB\nIY IY1\n",
		"extra_questions.txt":   "SIL SPN\nAH B IY\nAH0\nAH1 IY1\n",
		"lexicon.txt":           "<UNK> SPN\nA AH0\nA AH1\nBE B IY1\n",
	}
}

func writeDict(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func edit(files map[string]string, name, text string) map[string]string {
	out := map[string]string{}
	for k, v := range files {
		out[k] = v
	}
	if text == "\x00delete" {
		delete(out, name)
	} else {
		out[name] = text
	}
	return out
}

func TestValidateDictDirGood(t *testing.T) {
	g := goodDict()
	g["lexicon.txt"] = "<UNK> SPN\nA AH0\nBE B IY1\n"
	g["extra_questions.txt"] = "SIL SPN\nAH B IY\nAH0\nAH1 IY1\n"
	for name, files := range map[string]map[string]string{
		"plain":                  g,
		"no extra questions":     edit(edit(g, "extra_questions.txt", "\x00delete"), "nonsilence_phones.txt", "AH0\nB\nIY1\n"),
		"lexiconp.txt only":      edit(edit(g, "lexicon.txt", "\x00delete"), "lexiconp.txt", "<UNK> 1.0 SPN\nA 0.5 AH0\nBE 1 B IY1\n"),
		"lexicon and lexiconp":   edit(g, "lexiconp.txt", "<UNK> 1.0 SPN\nA 0.5 AH0\nBE 1 B IY1\n"),
		"tabs and nonterminals":  edit(edit(g, "lexicon.txt", "<UNK>\tSPN\nA\tAH0\nBE\tB  IY1\n"), "nonterminals.txt", "#nonterm:contact_list\n"),
		"silprob with its files": edit(edit(g, "lexiconp_silprob.txt", "<UNK> 1.0 0.2 1.0 1.0 SPN\n"), "lexiconp.txt", "<UNK> 1.0 SPN\n"),
	} {
		t.Run(name, func(t *testing.T) {
			if name == "silprob with its files" {
				files = edit(edit(files, "lexicon.txt", "<UNK> SPN\n"), "silprob.txt", "<s> 0.9\n</s>_s 1.2\n</s>_n 0.8\noverall 0.2\n")
			}
			dir := writeDict(t, files)
			var log bytes.Buffer
			if err := ValidateDictDir(dir, &log); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(log.String(), "SUCCESS [validating dictionary directory "+dir+"]") {
				t.Errorf("log %q", log.String())
			}
		})
	}
}

// Each of validate_dict_dir.pl's checks, with the file and line it names.
func TestValidateDictDirProblems(t *testing.T) {
	g := goodDict()
	for _, tc := range []struct {
		name, file, text string
		want             string // "FILE:LINE: part of the message" (FILE relative to the dir)
	}{
		{"no silence phones", "silence_phones.txt", "\x00delete", "silence_phones.txt: is empty or does not exist"},
		{"empty silence phones", "silence_phones.txt", "", "silence_phones.txt: is empty or does not exist"},
		{"duplicate silence phone", "silence_phones.txt", "SIL\nSPN SIL\n", "silence_phones.txt:2: phone \"SIL\" is listed twice"},
		{"empty line", "silence_phones.txt", "SIL\n\nSPN\n", "silence_phones.txt:2: empty line"},
		{"no final newline", "silence_phones.txt", "SIL\nSPN", "silence_phones.txt:2: the last line does not end in a newline"},
		{"CR", "nonsilence_phones.txt", "AH AH0 AH1\r\nB\nIY IY1\n", "nonsilence_phones.txt:1: contains a carriage return"},
		{"no-break space", "lexicon.txt", "<UNK> SPN\nA\u00a0AH0\nBE B IY1\n", "lexicon.txt:2: contains the white space character U+00A0"},
		{"word-position phone", "nonsilence_phones.txt", "AH AH0 AH1\nB_B\nIY IY1\n", "nonsilence_phones.txt:2: phone \"B_B\" has a disallowed form"},
		{"hash phone", "silence_phones.txt", "SIL\n#1\nSPN\n", "silence_phones.txt:2: phone \"#1\" has a disallowed form"},
		{"duplicate nonsilence phone", "nonsilence_phones.txt", "AH AH0 AH1\nB AH\nIY IY1\n", "nonsilence_phones.txt:2: phone \"AH\" is listed twice"},
		{"overlap", "nonsilence_phones.txt", "AH AH0 AH1\nB SIL\nIY IY1\n", "nonsilence_phones.txt: silence_phones.txt and nonsilence_phones.txt overlap: SIL"},
		{"two optional silences", "optional_silence.txt", "SIL SPN\n", "optional_silence.txt:1: only 1 phone expected"},
		{"optional silence not silence", "optional_silence.txt", "B\n", "optional_silence.txt:1: phone B is not in silence_phones.txt"},
		{"no lexicon", "lexicon.txt", "\x00delete", "lexicon.txt: neither lexicon.txt nor lexiconp.txt exists"},
		{"repeated line", "lexicon.txt", "<UNK> SPN\nA AH0\nA AH0\n", "lexicon.txt:3: line \"A AH0\" repeats line 2"},
		{"forbidden word", "lexicon.txt", "<UNK> SPN\n<s> SIL\n", "lexicon.txt:2: forbidden word <s>"},
		{"empty pronunciation", "lexicon.txt", "<UNK> SPN\nA\n", "lexicon.txt:2: word A has an empty pronunciation"},
		{"empty lexicon line", "lexicon.txt", "<UNK> SPN\n \n", "lexicon.txt:2: empty lexicon line"},
		{"unknown phone", "lexicon.txt", "<UNK> SPN\nA AH0\nBE B IY2\n", "lexicon.txt:3: phone \"IY2\" (word BE) is in neither"},
		{"bad probability", "lexiconp.txt", "<UNK> 1.0 SPN\nA 1.5 AH0\nA 1 AH1\nBE 1 B IY1\n", "lexiconp.txt:2: word A: bad pronunciation probability \"1.5\""},
		{"lexicons disagree", "lexiconp.txt", "<UNK> 1.0 SPN\nA 1 AH1\nA 1 AH0\nBE 1 B IY1\n", "lexiconp.txt:2: differs from lexicon.txt line 2 (A AH0)"},
		{"silprob without silprob.txt", "lexiconp_silprob.txt", "<UNK> 1.0 0.2 1.0 1.0 SPN\n", "silprob.txt: lexiconp_silprob.txt exists, so silprob.txt must too"},
		{"unknown phone in a question", "extra_questions.txt", "SIL SPN\nAH B IY\nAH0 XX\nAH1 IY1\n", "extra_questions.txt:3: phone \"XX\" (block 2) is in neither"},
		{"empty question", "extra_questions.txt", "SIL SPN\n\nAH B IY\nAH0\nAH1 IY1\n", "extra_questions.txt:2: empty line"},
		{"indistinguishable phones", "extra_questions.txt", "SIL SPN\nAH B IY\nAH0 AH1 IY1\n", "nonsilence_phones.txt:1: phones AH0 and AH1 share a tree root"},
		{"bad nonterminal", "nonterminals.txt", "#nonterm:a\nfoo\n", "nonterminals.txt:2: bad (or duplicate) line \"foo\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeDict(t, edit(g, tc.file, tc.text))
			err := ValidateDictDir(dir, nil)
			var de *DictDirError
			if !errors.As(err, &de) || !errors.Is(err, ErrDict) {
				t.Fatalf("error %v (%T), want a *DictDirError wrapping ErrDict", err, err)
			}
			want := filepath.Join(dir, tc.want)
			found := false
			for _, p := range de.Problems {
				found = found || strings.HasPrefix(p.String(), want)
			}
			if !found {
				t.Errorf("no problem %q in:\n%v", want, err)
			}
		})
	}
}

// A byte-order mark or a byte sequence that is not UTF-8 (a Latin-1 word)
// in any file of the dir fails validation, naming the file and line:
// either would make a word or phone that no other file spells that way.
func TestValidateDictDirEncoding(t *testing.T) {
	g := goodDict()
	g["lexiconp.txt"] = "<UNK> 1.0 SPN\nA 1 AH0\nA 1 AH1\nBE 1 B IY1\n"
	for _, name := range []string{"lexicon.txt", "lexiconp.txt", "silence_phones.txt", "nonsilence_phones.txt", "optional_silence.txt", "extra_questions.txt"} {
		lines := strings.SplitAfter(g[name], "\n")
		t.Run(name+" BOM", func(t *testing.T) {
			dir := writeDict(t, edit(g, name, "\ufeff"+g[name]))
			wantProblem(t, dir, name+":1: starts with a UTF-8 byte-order mark")
		})
		t.Run(name+" Latin-1", func(t *testing.T) {
			// The last line's first field gets a Latin-1 é (one byte, 0xE9).
			last := len(lines) - 2
			bad := append([]string{}, lines...)
			bad[last] = strings.Replace(bad[last], " ", "\xe9 ", 1)
			if !strings.Contains(bad[last], "\xe9") {
				bad[last] = strings.Replace(bad[last], "\n", "\xe9\n", 1)
			}
			dir := writeDict(t, edit(g, name, strings.Join(bad, "")))
			wantProblem(t, dir, fmt.Sprintf("%s:%d: is not valid UTF-8: byte 0xE9", name, last+1))
		})
	}
	// A whole file in Latin-1 reports a few lines and counts the rest.
	var lex strings.Builder
	lex.WriteString("<UNK> SPN\n")
	for i := 0; i < 10; i++ {
		fmt.Fprintf(&lex, "CAF\xc9%d AH0\n", i)
	}
	dir := writeDict(t, edit(g, "lexicon.txt", lex.String()))
	wantProblem(t, dir, "lexicon.txt:2: is not valid UTF-8: byte 0xC9 at column 4 (in \"CAF\\xc90\")")
	wantProblem(t, dir, "lexicon.txt: ... and 7 more lines that are not valid UTF-8")
}

// wantProblem fails unless validating dir reports a problem starting with
// want (its file relative to dir).
func wantProblem(t *testing.T, dir, want string) {
	t.Helper()
	err := ValidateDictDir(dir, nil)
	var de *DictDirError
	if !errors.As(err, &de) {
		t.Fatalf("error %v (%T), want a *DictDirError", err, err)
	}
	want = filepath.Join(dir, want)
	for _, p := range de.Problems {
		if strings.HasPrefix(p.String(), want) {
			return
		}
	}
	t.Errorf("no problem %q in:\n%v", want, err)
}

// All problems are reported, not just the first, and the message is
// bounded.
func TestValidateDictDirReportsAll(t *testing.T) {
	var lex strings.Builder
	lex.WriteString("<UNK> SPN\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&lex, "W%d XX%d\n", i, i)
	}
	dir := writeDict(t, edit(goodDict(), "lexicon.txt", lex.String()))
	err := ValidateDictDir(dir, nil)
	var de *DictDirError
	if !errors.As(err, &de) || len(de.Problems) != 30 {
		t.Fatalf("%v: want 30 problems", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "... and 10 more") || strings.Count(msg, "\n") != 21 {
		t.Errorf("message not bounded to 20 problems:\n%s", msg)
	}
}

// FuzzValidateDictDir feeds arbitrary bytes as the dict dir's files: the
// validator must never panic, and a failure must name a file of the dir.
func FuzzValidateDictDir(f *testing.F) {
	g := goodDict()
	f.Add([]byte(g["silence_phones.txt"]), []byte(g["optional_silence.txt"]), []byte(g["nonsilence_phones.txt"]), []byte(g["extra_questions.txt"]), []byte(g["lexicon.txt"]), []byte("<UNK> 1 SPN\n"))
	f.Add([]byte("SIL\r\n"), []byte("SIL"), []byte("A A1\n\xff\n"), []byte(""), []byte("A\u2028A1\n"), []byte("x 2 A\n"))
	f.Fuzz(func(t *testing.T, sil, opt, nonsil, extra, lex, lexp []byte) {
		files := map[string][]byte{"silence_phones.txt": sil, "optional_silence.txt": opt, "nonsilence_phones.txt": nonsil,
			"extra_questions.txt": extra, "lexicon.txt": lex, "lexiconp.txt": lexp}
		err := validateDict("d", func(name string) ([]byte, error) {
			if b, ok := files[name]; ok {
				return b, nil
			}
			return nil, fs.ErrNotExist
		})
		if err == nil {
			return
		}
		var de *DictDirError
		if !errors.As(err, &de) || len(de.Problems) == 0 {
			t.Fatalf("error %v is not a *DictDirError with problems", err)
		}
		for _, p := range de.Problems {
			if !strings.HasPrefix(p.File, "d"+string(filepath.Separator)) {
				t.Fatalf("problem %v names no file of the dir", p)
			}
		}
	})
}
