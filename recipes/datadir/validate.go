package datadir

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ValidateOptions are validate_data_dir.sh's options. A --no-X option only
// stops X from being required: a file that is there is always checked.
type ValidateOptions struct {
	NoFeats   bool // feats.scp need not exist
	NoText    bool // text need not exist
	NoWav     bool // wav.scp need not exist
	NoSpkSort bool // utt2spk need not also be sorted by speaker
	NonPrint  bool // allow non-printable characters in text
}

// Register adds the options to fs under utils/validate_data_dir.sh's names.
func (o *ValidateOptions) Register(fs *flag.FlagSet) {
	fs.BoolVar(&o.NoFeats, "no-feats", o.NoFeats, "Do not require feats.scp")
	fs.BoolVar(&o.NoText, "no-text", o.NoText, "Do not require text")
	fs.BoolVar(&o.NoWav, "no-wav", o.NoWav, "Do not require wav.scp")
	fs.BoolVar(&o.NoSpkSort, "no-spk-sort", o.NoSpkSort, "Do not require utt2spk to be sorted by speaker too")
	fs.BoolVar(&o.NonPrint, "non-print", o.NonPrint, "Allow non-printable characters in text")
}

// ErrInvalid marks a data directory that fails validation.
var ErrInvalid = errors.New("invalid data directory")

// invalidError is a validation failure: its message, which names the file
// and line, is ErrInvalid without saying so.
type invalidError string

func (e invalidError) Error() string      { return string(e) }
func (invalidError) Is(target error) bool { return target == ErrInvalid }

func invalidf(format string, a ...any) error { return invalidError(fmt.Sprintf(format, a...)) }

// validator holds what the checks share.
type validator struct {
	dir   string
	opt   ValidateOptions
	log   io.Writer
	utts  []keyAt // from utt2spk
	spks  []keyAt // from spk2utt
	recos []keyAt // from segments, when there is one
}

// keyAt is a key and where it came from (line 0: a derived list).
type keyAt struct {
	key  string
	line int
}

func keysOf(t *Table) []keyAt {
	out := make([]keyAt, len(t.Lines))
	for i, l := range t.Lines {
		out[i] = keyAt{l.Key, l.No}
	}
	return out
}

// Validate is utils/validate_data_dir.sh: it checks the files of a data
// directory for the problems Kaldi's tools trip on, and returns the first
// one found (an error wrapping ErrInvalid, naming the file and line), or
// prints "Successfully validated data-directory DIR" to log. Warnings (one
// speaker; channel "1" in reco2file_and_channel) go to log too.
func Validate(dir string, opt ValidateOptions, log io.Writer) error {
	if log == nil {
		log = io.Discard
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return invalidf("no such directory %s", dir)
	}
	v := &validator{dir: dir, opt: opt, log: log}
	for _, step := range []func() error{v.speakers, v.text, v.wav, v.feats, v.bySpeaker, v.byUtterance, v.durations} {
		if err := step(); err != nil {
			return err
		}
	}
	fmt.Fprintf(log, "validate-data-dir: Successfully validated data-directory %s\n", dir)
	return nil
}

// read reads a file of the directory, which must exist.
func (v *validator) read(name string) (*Table, error) {
	t, err := ReadTableFile(path(v.dir, name))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, invalidf("no such file %s", path(v.dir, name))
		}
		return nil, err
	}
	return t, nil
}

// sorted reads a file and checks it ends in a newline, is sorted and has no
// duplicate keys.
func (v *validator) sorted(name string) (*Table, error) {
	t, err := v.read(name)
	if err != nil {
		return nil, err
	}
	if err := t.CheckSortedUnique(); err != nil {
		return nil, invalidf("%v", err)
	}
	return t, nil
}

// sameKeys checks that got (from file gotName) lists exactly the keys of
// want (from wantName), in order, and describes the first difference.
func (v *validator) sameKeys(what, wantName string, want []keyAt, gotName string, got []keyAt) error {
	where := func(name string, k keyAt, i int) string {
		if k.line > 0 {
			return fmt.Sprintf("%s line %d has %q", name, k.line, k.key)
		}
		return fmt.Sprintf("%s's %s %d is %q", name, strings.TrimSuffix(what, "s"), i+1, k.key)
	}
	for i := 0; i < len(want) || i < len(got); i++ {
		switch {
		case i >= len(got):
			return invalidf("Error: in %s, %s extracted from %s and %s differ: %s ends after %d, where %s [Lengths are %s=%d versus %s=%d]",
				v.dir, what, wantName, gotName, gotName, len(got), where(wantName, want[i], i), wantName, len(want), gotName, len(got))
		case i >= len(want):
			return invalidf("Error: in %s, %s extracted from %s and %s differ: %s, past the end of %s [Lengths are %s=%d versus %s=%d]",
				v.dir, what, wantName, gotName, where(gotName, got[i], i), wantName, wantName, len(want), gotName, len(got))
		case want[i].key != got[i].key:
			return invalidf("Error: in %s, %s extracted from %s and %s differ: %s where %s [Lengths are %s=%d versus %s=%d]",
				v.dir, what, wantName, gotName, where(gotName, got[i], i), where(wantName, want[i], i), wantName, len(want), gotName, len(got))
		}
	}
	return nil
}

