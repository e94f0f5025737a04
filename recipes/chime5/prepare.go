package chime5

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/strode-asr/strode/internal/atomicfile"
)

// ErrLayout marks a corpus directory that is not laid out as CHiME-5 is.
var ErrLayout = errors.New("not a CHiME-5 corpus layout")

// Sets are the corpus's subsets, the names of its audio/ and
// transcriptions/ sub-directories.
var Sets = []string{"train", "dev", "eval"}

// Options configure Prepare. Defaults (DefaultOptions) give the data
// directories Kaldi's egs/chime5/s5/run.sh trains and tests its worn-mic
// systems on (after its stage 5).
type Options struct {
	MicType string // --mictype: only "worn" (the binaural microphones)
	// Channels: the binaural channels kept, "L", "R" or "L,R". prepare_data.sh
	// makes both; run.sh stage 5 then keeps "L" for train and dev.
	Channels string
	// ExcludeSpeakerSessions: speaker_session pairs dropped, run.sh stage 5's
	// unreliable worn mics.
	ExcludeSpeakerSessions string
	// WavPipe: how wav.scp gets one channel of a binaural file: "sox"
	// (prepare_data.sh's `sox F -t wav - remix N |`), "strode" (a pipe
	// through `strode wav-select-channel`, no sox needed), or "auto" (sox
	// when it is on PATH, else strode).
	WavPipe string
	// Strode is the strode binary the "strode" pipes run (an absolute path
	// keeps wav.scp usable from any directory).
	Strode string
}

// DefaultOptions are Kaldi's choices (see the package documentation).
func DefaultOptions() Options {
	return Options{
		MicType:                "worn",
		Channels:               "L",
		ExcludeSpeakerSessions: "P11_S03,P52_S19,P53_S24,P54_S24",
		WavPipe:                "auto",
		Strode:                 "strode",
	}
}

// Register adds the options to fs under their command-line names.
func (o *Options) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.MicType, "mictype", o.MicType, "Microphones to prepare (prepare_data.sh's --mictype); only \"worn\", the binaural microphones, is supported")
	fs.StringVar(&o.Channels, "channels", o.Channels, "Binaural channels to keep: L, R or L,R (prepare_data.sh makes both; run.sh keeps L for recognition)")
	fs.StringVar(&o.ExcludeSpeakerSessions, "exclude-speaker-sessions", o.ExcludeSpeakerSessions, "Comma-separated speaker_session pairs to drop (run.sh stage 5's unreliable worn microphones); empty keeps all")
	fs.StringVar(&o.WavPipe, "wav-pipe", o.WavPipe, "How wav.scp selects a channel: sox (Kaldi's 'sox F -t wav - remix N |'), strode ('strode wav-select-channel --channel=N F - |'), or auto (sox if on PATH, else strode)")
	fs.StringVar(&o.Strode, "strode", o.Strode, "The strode binary that --wav-pipe=strode lines run (default: this binary)")
}

// Logger receives progress and warnings (kaldicmd's Context is one).
type Logger interface {
	Log(format string, a ...any)
	Warn(format string, a ...any)
}

// Summary counts what Prepare read, dropped and wrote.
type Summary struct {
	Files         int // transcription files read
	Entries       int // utterances in them
	Redacted      int // dropped: "[redacted]" in the words
	Empty         int // dropped: end time not after the start time
	Excluded      int // dropped: an excluded speaker_session
	Kept          int // utterances kept (before the per-channel copies)
	EmptyText     int // kept with no words left after normalisation
	Utterances    int // lines of text/segments/utt2spk (Kept × channels)
	Speakers      int
	Recordings    int      // lines of wav.scp
	UnusedAudio   []string // binaural files found with no utterance kept
	WavPipe       string   // the wav.scp form used: "sox" or "strode"
	AudioDir      string
	TranscriptDir string
}

// SetDirs are the corpus's audio and transcription directories of a set:
// <chime5-dir>/audio/<set> and <chime5-dir>/transcriptions/<set>.
func SetDirs(corpus, set string) (audio, transcripts string, err error) {
	known := false
	for _, s := range Sets {
		known = known || s == set
	}
	if !known {
		return "", "", fmt.Errorf("%w: unknown set %q (want train, dev or eval)", ErrLayout, set)
	}
	return filepath.Join(corpus, "audio", set), filepath.Join(corpus, "transcriptions", set), nil
}

