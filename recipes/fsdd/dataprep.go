package fsdd

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/atomicfile"
)

// Digits are the words of FSDD: a recording's first name field indexes them.
var Digits = [10]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}

// ErrOptions is wrapped by errors about DataPrep's options.
var ErrOptions = errors.New("fsdd-data-prep")

// Options are strode fsdd-data-prep's options.
type Options struct {
	// TestSpeakers are the held-out speakers (space or comma separated);
	// every other speaker of the corpus trains.
	TestSpeakers string
	// TrainTakes, TestTakes: the takes of every digit used from the training
	// and the test speakers ("5-49", "0-9", "0,2,4-6").
	TrainTakes, TestTakes string
	// CVTakes are the training takes held out for the networks'
	// cross-validation (train/cv.list, train/cv_heldout.list).
	CVTakes string
	// Speeds: every training take once per speed factor (1.0: as
	// recorded; others through wav-speed-perturb, keys spF-SPK_DIGIT_TAKE).
	Speeds string
	// Warps: the training takes at their own speed once more per VTLN warp
	// factor (utt2warp; keys wF-SPK_DIGIT_TAKE).
	Warps string
	// TTSVoices synthetic espeak-ng speakers (ttsNN), each speaking every
	// digit TTSTakes times, written once into TTSDir.
	TTSVoices, TTSTakes int
	TTSDir              string
}

// DefaultOptions are the full recipe's sizes (run.sh without --quick, less
// its speed perturbation).
func DefaultOptions() Options {
	return Options{
		TestSpeakers: "george", TrainTakes: "5-49", TestTakes: "0-49", CVTakes: "5-9",
		Speeds: "1.0", Warps: "1.0", TTSTakes: 3,
	}
}

// Register adds the options to fs under their command-line names.
func (o *Options) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.TestSpeakers, "test-speakers", o.TestSpeakers, "Held-out speakers (space or comma separated); all others train")
	fs.StringVar(&o.TrainTakes, "train-takes", o.TrainTakes, "Takes of every digit of the training speakers, e.g. 5-49 or 5-9,20")
	fs.StringVar(&o.TestTakes, "test-takes", o.TestTakes, "Takes of every digit of the test speakers")
	fs.StringVar(&o.CVTakes, "cv-takes", o.CVTakes, "Training takes held out for cross-validation (train/cv.list: all their copies; train/cv_heldout.list: those at their own speed)")
	fs.StringVar(&o.Speeds, "speeds", o.Speeds, "Speed factors of the training takes (1.0: as recorded; others speed-perturbed into train/spF.ark, speakers spF-SPK)")
	fs.StringVar(&o.Warps, "warps", o.Warps, "VTLN warp factors of the training takes at their own speed (utt2warp; speakers wF-SPK)")
	fs.IntVar(&o.TTSVoices, "tts-voices", o.TTSVoices, "Synthetic training speakers ttsNN spoken by espeak-ng (0 to 28)")
	fs.IntVar(&o.TTSTakes, "tts-takes", o.TTSTakes, "Takes of every digit per synthetic voice (numbered from 10, so all of them train)")
	fs.StringVar(&o.TTSDir, "tts-dir", o.TTSDir, "Folder of the synthetic voices' waves (written once, reused; required with --tts-voices)")
}

// Logger receives progress (kaldicmd's Context is one).
type Logger interface {
	Log(format string, a ...any)
	Warn(format string, a ...any)
}

// SetSummary describes one data directory written.
type SetSummary struct {
	Name       string
	Utterances int
	Speakers   []string
}

// recording is one take: DIGIT_SPEAKER_TAKE.wav.
type recording struct {
	path, digit, speaker, take string
}