// speakers checks utt2spk and spk2utt.
func (v *validator) speakers() error {
	tables := map[string]*Table{}
	for _, f := range []string{"spk2utt", "utt2spk"} {
		t, err := v.read(f)
		if err != nil {
			return err
		}
		if t.Len() == 0 {
			return invalidf("empty file %s", path(v.dir, f))
		}
		tables[f] = t
	}
	u2sTable := tables["utt2spk"]
	u2s, err := ParseUtt2Spk(u2sTable)
	if err != nil {
		return invalidf("%s has wrong format: %v", path(v.dir, "utt2spk"), err)
	}
	if tables["spk2utt"].Len() == 1 {
		fmt.Fprintf(v.log, "validate-data-dir: WARNING: you have only one speaker.  This probably a bad idea.\n"+
			"   Search for the word 'bold' in http://kaldi-asr.org/doc/data_prep.html\n   for more information.\n")
	}
	if err := u2sTable.CheckSortedUnique(); err != nil {
		return invalidf("%v", err)
	}
	if !v.opt.NoSpkSort {
		// sort -k2 -C: ordered by speaker (then by the whole line).
		for i := 1; i < len(u2s.Utts); i++ {
			a, b := u2s.Spks[i-1], u2s.Spks[i]
			if b < a || (a == b && u2sTable.Lines[i].Text < u2sTable.Lines[i-1].Text) {
				return invalidf("%s:%d: utt2spk is not in sorted order when sorted first on speaker-id "+
					"(speaker %q after %q on line %d); fix this by making speaker-ids prefixes of utt-ids, or use --no-spk-sort",
					path(v.dir, "utt2spk"), u2s.Lines[i], b, a, u2s.Lines[i-1])
			}
		}
	}
	s2uTable := tables["spk2utt"]
	if err := s2uTable.CheckSortedUnique(); err != nil {
		return invalidf("%v", err)
	}
	fromS2U, err := Spk2UttToUtt2Spk(s2uTable)
	if err != nil {
		return invalidf("spk2utt and utt2spk do not seem to match: %v", err)
	}
	for i := 0; i < len(u2s.Utts) || i < len(fromS2U.Utts); i++ {
		if i >= len(u2s.Utts) || i >= len(fromS2U.Utts) || u2s.Utts[i] != fromS2U.Utts[i] || u2s.Spks[i] != fromS2U.Spks[i] {
			detail := ""
			switch {
			case i >= len(u2s.Utts):
				detail = fmt.Sprintf("spk2utt line %d lists %s of %s, past the end of utt2spk", fromS2U.Lines[i], fromS2U.Utts[i], fromS2U.Spks[i])
			case i >= len(fromS2U.Utts):
				detail = fmt.Sprintf("utt2spk line %d (%s %s) is missing from spk2utt", u2s.Lines[i], u2s.Utts[i], u2s.Spks[i])
			default:
				detail = fmt.Sprintf("utt2spk line %d says %q, spk2utt line %d gives %q", u2s.Lines[i], u2s.Utts[i]+" "+u2s.Spks[i],
					fromS2U.Lines[i], fromS2U.Utts[i]+" "+fromS2U.Spks[i])
			}
			return invalidf("in %s, spk2utt and utt2spk do not seem to match: %s (make spk2utt with strode utt2spk-to-spk2utt)", v.dir, detail)
		}
	}
	v.utts = keysOf(u2sTable)
	v.spks = keysOf(s2uTable)
	return nil
}

var illegalTextSymbols = []string{"<s>", "</s>", "#0"}

// text checks text: printable, valid text lines (validate_text.pl), sorted,
// no <s> </s> #0, the utterances of utt2spk.
func (v *validator) text() error {
	p := path(v.dir, "text")
	if !exists(p) {
		if v.opt.NoText {
			return nil
		}
		return invalidf("no such file %s (if this is by design, specify --no-text)", p)
	}
	t, err := v.read("text")
	if err != nil {
		return err
	}
	if t.Len() == 0 {
		return invalidf("ERROR: file '%s' is empty or does not exist", p)
	}
	if err := CheckText(t, v.opt.NonPrint); err != nil {
		return err
	}
	if err := t.CheckSortedUnique(); err != nil {
		return invalidf("%v", err)
	}
	for _, l := range t.Lines {
		for _, sym := range illegalTextSymbols {
			if hasWord(l.Rest(), sym) {
				return invalidf("Error: in %s, text contains illegal symbol %s (%s:%d, utterance %s)", v.dir, sym, p, l.No, l.Key)
			}
		}
	}
	return v.sameKeys("utterance lists", "utt2spk", v.utts, "text", keysOf(t))
}