// utterance is one kept entry, before the per-channel copies.
type utterance struct {
	id      string // baseID after the seds, e.g. P05_S02_KITCHEN-0004060-0004382
	text    string
	speaker string
	session string
	start   int64
	end     int64
	file    string
	where   string
}

// Prepare writes the Kaldi data directory dataDir (text, segments, utt2spk,
// spk2utt, wav.scp, each written atomically) for the binaural worn
// microphones from the transcription files in transcriptDir (*json, as
// prepare_data.sh globs them) and the S??_P??.wav files under audioDir, as
// Kaldi's local/prepare_data.sh --mictype worn followed by run.sh's stage 5
// (channel choice, excluded speaker_sessions) does.
func Prepare(o Options, audioDir, transcriptDir, dataDir string, log Logger) (*Summary, error) {
	if o.MicType != "worn" {
		return nil, fmt.Errorf("--mictype=%s: only the binaural worn microphones (--mictype=worn) are supported", o.MicType)
	}
	channels, err := parseChannels(o.Channels)
	if err != nil {
		return nil, err
	}
	exclude := map[string]bool{}
	for _, p := range strings.Split(o.ExcludeSpeakerSessions, ",") {
		if p = strings.TrimSpace(p); p != "" {
			exclude[p] = true
		}
	}
	pipe, err := choosePipe(o.WavPipe)
	if err != nil {
		return nil, err
	}
	sum := &Summary{WavPipe: pipe, AudioDir: audioDir, TranscriptDir: transcriptDir}

	jsons, err := transcriptFiles(transcriptDir)
	if err != nil {
		return nil, err
	}
	audio, err := findWornAudio(audioDir)
	if err != nil {
		return nil, err
	}

	var utts []*utterance
	for _, path := range jsons {
		n := len(utts)
		if utts, err = readTranscript(path, utts, exclude, sum); err != nil {
			return nil, err
		}
		sum.Files++
		log.Log("%s: %d utterances kept", path, len(utts)-n)
	}
	if len(utts) == 0 {
		return nil, fmt.Errorf("no utterances left from the %d transcription file(s) in %s (%d read, %d redacted, %d with end <= start, %d excluded)",
			len(jsons), transcriptDir, sum.Entries, sum.Redacted, sum.Empty, sum.Excluded)
	}
	sort.Slice(utts, func(i, j int) bool { return utts[i].id < utts[j].id })
	for i := 1; i < len(utts); i++ {
		if a, b := utts[i-1], utts[i]; a.id == b.id {
			return nil, fmt.Errorf("utterance id %s twice: %s %s and %s %s (Kaldi's validate_data_dir.sh would reject the data directory)",
				a.id, a.file, a.where, b.file, b.where)
		}
	}

	// Every kept utterance needs its participant's binaural file, with the
	// channels asked for.
	used := map[string]bool{}
	var missing []string
	for _, u := range utts {
		key := u.speaker + "_" + u.session
		if used[key] {
			continue
		}
		used[key] = true
		f, ok := audio[key]
		if !ok {
			missing = append(missing, fmt.Sprintf("%s_%s.wav (first needed by %s %s)", u.session, u.speaker, u.file, u.where))
			continue
		}
		if err := checkChannels(f.path, channels); err != nil {
			return nil, err
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("%w: %d binaural file(s) missing under %s: %s", ErrLayout, len(missing), audioDir, strings.Join(missing, ", "))
	}
	var unused []string
	for key := range audio {
		if !used[key] {
			unused = append(unused, key)
		}
	}
	sort.Strings(unused)
	for _, key := range unused {
		p := audio[key].path
		sum.UnusedAudio = append(sum.UnusedAudio, p)
		if exclude[key] {
			log.Log("%s: speaker_session %s excluded (--exclude-speaker-sessions); left out of wav.scp", p, key)
			continue
		}
		// validate_data_dir.sh wants the same recordings in wav.scp and segments.
		log.Warn("%s: no utterance of this binaural file kept; left out of wav.scp", p)
	}

	var text, segments, utt2spk strings.Builder
	spkUtts := map[string][]string{}
	var spkOrder []string
	type line struct {
		key, ch string
		u       *utterance
	}
	var lines []line
	for _, u := range utts {
		for _, ch := range channels {
			lines = append(lines, line{channelID(u.id, ch), ch, u})
		}
	}
	// Sorted as LC_ALL=C sort sorts: the .L and .R copies interleave.
	sort.Slice(lines, func(i, j int) bool { return lines[i].key < lines[j].key })
	for _, l := range lines {
		u, ch := l.u, l.ch
		text.WriteString(l.key)
		if u.text != "" {
			text.WriteString(" " + u.text)
		}
		text.WriteByte('\n')
		fmt.Fprintf(&segments, "%s %s %s %s\n", l.key, recordingID(u.speaker, u.session, ch), segmentTime(u.start), segmentTime(u.end))
		fmt.Fprintf(&utt2spk, "%s %s\n", l.key, u.speaker)
		if _, ok := spkUtts[u.speaker]; !ok {
			spkOrder = append(spkOrder, u.speaker)
		}
		spkUtts[u.speaker] = append(spkUtts[u.speaker], l.key)
	}
	// utt2spk_to_spk2utt.pl lists speakers in order of first appearance;
	// Kaldi wants that order sorted too.
	for i := 1; i < len(spkOrder); i++ {
		if spkOrder[i-1] >= spkOrder[i] {
			return nil, fmt.Errorf("speakers %s and %s: utterance order and speaker order disagree (speaker ids of different lengths?); Kaldi's validate_data_dir.sh would reject spk2utt", spkOrder[i-1], spkOrder[i])
		}
	}
	var spk2utt strings.Builder
	for _, s := range spkOrder {
		spk2utt.WriteString(s + " " + strings.Join(spkUtts[s], " ") + "\n")
	}

	var wavs []string
	for key := range used {
		f := audio[key]
		for _, ch := range channels {
			wavs = append(wavs, recordingID(f.speaker, f.session, ch)+" "+wavCommand(pipe, o.Strode, f.path, ch))
		}
	}
	sort.Strings(wavs)

	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return nil, fmt.Errorf("creating the data directory: %w", err)
	}
	for _, f := range []struct{ name, content string }{
		{"text", text.String()},
		{"segments", segments.String()},
		{"utt2spk", utt2spk.String()},
		{"spk2utt", spk2utt.String()},
		{"wav.scp", strings.Join(wavs, "\n") + "\n"},
	} {
		if err := atomicfile.WriteBytes(filepath.Join(dataDir, f.name), []byte(f.content)); err != nil {
			return nil, err
		}
	}
	for _, name := range []string{"feats.scp", "cmvn.scp", "utt2dur", "utt2num_frames", "reco2dur", "spk2gender", "reco2file_and_channel"} {
		if _, err := os.Stat(filepath.Join(dataDir, name)); err == nil {
			log.Warn("%s: left from an earlier run; it may not match the new utterance list (remove it or run Kaldi's utils/fix_data_dir.sh)", filepath.Join(dataDir, name))
		}
	}
	sum.Kept = len(utts)
	sum.Utterances = len(lines)
	sum.Speakers = len(spkOrder)
	sum.Recordings = len(wavs)
	for _, u := range utts {
		if u.text == "" {
			sum.EmptyText++
		}
	}
	return sum, nil
}