// parseRecording splits an FSDD file name as the recipe always has:
// the digit before the first underscore, the take after the last, the
// speaker between them.
func parseRecording(dir, name string) (recording, error) {
	base := strings.TrimSuffix(name, ".wav")
	d, rest, ok1 := strings.Cut(base, "_")
	i := strings.LastIndexByte(rest, '_')
	if !ok1 || i <= 0 || len(d) != 1 || d[0] < '0' || d[0] > '9' || !isNumber(rest[i+1:]) {
		return recording{}, fmt.Errorf("%s: not an FSDD recording name (DIGIT_SPEAKER_TAKE.wav, e.g. 7_george_12.wav)", filepath.Join(dir, name))
	}
	return recording{path: filepath.Join(dir, name), digit: d, speaker: rest[:i], take: rest[i+1:]}, nil
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// recordings lists the takes in dir (FSDD's recordings/), in file-name
// (C) order, as the shell's glob listed them.
func recordings(dir string) ([]recording, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []recording
	for _, e := range ents {
		n := e.Name()
		if !strings.HasSuffix(n, ".wav") || strings.HasPrefix(n, ".") || e.IsDir() {
			continue
		}
		r, err := parseRecording(dir, n)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// speakersOf lists the distinct speakers of recs, sorted.
func speakersOf(recs []recording) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range recs {
		if !seen[r.speaker] {
			seen[r.speaker] = true
			out = append(out, r.speaker)
		}
	}
	sort.Strings(out)
	return out
}

// list splits a space- or comma-separated option value.
func list(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
}

// parseTakes parses "5-49", "0,2,4-6" into the set of take numbers as
// they appear in file names.
func parseTakes(opt, s string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, item := range list(s) {
		a, b, isRange := strings.Cut(item, "-")
		lo, err1 := strconv.Atoi(a)
		hi, err2 := lo, error(nil)
		if isRange {
			hi, err2 = strconv.Atoi(b)
		}
		if err1 != nil || err2 != nil || lo < 0 || hi < lo {
			return nil, fmt.Errorf("%w: --%s=%s: %q is not a take or a range of takes (N or N-M)", ErrOptions, opt, s, item)
		}
		for t := lo; t <= hi; t++ {
			out[strconv.Itoa(t)] = true
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: --%s is empty", ErrOptions, opt)
	}
	return out, nil
}

// factors parses a list of speed or warp factors, kept as written (they
// name speakers and fill utt2warp).
func factors(opt, s string) ([]string, error) {
	out := list(s)
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: --%s is empty (1.0 is the takes as they are)", ErrOptions, opt)
	}
	for _, f := range out {
		if v, err := strconv.ParseFloat(f, 64); err != nil || !(v > 0) {
			return nil, fmt.Errorf("%w: --%s: %q is not a positive factor", ErrOptions, opt, f)
		}
	}
	return out, nil
}

// isOne: the factor that leaves a take as it is.
func isOne(f string) bool {
	v, err := strconv.ParseFloat(f, 64)
	return err == nil && v == 1
}

// dataSet collects the lines of one data directory.
type dataSet struct {
	wav, text, utt2spk, utt2warp []string
	speedLists                   map[string][]string // speed factor -> "utt path" lines to perturb
}

// DataPrep writes dataDir/train and dataDir/test (wav.scp, text, utt2spk,
// spk2utt, utt2warp; train also cv.list, cv_heldout.list and, for every
// speed factor but 1, spF.list, spF.ark and spF.scp) from the recordings of
// fsddDir, and the dict dir dataDir/local/dict (WriteDict). Paths in wav.scp
// are absolute. Speed- and warp-perturbed copies are speakers of their own,
// named with a prefix as Kaldi's perturb_data_dir_speed.sh names them
// (sp0.9-SPK, utterances sp0.9-SPK_DIGIT_TAKE), so that utt2spk sorted on
// utterances is also sorted on speakers (a suffix, SPK-sp0.9, would sort the
// speaker after SPK but its utterances before SPK_..., which
// validate-data-dir rejects).
func DataPrep(o Options, fsddDir, dataDir string, log Logger) ([]SetSummary, error) {
	trainTakes, err := parseTakes("train-takes", o.TrainTakes)
	if err != nil {
		return nil, err
	}
	testTakes, err := parseTakes("test-takes", o.TestTakes)
	if err != nil {
		return nil, err
	}
	cvTakes, err := parseTakes("cv-takes", o.CVTakes)
	if err != nil {
		return nil, err
	}
	speeds, err := factors("speeds", o.Speeds)
	if err != nil {
		return nil, err
	}
	warps, err := factors("warps", o.Warps)
	if err != nil {
		return nil, err
	}
	if err := checkVoices(o); err != nil {
		return nil, err
	}
	if fsddDir, err = filepath.Abs(fsddDir); err != nil {
		return nil, err
	}
	recDir := filepath.Join(fsddDir, "recordings")
	recs, err := recordings(recDir)
	if err != nil {
		return nil, fmt.Errorf("%w (the FSDD folder must hold recordings/)", err)
	}
	test, err := checkTestSpeakers(recDir, recs, list(o.TestSpeakers), o.TestSpeakers)
	if err != nil {
		return nil, err
	}
	if o.TTSVoices > 0 {
		tts, err := synthesizeVoices(o.TTSDir, o.TTSVoices, o.TTSTakes, log)
		if err != nil {
			return nil, err
		}
		recs = append(recs, tts...)
	}

	sets := map[string]*dataSet{"train": {speedLists: map[string][]string{}}, "test": {}}
	for _, r := range recs {
		ds, takes, ss, ws := sets["train"], trainTakes, speeds, warps
		if test[r.speaker] {
			ds, takes, ss, ws = sets["test"], testTakes, []string{"1.0"}, []string{"1.0"}
		}
		if !takes[r.take] {
			continue
		}
		for _, sp := range ss {
			wsp := ws
			if !isOne(sp) {
				wsp = []string{"1.0"} // warps apply to the takes at their own speed
			}
			for _, w := range wsp {
				s := r.speaker
				if !isOne(w) {
					s = "w" + w + "-" + s
				}
				if !isOne(sp) {
					s = "sp" + sp + "-" + s
				}
				utt := s + "_" + r.digit + "_" + r.take
				if isOne(sp) {
					ds.wav = append(ds.wav, utt+" "+r.path)
				} else {
					ds.speedLists[sp] = append(ds.speedLists[sp], utt+" "+r.path)
				}
				ds.text = append(ds.text, utt+" "+Digits[r.digit[0]-'0'])
				ds.utt2spk = append(ds.utt2spk, utt+" "+s)
				ds.utt2warp = append(ds.utt2warp, utt+" "+w)
			}
		}
	}

	var sums []SetSummary
	for _, name := range []string{"train", "test"} {
		dir := filepath.Join(dataDir, name)
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return nil, err
		}
		stale, _ := filepath.Glob(filepath.Join(dir, "sp*.list"))
		for _, f := range stale {
			if err := os.Remove(f); err != nil {
				return nil, err
			}
		}
		ds := sets[name]
		if name == "train" {
			if ds.wav, err = speedPerturb(dir, speeds, ds.speedLists, ds.wav, log); err != nil {
				return nil, err
			}
		}
		for _, l := range [][]string{ds.wav, ds.text, ds.utt2spk, ds.utt2warp} {
			sort.Strings(l)
		}
		spk2utt, speakers := spk2utt(ds.utt2spk)
		files := []struct {
			name  string
			lines []string
		}{{"wav.scp", ds.wav}, {"text", ds.text}, {"utt2spk", ds.utt2spk}, {"utt2warp", ds.utt2warp}, {"spk2utt", spk2utt}}
		if name == "train" {
			cv, heldout := cvLists(ds.wav, cvTakes)
			files = append(files, struct {
				name  string
				lines []string
			}{"cv.list", cv}, struct {
				name  string
				lines []string
			}{"cv_heldout.list", heldout})
		}
		for _, f := range files {
			if err := writeLines(filepath.Join(dir, f.name), f.lines); err != nil {
				return nil, err
			}
		}
		sums = append(sums, SetSummary{Name: name, Utterances: len(ds.wav), Speakers: speakers})
	}
	if err := WriteDict(filepath.Join(dataDir, "local", "dict")); err != nil {
		return nil, err
	}
	return sums, nil
}

// checkTestSpeakers: every test speaker has takes in the corpus, and at
// least one other speaker is left to train on.
func checkTestSpeakers(recDir string, recs []recording, names []string, asGiven string) (map[string]bool, error) {
	speakers := speakersOf(recs)
	have := map[string]bool{}
	for _, s := range speakers {
		have[s] = true
	}
	test := map[string]bool{}
	for _, t := range names {
		if !have[t] {
			return nil, fmt.Errorf("test speaker %s has no takes in %s (speakers there: %s)", t, recDir, strings.Join(speakers, " "))
		}
		test[t] = true
	}
	if len(test) == 0 {
		return nil, fmt.Errorf("%w: --test-speakers is empty (speakers in %s: %s)", ErrOptions, recDir, strings.Join(speakers, " "))
	}
	if len(test) == len(speakers) {
		return nil, fmt.Errorf("no training speaker left in %s once %s are held out", recDir, asGiven)
	}
	return test, nil
}

// speedPerturb writes dir/spF.list for every speed factor F but 1 and its
// copies dir/spF.ark (scp: dir/spF.scp) through wav-speed-perturb, and
// returns wav with the scp lines added.
func speedPerturb(dir string, speeds []string, lists map[string][]string, wav []string, log Logger) ([]string, error) {
	for _, sp := range speeds {
		if isOne(sp) {
			continue
		}
		base := filepath.Join(dir, "sp"+sp)
		if err := writeLines(base+".list", lists[sp]); err != nil {
			return nil, err
		}
		v, _ := strconv.ParseFloat(sp, 64)
		n, err := features.SpeedPerturbWaves(features.SpeedPerturbOptions{Speed: v}, "scp:"+base+".list", "ark,scp:"+base+".ark,"+base+".scp", log)
		if err != nil {
			return nil, err
		}
		log.Log("Speed-perturbed %d wave files by %s into %s.ark", n, sp, base)
		if n == 0 {
			continue
		}
		b, err := os.ReadFile(base + ".scp")
		if err != nil {
			return nil, err
		}
		wav = append(wav, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")...)
	}
	return wav, nil
}

// spk2utt groups sorted utt2spk lines ("utt spk") by speaker, as
// utt2spk_to_spk2utt.pl does, with the lines sorted.
func spk2utt(utt2spk []string) (lines, speakers []string) {
	utts := map[string][]string{}
	for _, l := range utt2spk {
		u, s, _ := strings.Cut(l, " ")
		if utts[s] == nil {
			speakers = append(speakers, s)
		}
		utts[s] = append(utts[s], u)
	}
	sort.Strings(speakers)
	for _, s := range speakers {
		lines = append(lines, s+" "+strings.Join(utts[s], " "))
	}
	return lines, speakers
}

// cvLists: the utterances of wav.scp whose take is a cross-validation take
// (all copies), and those of them at their own speed and warp.
func cvLists(wav []string, cvTakes map[string]bool) (cv, heldout []string) {
	for _, l := range wav {
		utt, _, _ := strings.Cut(l, " ")
		if !cvTakes[utt[strings.LastIndexByte(utt, '_')+1:]] {
			continue
		}
		cv = append(cv, utt)
		if !isCopy(utt) {
			heldout = append(heldout, utt)
		}
	}
	return cv, heldout
}

// isCopy: the key of a speed-perturbed (spF-) or warped (wF-) copy.
func isCopy(utt string) bool {
	for _, p := range []string{"w", "sp"} {
		if strings.HasPrefix(utt, p) && len(utt) > len(p) && utt[len(p)] >= '0' && utt[len(p)] <= '9' {
			return true
		}
	}
	return false
}

// writeLines writes each line and a newline, atomically.
func writeLines(path string, lines []string) error {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return atomicfile.WriteBytes(path, []byte(b.String()))
}
