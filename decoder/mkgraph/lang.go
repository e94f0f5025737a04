package mkgraph

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
)

// LangOptions are prepare_lang.sh's options that shape the lang directory,
// with its defaults.
type LangOptions struct {
	PositionDependentPhones bool    // --position-dependent-phones (true): phones marked _B _E _I _S by their place in the word
	SilProb                 float64 // --sil-prob (0.5): optional silence after each word; 0 disables it
	NumSilStates            int     // --num-sil-states (5)
	NumNonsilStates         int     // --num-nonsil-states (3)
	ShareSilencePhones      bool    // --share-silence-phones (false)
	// SkipValidation (--skip-validation, false) builds the lang dir from a
	// dict dir that ValidateDictDir rejects. prepare_lang.sh has no such
	// option: it always runs validate_dict_dir.pl first. The escape is for
	// a dict dir in a one-byte encoding, which validate_dict_dir.pl allows
	// and we do not.
	SkipValidation bool
}

// DefaultLangOptions are prepare_lang.sh's defaults.
func DefaultLangOptions() LangOptions {
	return LangOptions{PositionDependentPhones: true, SilProb: 0.5, NumSilStates: 5, NumNonsilStates: 3}
}

// Register adds the options under prepare_lang.sh's names.
func (o *LangOptions) Register(fs *flag.FlagSet) {
	fs.BoolVar(&o.PositionDependentPhones, "position-dependent-phones", o.PositionDependentPhones, "Word-position-dependent phones: every phone of a pronunciation marked _B, _I, _E or _S by its place in the word (and phones/word_boundary.txt written)")
	fs.Float64Var(&o.SilProb, "sil-prob", o.SilProb, "Probability of optional silence after each word (0: none)")
	fs.IntVar(&o.NumSilStates, "num-sil-states", o.NumSilStates, "Number of emitting states of silence phones")
	fs.IntVar(&o.NumNonsilStates, "num-nonsil-states", o.NumNonsilStates, "Number of emitting states of other phones")
	fs.BoolVar(&o.ShareSilencePhones, "share-silence-phones", o.ShareSilencePhones, "All silence phones form one set whose tree root is not-shared not-split (and share pdfs in the monophone tree)")
	fs.BoolVar(&o.SkipValidation, "skip-validation", o.SkipValidation, "Do not check the dict dir as validate-dict-dir does before building (prepare_lang.sh always checks; use only for a dict dir known good whose encoding is not UTF-8)")
}

// Lang is a lang directory in memory.
type Lang struct {
	Dict          *Dict
	Phones, Words *fst.SymbolTable
	Topo          hmm.Topology
	L, LDisambig  *fst.VectorFst
	PhoneDisambig []int32 // ids of #0, #1, … in Phones
	WordDisambig  int32   // id of #0 in Words
	Oov           string  // the word unknown words map to
	SilencePhones []int32
	NonsilPhones  []int32
	OptionalSil   int32
	// ShareSilencePhones puts all silence phones in one set and tree root
	// (LangOptions.ShareSilencePhones).
	ShareSilencePhones bool
	// PositionDependent is LangOptions.PositionDependentPhones: Dict is
	// then the position-marked dictionary (positionDependentDict).
	PositionDependent bool
	lexDisambig       [][]string // pronunciations with their disambiguation symbol
	numLexDisambig    int
}