// CheckText checks text lines as validate_data_dir.sh and validate_text.pl
// do: no non-printable characters (unless allowed), and, when the file is
// valid UTF-8, every line ends in a newline and holds no CR and no white
// space but tab and space.
func CheckText(t *Table, allowNonPrint bool) error {
	if !allowNonPrint {
		n, first := 0, 0
		for _, l := range t.Lines {
			if hasNonPrintable(l.Text) {
				if n == 0 {
					first = l.No
				}
				n++
			}
		}
		if n > 0 {
			return invalidf("text contains %d lines with non-printable characters (the first is %s:%d; --non-print allows them)", n, t.Name, first)
		}
	}
	valid := true
	for _, l := range t.Lines {
		valid = valid && utf8.ValidString(l.Text)
	}
	if !valid {
		return nil // a one-byte encoding: validate_text.pl does not look further
	}
	if t.MissingNewline {
		return invalidf("%s:%d: the line has invalid newline (the file does not end in a newline)", t.Name, len(t.Lines))
	}
	for _, l := range t.Lines {
		if strings.IndexByte(l.Text, '\r') >= 0 {
			return invalidf("%s:%d: The line for utterance %s contains CR (0x0D) character", t.Name, l.No, l.Key)
		}
		for _, r := range l.Text {
			if unicode.IsSpace(r) && r != ' ' && r != '\t' {
				return invalidf("%s:%d: The line for utterance %s contains disallowed Unicode whitespaces (%U); text file '%s' contains disallowed UTF-8 whitespace character(s)", t.Name, l.No, l.Key, r, t.Name)
			}
		}
	}
	return nil
}

// hasNonPrintable: grep '[^[:print:][:space:]]' in a UTF-8 locale (bytes
// that are not UTF-8 match nothing).
func hasNonPrintable(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size == 1 {
			continue
		}
		if !unicode.IsPrint(r) && !unicode.IsSpace(r) {
			return true
		}
	}
	return false
}

// hasWord: grep -w sym (sym not inside a longer word).
func hasWord(s, sym string) bool {
	isWord := func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	for from := 0; ; {
		i := strings.Index(s[from:], sym)
		if i < 0 {
			return false
		}
		i += from
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[i+len(sym):])
		if (i == 0 || !isWord(before)) && (i+len(sym) == len(s) || !isWord(after)) {
			return true
		}
		from = i + 1
	}
}

var tildeRe = regexp.MustCompile(`^\S+\s+~`)

// wav checks wav.scp and, with segments, segments and the recording lists.
func (v *validator) wav() error {
	wavPath, segPath := path(v.dir, "wav.scp"), path(v.dir, "segments")
	segmented := exists(segPath)
	if segmented && !exists(wavPath) {
		return invalidf("in directory %s, segments file exists but no wav.scp", v.dir)
	}
	if !exists(wavPath) {
		if v.opt.NoWav {
			return nil
		}
		return invalidf("no such file %s (if this is by design, specify --no-wav)", wavPath)
	}
	wav, err := v.sorted("wav.scp")
	if err != nil {
		return err
	}
	for _, l := range wav.Lines {
		if tildeRe.MatchString(l.Text) {
			return invalidf("%s:%d: Please do not use tilde (~) in your wav.scp.", wavPath, l.No)
		}
		if len(l.Fields()) < 2 {
			return invalidf("%s:%d: bad line %q: expected <id> <file name or command>", wavPath, l.No, l.Text)
		}
	}
	idName, ids := "utt2spk", v.utts // what wav.scp and reco2file_and_channel are indexed by
	what := "utterance-ids"
	if segmented {
		seg, err := v.sorted("segments")
		if err != nil {
			return err
		}
		if _, err := ParseSegments(seg); err != nil {
			return invalidf("%v (badly formatted segments file)", err)
		}
		if err := v.sameKeys("utterance lists", "utt2spk", v.utts, "segments", keysOf(seg)); err != nil {
			return err
		}
		for _, r := range Recordings(seg) {
			v.recos = append(v.recos, keyAt{r, 0})
		}
		idName, ids, what = "segments", v.recos, "recording-ids"
	}
	if err := v.sameKeys(what, idName, ids, "wav.scp", keysOf(wav)); err != nil {
		return err
	}
	if !exists(path(v.dir, "reco2file_and_channel")) {
		return nil
	}
	r2fc, err := v.sorted("reco2file_and_channel")
	if err != nil {
		return err
	}
	warned := false
	for _, l := range r2fc.Lines {
		f := l.Fields()
		if len(f) == 3 && f[2] == "1" {
			warned = true
			continue
		}
		if len(f) != 3 || (f[2] != "A" && f[2] != "B") {
			return invalidf("%s:%d: Bad line %q: expected <recording-id> <file-id> <A|B> (badly formatted reco2file_and_channel file)", r2fc.Name, l.No, l.Text)
		}
	}
	if warned {
		fmt.Fprintln(v.log, "validate-data-dir: The channel should be marked as A or B, not 1! You should change it ASAP! ("+r2fc.Name+")")
	}
	return v.sameKeys(what, idName, ids, "reco2file_and_channel", keysOf(r2fc))
}