// segmentTime is prepare_data.sh's awk printf("%08.2f", cs/100.0), done on
// the integer centiseconds so no float rounding can creep in.
func segmentTime(cs int64) string {
	return fmt.Sprintf("%05d.%02d", cs/100, cs%100)
}

func parseChannels(s string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, c := range strings.Split(s, ",") {
		c = strings.TrimSpace(c)
		if c != "L" && c != "R" {
			return nil, fmt.Errorf("--channels=%s: want L, R or L,R", s)
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out, nil
}

func choosePipe(s string) (string, error) {
	switch s {
	case "sox", "strode":
		return s, nil
	case "auto":
		if _, err := exec.LookPath("sox"); err == nil {
			return "sox", nil
		}
		return "strode", nil
	}
	return "", fmt.Errorf("--wav-pipe=%s: want sox, strode or auto", s)
}

// wavCommand is the wav.scp rxfilename giving one channel of path as a
// one-channel wave.
func wavCommand(pipe, strode, path, ch string) string {
	n := 0
	if ch == "R" {
		n = 1
	}
	if pipe == "sox" {
		return fmt.Sprintf("sox %s -t wav - remix %d |", shellQuote(path), n+1)
	}
	return fmt.Sprintf("%s wav-select-channel --print-args=false --channel=%d %s - |", shellQuote(strode), n, shellQuote(path))
}

// shellQuote quotes s for sh when it has anything but safe characters.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+,:=@%", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// transcriptFiles lists transcriptDir/*json, as prepare_data.sh's loop does.
func transcriptFiles(dir string) ([]string, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: transcription directory: %v", ErrLayout, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%w: %s is not a directory", ErrLayout, dir)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: no *.json transcription files in %s (a wrong path to the data?)", ErrLayout, dir)
	}
	sort.Strings(files)
	return files, nil
}