// PrepareLang makes a lang directory from a dictionary, as
// utils/prepare_lang.sh: with opt.PositionDependentPhones the dictionary's
// phones are first marked by word position (positionDependentDict); phone and word
// symbol tables, the topology (utils/gen_topo.pl), L.fst and
// L_disambig.fst (utils/lang/make_lexicon_fst.py with optional silence),
// and the disambiguation symbols of utils/add_lex_disambig.pl. oov is the
// word unknown words map to; it must be in the lexicon.
func PrepareLang(d *Dict, oov string, opt LangOptions) (*Lang, error) {
	if !(opt.SilProb >= 0 && opt.SilProb < 1) {
		return nil, fmt.Errorf("%w: --sil-prob %g must be in [0, 1)", ErrDict, opt.SilProb)
	}
	if opt.NumSilStates < 1 || opt.NumNonsilStates < 1 {
		return nil, fmt.Errorf("%w: --num-sil-states and --num-nonsil-states must be at least 1", ErrDict)
	}
	if err := d.Check(); err != nil {
		return nil, err
	}
	if opt.PositionDependentPhones {
		d = positionDependentDict(d)
	}
	lang := &Lang{Dict: d, Oov: oov, ShareSilencePhones: opt.ShareSilencePhones, PositionDependent: opt.PositionDependentPhones}
	if !slices.ContainsFunc(d.Lexicon, func(e LexEntry) bool { return e.Word == oov }) {
		return nil, fmt.Errorf("%w: the OOV word %q is not in the lexicon", ErrDict, oov)
	}
	lang.addDisambig()
	if err := lang.makePhones(); err != nil {
		return nil, err
	}
	if err := lang.makeWords(); err != nil {
		return nil, err
	}
	lang.makeTopo(opt)
	var err error
	if lang.L, err = lang.lexiconFst(opt.SilProb, false); err != nil {
		return nil, err
	}
	if lang.LDisambig, err = lang.lexiconFst(opt.SilProb, true); err != nil {
		return nil, err
	}
	return lang, nil
}

// addDisambig appends #1, #2, … to pronunciations that are a prefix of
// another or shared by several words (add_lex_disambig.pl).
func (l *Lang) addDisambig() {
	count := map[string]int{}
	prefix := map[string]bool{}
	for _, e := range l.Dict.Lexicon {
		count[strings.Join(e.Phones, " ")]++
		for n := len(e.Phones) - 1; n >= 0; n-- {
			prefix[strings.Join(e.Phones[:n], " ")] = true
		}
	}
	last := map[string]int{}
	maxD := 0
	l.lexDisambig = make([][]string, len(l.Dict.Lexicon))
	for i, e := range l.Dict.Lexicon {
		key := strings.Join(e.Phones, " ")
		pron := slices.Clone(e.Phones)
		if prefix[key] || count[key] > 1 {
			last[key]++
			maxD = max(maxD, last[key])
			pron = append(pron, fmt.Sprintf("#%d", last[key]))
		}
		l.lexDisambig[i] = pron
	}
	// One more for the silence arc of L_disambig (prepare_lang.sh).
	l.numLexDisambig = maxD + 1
}

func (l *Lang) makePhones() error {
	l.Phones = fst.NewSymbolTable("phones.txt")
	if err := l.Phones.Add("<eps>", 0); err != nil {
		return err
	}
	add := func(lines [][]string, dst *[]int32) error {
		for _, line := range lines {
			for _, p := range line {
				k := l.Phones.AvailableKey()
				if err := l.Phones.Add(p, k); err != nil {
					return err
				}
				*dst = append(*dst, int32(k))
			}
		}
		return nil
	}
	if err := add(l.Dict.SilencePhones, &l.SilencePhones); err != nil {
		return err
	}
	if err := add(l.Dict.NonsilencePhones, &l.NonsilPhones); err != nil {
		return err
	}
	for i := 0; i <= l.numLexDisambig; i++ {
		k := l.Phones.AvailableKey()
		if err := l.Phones.Add(fmt.Sprintf("#%d", i), k); err != nil {
			return err
		}
		l.PhoneDisambig = append(l.PhoneDisambig, int32(k))
	}
	k, _ := l.Phones.Key(l.Dict.OptionalSilence)
	l.OptionalSil = int32(k)
	return nil
}

