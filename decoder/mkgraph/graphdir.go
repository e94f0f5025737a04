package mkgraph

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
)

// GrammarOptions choose G for MakeGraphDir.
type GrammarOptions struct {
	// Grammar is "" to read lang/G.fst, GrammarOneWord / GrammarWordLoop
	// to generate G over the words of words.txt, or "sentences:FILE" for
	// the fixed grammar of FILE's sentences (one per line).
	Grammar string
	// Exclude lists words left out of a generated grammar, besides the OOV
	// word of lang/oov.txt (comma-separated on the command line).
	Exclude []string
}

// Register adds --grammar and --grammar-exclude.
func (o *GrammarOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.Grammar, "grammar", o.Grammar, "G to use: empty reads <lang-dir>/G.fst; one-word (isolated words) or word-loop (one or more words) generates a uniform grammar over words.txt; sentences:FILE accepts exactly FILE's sentences (one per line)")
	fs.Func("grammar-exclude", "Comma-separated words left out of a generated grammar (the OOV word always is)", func(s string) error {
		o.Exclude = nil
		for _, w := range strings.Split(s, ",") {
			if w = strings.TrimSpace(w); w != "" {
				o.Exclude = append(o.Exclude, w)
			}
		}
		return nil
	})
}

// MakeGraphDir is utils/mkgraph.sh: it
// reads langDir (L_disambig.fst, G.fst unless generated, phones/disambig.int,
// words.txt, oov.txt) and modelDir (final.mdl, tree), builds HCLG and
// writes graphDir/HCLG.fst (ConstFst, as mkgraph.sh), words.txt,
// phones.txt, phones/ (the lists decoding and scoring scripts read),
// num_pdfs and disambig_tid.int. logf (may be nil) receives progress.
func MakeGraphDir(langDir, modelDir, graphDir string, opt MkGraphOptions, gopt GrammarOptions, logf func(string, ...any)) (*HCLG, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	tm, err := hmm.ReadTransitionModel(filepath.Join(modelDir, "final.mdl"))
	if err != nil {
		return nil, err
	}
	tree, err := tree.Read(filepath.Join(modelDir, "tree"))
	if err != nil {
		return nil, err
	}
	l, err := fst.ReadFile(filepath.Join(langDir, "L_disambig.fst"))
	if err != nil {
		return nil, err
	}
	disambig, err := readIntList(filepath.Join(langDir, "phones", "disambig.int"))
	if err != nil {
		return nil, err
	}
	words, err := fst.ReadSymbolTableFile(filepath.Join(langDir, "words.txt"))
	if err != nil {
		return nil, err
	}
	var g *fst.VectorFst
	switch gopt.Grammar {
	case "":
		if g, err = fst.ReadFile(filepath.Join(langDir, "G.fst")); err != nil {
			return nil, err
		}
	case GrammarOneWord, GrammarWordLoop:
		exclude := gopt.Exclude
		if b, err := os.ReadFile(filepath.Join(langDir, "oov.txt")); err == nil {
			exclude = append(exclude, strings.TrimSpace(string(b)))
		}
		list := GrammarWords(words, exclude...)
		if gopt.Grammar == GrammarOneWord {
			g, err = OneWordGrammar(words, list)
		} else {
			g, err = WordLoopGrammar(words, list)
		}
		if err != nil {
			return nil, err
		}
		logf("generated a %s grammar over %d words", gopt.Grammar, len(list))
	default:
		file, ok := strings.CutPrefix(gopt.Grammar, GrammarSentences)
		if !ok {
			return nil, fmt.Errorf("%w: unknown --grammar %q (want %q, %q or %qFILE, or empty for G.fst)", ErrDict, gopt.Grammar, GrammarOneWord, GrammarWordLoop, GrammarSentences)
		}
		sents, err := ReadSentences(file)
		if err != nil {
			return nil, err
		}
		if g, err = SentencesGrammar(words, sents); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		logf("fixed grammar of %d sentences from %s", len(sents), file)
	}
	lg, err := ComposeLG(l, g, opt.MaxStates)
	if err != nil {
		return nil, err
	}
	logf("LG: %d states, %d arcs", lg.NumStates(), lg.NumArcs())
	h, err := BuildHCLGFromLG(tm, tree, lg, disambig, opt)
	if err != nil {
		return nil, err
	}
	logf("HCLG: %d states, %d arcs", h.Fst.NumStates(), h.Fst.NumArcs())
	if err := os.MkdirAll(filepath.Join(graphDir, "phones"), 0o777); err != nil {
		return nil, err
	}
	if err := writeConstFstFile(filepath.Join(graphDir, "HCLG.fst"), h.Fst); err != nil {
		return nil, err
	}
	var tids strings.Builder
	for _, d := range h.DisambigTids {
		fmt.Fprintf(&tids, "%d\n", d)
	}
	if err := writeFileAtomic(filepath.Join(graphDir, "disambig_tid.int"), []byte(tids.String())); err != nil {
		return nil, err
	}
	if err := writeFileAtomic(filepath.Join(graphDir, "num_pdfs"), []byte(strconv.Itoa(tm.NumPdfs())+"\n")); err != nil {
		return nil, err
	}
	copies := []string{"words.txt", "phones.txt"}
	for _, base := range []string{"word_boundary", "align_lexicon", "optional_silence", "disambig", "silence"} {
		for _, ext := range []string{".txt", ".int", ".csl"} {
			copies = append(copies, filepath.Join("phones", base+ext))
		}
	}
	for _, c := range copies {
		b, err := os.ReadFile(filepath.Join(langDir, c))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if err := writeFileAtomic(filepath.Join(graphDir, c), b); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// readIntList reads whitespace-separated integers (an .int file).
func readIntList(path string) ([]int32, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []int32
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		for _, field := range strings.Fields(sc.Text()) {
			v, err := strconv.ParseInt(field, 10, 32)
			if err != nil {
				return nil, fmt.Errorf("%w: %s:%d: %q is not an integer", ErrDict, path, line, field)
			}
			out = append(out, int32(v))
		}
	}
	return out, sc.Err()
}

// writeConstFstFile writes f as an OpenFst ConstFst through a temporary
// file renamed into place.
func writeConstFstFile(path string, f *fst.VectorFst) error {
	var b bytes.Buffer
	if err := fst.WriteConstFst(&b, f); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return writeFileAtomic(path, b.Bytes())
}

// PrepareLangDir reads a dict directory ("builtin:digits" or
// "builtin:digits-no-oh" for DigitsDict), makes the lang directory and
// writes it to langDir; with monoDir set it also writes the monophone
// tree and transition model (monoDir/tree, monoDir/final.mdl) that
// gmm-init-mono would start from. A dict directory is first validated as
// prepare_lang.sh does (ValidateDictDir; a *DictDirError on failure)
// unless opt.SkipValidation: ReadDictDir alone reads a repeated lexicon
// line, or a lexiconp.txt that disagrees with lexicon.txt, without a word.
func PrepareLangDir(dictDir, oov, langDir, monoDir string, opt LangOptions) (*Lang, error) {
	var d *Dict
	var err error
	switch dictDir {
	case "builtin:digits":
		d = DigitsDict(true)
	case "builtin:digits-no-oh":
		d = DigitsDict(false)
	default:
		if !opt.SkipValidation {
			if err := ValidateDictDir(dictDir, nil); err != nil {
				return nil, err
			}
		}
		if d, err = ReadDictDir(dictDir); err != nil {
			return nil, err
		}
	}
	lang, err := PrepareLang(d, oov, opt)
	if err != nil {
		return nil, err
	}
	if err := lang.Write(langDir); err != nil {
		return nil, err
	}
	if monoDir != "" {
		tree, err := MonophoneTree(&lang.Topo, lang.PhoneSets())
		if err != nil {
			return nil, err
		}
		tm, err := MonophoneTransitionModel(lang.Topo, tree)
		if err != nil {
			return nil, err
		}
		if err := os.MkdirAll(monoDir, 0o777); err != nil {
			return nil, err
		}
		if err := WriteMonophoneModel(filepath.Join(monoDir, "tree"), filepath.Join(monoDir, "final.mdl"), tree, tm, true); err != nil {
			return nil, err
		}
	}
	return lang, nil
}