// feats checks feats.scp.
func (v *validator) feats() error {
	p := path(v.dir, "feats.scp")
	if !exists(p) {
		if v.opt.NoFeats {
			return nil
		}
		return invalidf("no such file %s (if this is by design, specify --no-feats)", p)
	}
	t, err := v.sorted("feats.scp")
	if err != nil {
		return err
	}
	return v.sameKeys("utterance-ids", "utt2spk", v.utts, "features", keysOf(t))
}

// valueCheck is a per-line check of a two-field file.
type valueCheck struct {
	file   string
	byUtt  bool                    // indexed by utterance (else by speaker)
	ok     func(value string) bool // nil: any value
	expect string                  // what ok wants, for the message
}

func positive(s string) bool {
	x, err := strconv.ParseFloat(s, 64)
	return err == nil && x > 0
}

func warpFactor(s string) bool {
	x, err := strconv.ParseFloat(s, 64)
	return err == nil && x > 0.5 && x < 1.5
}

// checkValues reads a file if present: sorted, two fields with ok values
// (when ok is set), and the keys of utt2spk or spk2utt.
func (v *validator) checkValues(c valueCheck) error {
	if !exists(path(v.dir, c.file)) {
		return nil
	}
	t, err := v.sorted(c.file)
	if err != nil {
		return err
	}
	if c.ok != nil {
		for _, l := range t.Lines {
			f := l.Fields()
			if len(f) != 2 || !c.ok(f[1]) {
				return invalidf("Bad line %s:%d:%s (expected <id> <%s>)", t.Name, l.No, l.Text, c.expect)
			}
		}
	}
	if c.byUtt {
		return v.sameKeys("utterance-ids", "utt2spk", v.utts, c.file, keysOf(t))
	}
	return v.sameKeys("speaker lists", "spk2utt", v.spks, c.file, keysOf(t))
}

func (v *validator) bySpeaker() error {
	for _, c := range []valueCheck{
		{file: "cmvn.scp"},
		{file: "spk2gender", ok: func(s string) bool { return s == "m" || s == "f" }, expect: "m or f"},
		{file: "spk2warp", ok: warpFactor, expect: "warp factor between 0.5 and 1.5"},
	} {
		if err := v.checkValues(c); err != nil {
			return err
		}
	}
	return nil
}

func (v *validator) byUtterance() error {
	for _, c := range []valueCheck{
		{file: "utt2warp", byUtt: true, ok: warpFactor, expect: "warp factor between 0.5 and 1.5"},
		{file: "vad.scp", byUtt: true},
		{file: "utt2lang", byUtt: true},
		{file: "utt2uniq", byUtt: true},
	} {
		if err := v.checkValues(c); err != nil {
			return err
		}
	}
	return nil
}

func (v *validator) durations() error {
	for _, c := range []valueCheck{
		{file: "utt2dur", byUtt: true, ok: positive, expect: "duration in seconds > 0"},
		{file: "utt2num_frames", byUtt: true, ok: func(s string) bool {
			n, err := strconv.Atoi(s)
			return err == nil && n > 0
		}, expect: "number of frames > 0"},
	} {
		if err := v.checkValues(c); err != nil {
			return err
		}
	}
	if !exists(path(v.dir, "reco2dur")) {
		return nil
	}
	t, err := v.sorted("reco2dur")
	if err != nil {
		return err
	}
	for _, l := range t.Lines {
		if f := l.Fields(); len(f) != 2 || !positive(f[1]) {
			return invalidf("Bad line %s:%d:%s (expected <recording-id> <duration in seconds > 0>)", t.Name, l.No, l.Text)
		}
	}
	if v.recos != nil {
		return v.sameKeys("recording-ids", "segments", v.recos, "reco2dur", keysOf(t))
	}
	return v.sameKeys("recording-ids", "wav.scp", v.utts, "reco2dur", keysOf(t))
}
