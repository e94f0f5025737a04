package report

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/strode-asr/strode/acoustic/trainer"
	"github.com/strode-asr/strode/internal/atomicfile"
)

// ErrFormat marks a results file whose contents are not what its writer
// writes.
var ErrFormat = errors.New("report: malformed file")

// Row is one model decoded on one data set.
type Row struct {
	Model string `json:"model"`
	Set   string `json:"set"`

	WER     float64 `json:"wer"`      // percent, the best of the scoring sweep
	Errors  int     `json:"errors"`   // word errors at that point
	Words   int     `json:"words"`    // reference words
	SER     float64 `json:"ser"`      // percent, same LM weight and penalty
	WERFile string  `json:"wer_file"` // the compute-wer output that was best
	WERLine string  `json:"wer_line"` // its %WER line, as best_wer has it

	Kind            string  `json:"kind"`               // sru, strode, ...
	Epochs          int     `json:"epochs"`             // epochs trained
	SecondsPerEpoch float64 `json:"seconds_per_epoch"`  // mean wall time
	HeldOutAcc      float64 `json:"held_out_frame_acc"` // percent, of the epoch the model keeps

	Targets string `json:"targets,omitempty"` // the target set, e.g. "mono (127 pdfs)"

	// The LM on this set (ngram -ppl): perplexity, and out-of-vocabulary
	// words in percent of the set's words.
	LMPerplexity float64  `json:"lm_ppl,omitempty"`
	OOVRate      *float64 `json:"oov_rate,omitempty"`

	DecodeSeconds float64 `json:"decode_seconds"` // wall time of forward | latgen, all jobs
	AudioSeconds  float64 `json:"audio_seconds"`  // 10 ms per frame
	Jobs          int     `json:"jobs"`
	RTF           float64 `json:"rtf"` // DecodeSeconds / AudioSeconds
}

// Collect reads every decode_* directory of each model directory, in the
// order given and, within a model, by set name.
func Collect(modelDirs []string) (rows []Row, err error) {
	for _, md := range modelDirs {
		// A GMM system of the recipe's ladder (exp/strode_tri1, ...) has a
		// final.mdl and no final.am: its rows have no training history.
		sum := &trainer.Summary{}
		if isGMMDir(md) {
			sum.Options.Kind = GMMKind
		} else if sum, err = trainer.ReadSummary(filepath.Join(md, "final.am")); err != nil {
			return nil, err
		}
		decodes, err := filepath.Glob(filepath.Join(md, "decode_*"))
		if err != nil {
			return nil, err
		}
		sort.Strings(decodes)
		if len(decodes) == 0 {
			return nil, fmt.Errorf("report: %s: no decode_* directories", md)
		}
		for _, dd := range decodes {
			r := Row{Model: filepath.Base(md), Set: strings.TrimPrefix(filepath.Base(dd), "decode_"), Kind: sum.Options.Kind}
			r.Epochs = len(sum.History)
			r.SecondsPerEpoch = sum.SecondsPerEpoch()
			if e, ok := sum.FinalEpoch(); ok {
				r.HeldOutAcc = 100 * e.ValidAcc
			}
			if err := readBestWER(dd, &r); err != nil {
				return nil, err
			}
			// A GMM rung's first pass (decode_SET.si of decode_fmllr.sh) is
			// timed with its second, in decode_SET/decode_time.
			if err := readDecodeTime(filepath.Join(dd, "decode_time"), &r); err != nil &&
				!(r.Kind == GMMKind && strings.HasSuffix(dd, ".si") && errors.Is(err, fs.ErrNotExist)) {
				return nil, err
			}
			rows = append(rows, r)
		}
	}
	return rows, nil
}

// GMMKind is the Kind of the rows of a GMM system's directory.
const GMMKind = "gmm"

// isGMMDir: DIR holds a GMM system (final.mdl) and no network (final.am).
func isGMMDir(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "final.am")); err == nil {
		return false
	}
	_, err := os.Stat(filepath.Join(dir, "final.mdl"))
	return err == nil
}