// makeWords numbers the words in byte order (prepare_lang.sh runs sort
// with LC_ALL=C), then #0, <s>, </s>.
func (l *Lang) makeWords() error {
	var words []string
	for _, e := range l.Dict.Lexicon {
		words = append(words, e.Word)
	}
	slices.Sort(words)
	words = slices.Compact(words)
	l.Words = fst.NewSymbolTable("words.txt")
	all := append(append([]string{"<eps>"}, words...), "#0", "<s>", "</s>")
	for i, w := range all {
		if err := l.Words.Add(w, int64(i)); err != nil {
			return err
		}
	}
	l.WordDisambig = int32(len(words) + 1)
	return nil
}

// makeTopo builds utils/gen_topo.pl's topology: non-silence phones are
// left-to-right with self-loop 0.75 and forward 0.25; silence phones have
// a fully connected middle (state 0 to states 0..n-2, middle states to
// 1..n-1, each 1/(n-1)) and a last emitting state with 0.75/0.25.
func (l *Lang) makeTopo(opt LangOptions) {
	nonsil := make(hmm.TopologyEntry, 0, opt.NumNonsilStates+1)
	for s := 0; s < opt.NumNonsilStates; s++ {
		nonsil = append(nonsil, hmm.State{ForwardPdfClass: int32(s), SelfLoopPdfClass: int32(s),
			Transitions: []hmm.Transition{{Dest: int32(s), Prob: 0.75}, {Dest: int32(s + 1), Prob: 0.25}}})
	}
	nonsil = append(nonsil, hmm.State{ForwardPdfClass: hmm.NoPdf, SelfLoopPdfClass: hmm.NoPdf})
	n := opt.NumSilStates
	sil := make(hmm.TopologyEntry, 0, n+1)
	if n == 1 {
		sil = append(sil, hmm.State{Transitions: []hmm.Transition{{Dest: 0, Prob: 0.75}, {Dest: 1, Prob: 0.25}}})
	} else {
		p := float32(1.0 / float64(n-1))
		for s := 0; s < n; s++ {
			st := hmm.State{ForwardPdfClass: int32(s), SelfLoopPdfClass: int32(s)}
			switch {
			case s == 0:
				for d := 0; d < n-1; d++ {
					st.Transitions = append(st.Transitions, hmm.Transition{Dest: int32(d), Prob: p})
				}
			case s < n-1:
				for d := 1; d < n; d++ {
					st.Transitions = append(st.Transitions, hmm.Transition{Dest: int32(d), Prob: p})
				}
			default:
				st.Transitions = []hmm.Transition{{Dest: int32(s), Prob: 0.75}, {Dest: int32(s + 1), Prob: 0.25}}
			}
			sil = append(sil, st)
		}
	}
	sil = append(sil, hmm.State{ForwardPdfClass: hmm.NoPdf, SelfLoopPdfClass: hmm.NoPdf})
	maxPhone := int32(l.Phones.AvailableKey())
	t := hmm.Topology{Phone2Idx: make([]int32, maxPhone), Entries: []hmm.TopologyEntry{nonsil, sil}}
	for i := range t.Phone2Idx {
		t.Phone2Idx[i] = -1
	}
	for _, p := range l.NonsilPhones {
		t.Phone2Idx[p] = 0
	}
	for _, p := range l.SilencePhones {
		t.Phone2Idx[p] = 1
	}
	t.Phones = append(slices.Clone(l.SilencePhones), l.NonsilPhones...)
	slices.Sort(t.Phones)
	// Phone2Idx runs up to the largest phone only.
	t.Phone2Idx = t.Phone2Idx[:t.Phones[len(t.Phones)-1]+1]
	l.Topo = t
}