// wornFile is one participant's binaural recording of a session.
type wornFile struct{ path, speaker, session string }

// findWornAudio finds the binaural files under dir, as prepare_data.sh's
// `find -L $adir -name "S[0-9]*_P[0-9]*.wav"` (recursively, following
// symbolic links), keyed speaker_session as its perl names them: the part
// of S02_P05.wav after the first "_" is the speaker, the part before it the
// session. Paths are made absolute so wav.scp works from any directory.
func findWornAudio(dir string) (map[string]wornFile, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("%w: audio directory: %v", ErrLayout, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%w: %s is not a directory", ErrLayout, dir)
	}
	out := map[string]wornFile{}
	visited := map[string]bool{}
	var walk func(d string) error
	walk = func(d string) error {
		real, err := filepath.EvalSymlinks(d)
		if err != nil {
			return err
		}
		if visited[real] {
			return nil
		}
		visited[real] = true
		ents, err := os.ReadDir(d)
		if err != nil {
			return err
		}
		for _, e := range ents {
			p := filepath.Join(d, e.Name())
			isDir := e.IsDir()
			if e.Type()&fs.ModeSymlink != 0 {
				if st, err := os.Stat(p); err == nil {
					isDir = st.IsDir()
				}
			}
			if isDir {
				if err := walk(p); err != nil {
					return err
				}
				continue
			}
			if ok, _ := filepath.Match("S[0-9]*_P[0-9]*.wav", e.Name()); !ok {
				continue
			}
			parts := strings.Split(strings.TrimSuffix(e.Name(), ".wav"), "_")
			f := wornFile{path: p, session: parts[0], speaker: parts[1]}
			key := f.speaker + "_" + f.session
			if old, dup := out[key]; dup {
				return fmt.Errorf("%w: two binaural files for %s: %s and %s", ErrLayout, key, old.path, p)
			}
			out[key] = f
		}
		return nil
	}
	if err := walk(abs); err != nil {
		return nil, fmt.Errorf("%w: searching %s: %v", ErrLayout, dir, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no binaural files (S??_P??.wav) under %s (a wrong path to the data?)", ErrLayout, dir)
	}
	return out, nil
}

// checkChannels reads the header of a binaural file and checks that it has
// the channels asked for.
func checkChannels(path string, channels []string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	wf, err := ReadWaveFormat(bufio.NewReader(f))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	need := 1
	for _, c := range channels {
		if c == "R" {
			need = 2
		}
	}
	if wf.Channels < need {
		return fmt.Errorf("%s: %w: %d channel(s), but channel %s of a binaural (2-channel) recording was asked for", path, ErrWave, wf.Channels, channels[len(channels)-1])
	}
	return nil
}

// readTranscript appends the kept utterances of one transcription file.
func readTranscript(path string, utts []*utterance, exclude map[string]bool, sum *Summary) ([]*utterance, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tr := NewTranscriptReader(bufio.NewReaderSize(f, 1<<16), path)
	for {
		e, err := tr.Next()
		if err == io.EOF {
			return utts, nil
		}
		if err != nil {
			return nil, err
		}
		sum.Entries++
		switch {
		case e.Redacted:
			sum.Redacted++
			continue
		case e.End <= e.Start:
			// json2text.py's `if end_time > start_time`: dropped, but counted.
			sum.Empty++
			continue
		case exclude[e.Speaker+"_"+e.Session]:
			sum.Excluded++
			continue
		}
		id, text := transcriptLine(baseID(e), e.Words)
		utts = append(utts, &utterance{id: id, text: text, speaker: e.Speaker, session: e.Session,
			start: e.Start, end: e.End, file: path, where: e.Where()})
	}
}