// readBestWER reads DIR/best_wer ("%WER x [ e / n, ... ] FILE") and the %SER
// line of FILE.
func readBestWER(dir string, r *Row) error {
	path := filepath.Join(dir, "best_wer")
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("report: %w (was the decode dir scored? recipes/local/score.sh)", err)
	}
	line := strings.TrimSpace(string(b))
	wer, e, n, rest, err := parseRate(line, "%WER")
	if err != nil {
		return fmt.Errorf("%w: %s line 1: %v", ErrFormat, path, err)
	}
	r.WER, r.Errors, r.Words = wer, e, n
	f := strings.Fields(rest)
	if len(f) == 0 {
		return fmt.Errorf("%w: %s line 1: no file after the WER", ErrFormat, path)
	}
	r.WERFile = f[len(f)-1]
	r.WERLine = strings.TrimRight(strings.TrimSuffix(line, r.WERFile), " \t")
	wf := r.WERFile
	if _, err := os.Stat(wf); err != nil { // written relative to where scoring ran; else beside best_wer
		wf = filepath.Join(dir, filepath.Base(wf))
	}
	fh, err := os.Open(wf)
	if err != nil {
		return fmt.Errorf("report: %s names %w", path, err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for ln := 1; sc.Scan(); ln++ {
		if strings.HasPrefix(sc.Text(), "%SER") {
			ser, _, _, _, err := parseRate(sc.Text(), "%SER")
			if err != nil {
				return fmt.Errorf("%w: %s line %d: %v", ErrFormat, wf, ln, err)
			}
			r.SER = ser
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("report: %s: %w", wf, err)
	}
	return fmt.Errorf("%w: %s: no %%SER line", ErrFormat, wf)
}

// parseRate parses compute-wer's "TAG rate [ e / n" and returns what follows
// the closing bracket.
func parseRate(line, tag string) (rate float64, e, n int, rest string, err error) {
	f := strings.Fields(line)
	if len(f) < 6 || f[0] != tag || f[2] != "[" || f[4] != "/" {
		return 0, 0, 0, "", fmt.Errorf("not a compute-wer %s line: %q", tag, line)
	}
	if rate, err = strconv.ParseFloat(f[1], 64); err != nil {
		return 0, 0, 0, "", fmt.Errorf("rate %q: %v", f[1], err)
	}
	if e, err = strconv.Atoi(f[3]); err != nil {
		return 0, 0, 0, "", fmt.Errorf("errors %q: %v", f[3], err)
	}
	if n, err = strconv.Atoi(strings.TrimSuffix(f[5], ",")); err != nil {
		return 0, 0, 0, "", fmt.Errorf("count %q: %v", f[5], err)
	}
	if i := strings.Index(line, "]"); i >= 0 {
		rest = line[i+1:]
	}
	return rate, e, n, rest, nil
}

// readDecodeTime reads "wall-seconds audio-seconds jobs".
func readDecodeTime(path string, r *Row) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	f := strings.Fields(string(b))
	if len(f) != 3 {
		return fmt.Errorf("%w: %s line 1: want \"wall-seconds audio-seconds jobs\", got %q", ErrFormat, path, strings.TrimSpace(string(b)))
	}
	var errs [3]error
	r.DecodeSeconds, errs[0] = strconv.ParseFloat(f[0], 64)
	r.AudioSeconds, errs[1] = strconv.ParseFloat(f[1], 64)
	r.Jobs, errs[2] = strconv.Atoi(f[2])
	if err := errors.Join(errs[:]...); err != nil {
		return fmt.Errorf("%w: %s line 1: %v", ErrFormat, path, err)
	}
	if r.AudioSeconds > 0 {
		r.RTF = r.DecodeSeconds / r.AudioSeconds
	}
	return nil
}

// WriteMarkdown prints the rows as a Markdown table; the target set and
// the LM's perplexity and OOV rate get columns when some row has them.
func WriteMarkdown(w io.Writer, rows []Row) error {
	targets, lm := false, false
	for _, r := range rows {
		targets = targets || r.Targets != ""
		lm = lm || r.OOVRate != nil
	}
	bw := bufio.NewWriter(w)
	head, rule := "| model | set |", "|---|---|"
	if targets {
		head, rule = head+" targets |", rule+"---|"
	}
	head, rule = head+" %WER | %SER | errors / words |", rule+"---|---|---|"
	if lm {
		head, rule = head+" LM ppl | %OOV |", rule+"---|---|"
	}
	fmt.Fprintln(bw, head+" held-out frame acc | epochs | train s/epoch | decode RTF (jobs) |")
	fmt.Fprintln(bw, rule+"---|---|---|---|")
	for _, r := range rows {
		fmt.Fprintf(bw, "| %s | %s |", r.Model, r.Set)
		if targets {
			fmt.Fprintf(bw, " %s |", r.Targets)
		}
		fmt.Fprintf(bw, " %.2f | %.2f | %d / %d |", r.WER, r.SER, r.Errors, r.Words)
		if lm {
			if r.OOVRate != nil {
				fmt.Fprintf(bw, " %.1f | %.2f |", r.LMPerplexity, *r.OOVRate)
			} else {
				fmt.Fprint(bw, " | |")
			}
		}
		if r.Kind == GMMKind { // no training history
			if r.Jobs == 0 { // decode_SET.si: timed with its second pass
				fmt.Fprintf(bw, " GMM | | | |\n")
			} else {
				fmt.Fprintf(bw, " GMM | | | %.3f (%d) |\n", r.RTF, r.Jobs)
			}
			continue
		}
		fmt.Fprintf(bw, " %.2f%% | %d | %.1f | %.3f (%d) |\n", r.HeldOutAcc, r.Epochs, r.SecondsPerEpoch, r.RTF, r.Jobs)
	}
	return bw.Flush()
}

// AddLM fills each row's LM columns from dir/ppl_SET.txt (the output of
// ngram -ppl: "file F: S sentences, W words, O OOVs" then "... ppl= P
// ppl1= P1"), for the sets that have one.
func AddLM(rows []Row, dir string) error {
	for i := range rows {
		path := filepath.Join(dir, "ppl_"+rows[i].Set+".txt")
		b, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		words, oovs, ppl := -1, -1, -1.0
		for n, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			for j := 1; j < len(f); j++ {
				switch {
				case strings.TrimSuffix(f[j], ",") == "words" && words < 0:
					words, err = strconv.Atoi(f[j-1])
				case f[j] == "OOVs" && oovs < 0:
					oovs, err = strconv.Atoi(f[j-1])
				case f[j-1] == "ppl=":
					ppl, err = strconv.ParseFloat(f[j], 64)
				}
				if err != nil {
					return fmt.Errorf("%w: %s line %d: %v", ErrFormat, path, n+1, err)
				}
			}
		}
		if words <= 0 || oovs < 0 || ppl < 0 {
			return fmt.Errorf("%w: %s: want ngram -ppl's \"W words, O OOVs\" and \"ppl= P\"", ErrFormat, path)
		}
		rate := 100 * float64(oovs) / float64(words)
		rows[i].LMPerplexity, rows[i].OOVRate = ppl, &rate
	}
	return nil
}

// WriteJSONFile writes the rows to path atomically.
func WriteJSONFile(path string, rows []Row) error {
	b, err := json.MarshalIndent(map[string]any{"results": rows}, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(path, append(b, '\n'))
}

// WriteMarkdownFile writes the Markdown table to path atomically.
func WriteMarkdownFile(path string, rows []Row) error {
	return atomicfile.Write(path, func(w io.Writer) error { return WriteMarkdown(w, rows) })
}