// lexiconFst writes make_lexicon_fst.py's L: with optional silence, a
// start state 0 entering the loop state 1 (no silence) or the silence
// state 2; each word leaves state 1 on its first phone (with -log of its
// pronunciation probability) and returns to 1 or 2 on its last phone
// (plus the no-silence or silence cost); state 2 returns to 1 on the
// silence phone (through a state reading the last disambiguation symbol in
// L_disambig). With disambig, pronunciations carry their #n and the loop
// state gets a #0:#0 self-loop (fstaddselfloops). Arcs are sorted by
// output label (fstarcsort --sort_type=olabel).
func (l *Lang) lexiconFst(silProb float64, disambig bool) (*fst.VectorFst, error) {
	f := fst.NewVectorFst()
	phone := func(p string) (fst.Label, error) {
		k, ok := l.Phones.Key(p)
		if !ok {
			return 0, fmt.Errorf("%w: phone %q not in phones.txt", ErrDict, p)
		}
		return fst.Label(k), nil
	}
	word := func(w string) fst.Label {
		k, _ := l.Words.Key(w)
		return fst.Label(k)
	}
	// Costs are computed in double and stored as float, as the script
	// prints doubles that fstcompile reads into floats.
	cost := func(c float64) float32 { return float32(c) }
	var loop, silState fst.StateID
	var silCost, noSilCost float64
	withSil := silProb > 0
	if withSil {
		silCost, noSilCost = -math.Log(silProb), -math.Log(1-silProb)
		start := f.AddState()
		loop, silState = f.AddState(), f.AddState()
		f.Start = start
		f.AddArc(start, fst.Arc{NextState: loop, Weight: cost(noSilCost)})
		f.AddArc(start, fst.Arc{NextState: silState, Weight: cost(silCost)})
		sil := fst.Label(l.OptionalSil)
		if disambig {
			mid := f.AddState()
			f.AddArc(silState, fst.Arc{ILabel: sil, NextState: mid})
			f.AddArc(mid, fst.Arc{ILabel: l.PhoneDisambig[len(l.PhoneDisambig)-1], NextState: loop})
		} else {
			f.AddArc(silState, fst.Arc{ILabel: sil, NextState: loop})
		}
	} else {
		loop = f.AddState()
		f.Start = loop
	}
	for i, e := range l.Dict.Lexicon {
		pron := e.Phones
		if disambig {
			pron = l.lexDisambig[i]
		}
		pronCost := -math.Log(e.Prob)
		cur := loop
		w := word(e.Word)
		for k := 0; k+1 < len(pron); k++ {
			p, err := phone(pron[k])
			if err != nil {
				return nil, err
			}
			next := f.AddState()
			arc := fst.Arc{ILabel: p, NextState: next}
			if k == 0 {
				arc.OLabel, arc.Weight = w, cost(pronCost)
			}
			f.AddArc(cur, arc)
			cur = next
		}
		p, err := phone(pron[len(pron)-1])
		if err != nil {
			return nil, err
		}
		o, extra := fst.Label(0), 0.0
		if len(pron) == 1 {
			o, extra = w, pronCost
		}
		if withSil {
			f.AddArc(cur, fst.Arc{ILabel: p, OLabel: o, Weight: cost(noSilCost + extra), NextState: loop})
			f.AddArc(cur, fst.Arc{ILabel: p, OLabel: o, Weight: cost(silCost + extra), NextState: silState})
		} else {
			f.AddArc(cur, fst.Arc{ILabel: p, OLabel: o, Weight: cost(extra), NextState: loop})
		}
	}
	f.SetFinal(loop, fst.WeightOne)
	if disambig {
		addDisambigSelfLoops(f, l.PhoneDisambig[0], l.WordDisambig)
	}
	fst.ArcSortOutput(f)
	return f, nil
}

// addDisambigSelfLoops adds in:out self-loops on every state that is
// final or has an arc with a non-epsilon output (OpenFst-style
// fstaddselfloops as prepare_lang.sh runs it, so G's #0 passes through L).
func addDisambigSelfLoops(f *fst.VectorFst, in, out fst.Label) {
	for s := range f.States {
		st := &f.States[s]
		need := st.Final != fst.WeightZero || slices.ContainsFunc(st.Arcs, func(a fst.Arc) bool { return a.OLabel != 0 })
		if need {
			st.Arcs = append(st.Arcs, fst.Arc{ILabel: in, OLabel: out, NextState: fst.StateID(s)})
		}
	}
}
