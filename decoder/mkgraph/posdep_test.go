package mkgraph

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The files of a lang dir made with positions on, against what
// prepare_lang.sh writes for the same dictionary (its phone_map.txt
// expansion, the _B/_I/_E/_S rewrite of the lexicon, the position
// questions and word_boundary.txt), worked out by hand from the script.
func TestPrepareLangPositionDependent(t *testing.T) {
	lex, err := ParseLexicon(strings.NewReader("<UNK> SPN\n!SIL SIL\nab A B\nabc A B C\nc C\n"), "lex", false)
	if err != nil {
		t.Fatal(err)
	}
	d := &Dict{Lexicon: lex, SilencePhones: [][]string{{"SIL"}, {"SPN"}}, OptionalSilence: "SIL",
		NonsilencePhones: [][]string{{"A", "B"}, {"C"}}, ExtraQuestions: [][]string{{"A", "C"}}}
	lang, err := PrepareLang(d, "<UNK>", DefaultLangOptions())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := lang.Write(dir); err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tc := range []struct{ file, want string }{
		{"phones.txt", "<eps> 0\nSIL 1\nSIL_B 2\nSIL_E 3\nSIL_I 4\nSIL_S 5\nSPN 6\nSPN_B 7\nSPN_E 8\nSPN_I 9\nSPN_S 10\n" +
			"A_B 11\nA_E 12\nA_I 13\nA_S 14\nB_B 15\nB_E 16\nB_I 17\nB_S 18\nC_B 19\nC_E 20\nC_I 21\nC_S 22\n#0 23\n#1 24\n"},
		{"phones/sets.txt", "SIL SIL_B SIL_E SIL_I SIL_S\nSPN SPN_B SPN_E SPN_I SPN_S\nA_B A_E A_I A_S B_B B_E B_I B_S\nC_B C_E C_I C_S\n"},
		{"phones/roots.txt", "shared split SIL SIL_B SIL_E SIL_I SIL_S\nshared split SPN SPN_B SPN_E SPN_I SPN_S\n" +
			"shared split A_B A_E A_I A_S B_B B_E B_I B_S\nshared split C_B C_E C_I C_S\n"},
		{"phones/extra_questions.txt", "A_B A_E A_I A_S C_B C_E C_I C_S\n" +
			"A_B B_B C_B\nA_E B_E C_E\nA_I B_I C_I\nA_S B_S C_S\n" +
			"SIL SPN\nSIL_B SPN_B\nSIL_E SPN_E\nSIL_I SPN_I\nSIL_S SPN_S\n"},
		{"phones/context_indep.txt", "SIL\nSIL_B\nSIL_E\nSIL_I\nSIL_S\nSPN\nSPN_B\nSPN_E\nSPN_I\nSPN_S\n"},
		{"phones/optional_silence.txt", "SIL\n"},
		{"phones/align_lexicon.txt", "!SIL !SIL SIL_S\n<UNK> <UNK> SPN_S\n<eps> <eps> SIL\nab ab A_B B_E\nabc abc A_B B_I C_E\nc c C_S\n"},
		{"phones/word_boundary.txt", "SIL nonword\nSIL_B begin\nSIL_E end\nSIL_I internal\nSIL_S singleton\n" +
			"SPN nonword\nSPN_B begin\nSPN_E end\nSPN_I internal\nSPN_S singleton\n" +
			"A_B begin\nA_E end\nA_I internal\nA_S singleton\nB_B begin\nB_E end\nB_I internal\nB_S singleton\n" +
			"C_B begin\nC_E end\nC_I internal\nC_S singleton\n"},
	} {
		if got := read(tc.file); got != tc.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.file, got, tc.want)
		}
	}
	if got := strings.SplitN(read("phones/word_boundary.int"), "\n", 3); got[0] != "1 nonword" || got[1] != "2 begin" {
		t.Errorf("word_boundary.int starts %q, want \"1 nonword\", \"2 begin\"", got[:2])
	}
	// "ab" is a prefix of "abc" once the marks are on? No: A_B B_E is not a
	// prefix of A_B B_I C_E, so no pronunciation needs #1 here, and #1 is
	// the one L_disambig's silence arc reads.
	for i, p := range lang.lexDisambig {
		if strings.Contains(strings.Join(p, " "), "#") {
			t.Errorf("entry %d %v has a disambiguation symbol", i, p)
		}
	}
	// Silence phones (every variant) get the silence topology.
	for _, p := range []string{"SIL_B", "SPN_S", "SIL"} {
		k, _ := lang.Phones.Key(p)
		if lang.Topo.Phone2Idx[k] != 1 {
			t.Errorf("%s: topology entry %d, want the silence one", p, lang.Topo.Phone2Idx[k])
		}
	}
	if k, _ := lang.Phones.Key("B_I"); lang.Topo.Phone2Idx[k] != 0 {
		t.Errorf("B_I: not the non-silence topology")
	}
}
