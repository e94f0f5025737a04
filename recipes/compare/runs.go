package compare

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// Run is one trained-and-scored model: its WER on one condition (a held-out
// speaker, a test set) with one seed.
type Run struct {
	Model     string
	Condition string
	Seed      string  // matched as text: "777" and "0777" are different seeds
	WER       float64 // percent
	// Errors and Words are compute-wer's "[ e / n" counts when the source had
	// them (a compute-wer line, a results.json wer_line, or "e/n"); Words is 0
	// when only a percentage was given.
	Errors, Words int
	Source        string // "FILE:LINE" of the runs-file line, for messages
	// WERFile is the file the WER was read from ("" when the line gave a
	// number): a decode dir's best_wer, beside which other tools find the
	// decode's own files (strode latency-curve: lookahead_stats.*).
	WERFile string
}

// HasCounts reports whether the run's error and word counts are known.
func (r Run) HasCounts() bool { return r.Words > 0 }

// ErrSyntax is wrapped by every runs-file parse error.
var ErrSyntax = errors.New("runs file syntax")

// Opener opens the WER file a runs-file line names; os.Open in real use.
type Opener func(path string) (io.ReadCloser, error)

// OpenFile is the Opener that reads the file system (paths relative to the
// current directory, as every Kaldi tool).
func OpenFile(path string) (io.ReadCloser, error) { return os.Open(path) }

// maxLine bounds one runs-file line (a path and three short names).
const maxLine = 1 << 16

// ReadRuns parses a runs file: one run per line,
//
//	MODEL CONDITION SEED WER
//
// separated by blanks; blank lines and lines whose first non-blank character
// is '#' are skipped. WER is one of
//
//	12.6 or 12.6%        a percentage
//	63/500               errors/words (the WER is 100·63/500 and the counts pool)
//	PATH                 a file with one compute-wer "%WER x [ e / n, ..." line
//	                     (compute-wer's output, local/score.sh's best_wer)
//	PATH.json[:KEY]      a recipe results.json: the object under KEY (default:
//	                     MODEL) gives "wer_line" (else "wer")
//
// name (the file name, "-" for stdin) prefixes every error with the line
// number: "runs.txt:3: ...". The same (MODEL, CONDITION, SEED) twice is an
// error naming both lines.
func ReadRuns(r io.Reader, name string, open Opener) ([]Run, error) {
	var runs []Run
	seen := map[[3]string]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	for lineNo := 1; sc.Scan(); lineNo++ {
		where := fmt.Sprintf("%s:%d", name, lineNo)
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			return nil, fmt.Errorf("%s: %w: want 4 fields MODEL CONDITION SEED WER, got %d in %q", where, ErrSyntax, len(f), clip(line))
		}
		run := Run{Model: f[0], Condition: f[1], Seed: f[2], Source: where}
		if err := resolveWER(&run, f[3], open); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		key := [3]string{run.Model, run.Condition, run.Seed}
		if prev, ok := seen[key]; ok {
			return nil, fmt.Errorf("%s: %w: model %s, condition %s, seed %s already given at %s", where, ErrSyntax, run.Model, run.Condition, run.Seed, prev)
		}
		seen[key] = where
		runs = append(runs, run)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s: %w: a line longer than %d bytes", name, ErrSyntax, maxLine)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return runs, nil
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// resolveWER fills run's WER (and counts) from the fourth field.
func resolveWER(run *Run, field string, open Opener) error {
	if v, ok, err := parseNumberWER(field); ok || err != nil {
		if err != nil {
			return err
		}
		run.WER, run.Errors, run.Words = v.wer, v.errors, v.words
		return nil
	}
	path, key := field, run.Model
	if i := strings.LastIndex(field, ".json:"); i >= 0 {
		path, key = field[:i+len(".json")], field[i+len(".json:"):]
	}
	rc, err := open(path)
	if err != nil {
		return fmt.Errorf("WER %q is neither a number nor a readable file: %w", field, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, 16<<20))
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	var v werValue
	if strings.HasSuffix(path, ".json") {
		v, err = parseResultsJSON(data, key)
	} else {
		v.wer, v.errors, v.words, err = ParseWERFile(data)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	run.WER, run.Errors, run.Words, run.WERFile = v.wer, v.errors, v.words, path
	return nil
}

type werValue struct {
	wer           float64
	errors, words int
}

// parseNumberWER reads "12.6", "12.6%" or "63/500". ok is false (and err nil)
// when field does not look like a number at all, so it is taken as a path.
func parseNumberWER(field string) (v werValue, ok bool, err error) {
	if e, n, found := strings.Cut(field, "/"); found && isDigits(e) && isDigits(n) {
		ei, err1 := strconv.Atoi(e)
		ni, err2 := strconv.Atoi(n)
		if err1 != nil || err2 != nil || ni == 0 {
			return v, true, fmt.Errorf("%w: errors/words %q: need integers and words > 0", ErrSyntax, field)
		}
		return werValue{100 * float64(ei) / float64(ni), ei, ni}, true, nil
	}
	num := strings.TrimSuffix(field, "%")
	x, perr := strconv.ParseFloat(num, 64)
	if perr != nil {
		if num != field || looksNumeric(num) {
			return v, true, fmt.Errorf("%w: WER %q is not a number", ErrSyntax, field)
		}
		return v, false, nil
	}
	if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
		return v, true, fmt.Errorf("%w: WER %q must be a finite percentage ≥ 0", ErrSyntax, field)
	}
	return werValue{wer: x}, true, nil
}

func isDigits(s string) bool {
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

// looksNumeric is true for tokens made of digits, signs, dots and exponents
// only: a malformed number ("1.2.3", "-") rather than a file name.
func looksNumeric(s string) bool {
	if s == "" {
		return true
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789+-.eE", c) {
			return false
		}
	}
	return true
}

// ParseWERLine parses compute-wer's summary line,
//
//	%WER 12.60 [ 63 / 500, 5 ins, 10 del, 48 sub ] [PARTIAL]
//
// returning the percentage and the counts. The percentage is recomputed from
// the counts (compute-wer rounds it to two decimals).
func ParseWERLine(line string) (wer float64, errs, words int, err error) {
	f := strings.Fields(line)
	if len(f) < 6 || f[0] != "%WER" || f[2] != "[" || f[4] != "/" {
		return 0, 0, 0, fmt.Errorf("%w: not a compute-wer line %q", ErrSyntax, clip(line))
	}
	errs, err1 := strconv.Atoi(f[3])
	words, err2 := strconv.Atoi(strings.TrimSuffix(f[5], ","))
	if err1 != nil || err2 != nil || errs < 0 || words <= 0 {
		return 0, 0, 0, fmt.Errorf("%w: bad counts in compute-wer line %q", ErrSyntax, clip(line))
	}
	return 100 * float64(errs) / float64(words), errs, words, nil
}

// ParseWERFile finds the one "%WER" line of a compute-wer output and parses
// it. No such line, or more than one, is an error: which one was meant would
// be a guess.
func ParseWERFile(data []byte) (wer float64, errs, words int, err error) {
	var found []string
	for _, l := range bytes.Split(data, []byte("\n")) {
		if bytes.HasPrefix(bytes.TrimSpace(l), []byte("%WER")) {
			found = append(found, string(bytes.TrimSpace(l)))
		}
	}
	switch len(found) {
	case 0:
		return 0, 0, 0, fmt.Errorf("%w: no compute-wer %%WER line", ErrSyntax)
	case 1:
		return ParseWERLine(found[0])
	default:
		return 0, 0, 0, fmt.Errorf("%w: %d %%WER lines, want one", ErrSyntax, len(found))
	}
}

// parseResultsJSON reads the FSDD recipe's results.json,
// {"sru": {"wer": 12.6, "wer_line": "%WER 12.60 [ 63 / 500, ..."}, ...}:
// the speaker-independent WER of the model under key.
func parseResultsJSON(data []byte, key string) (werValue, error) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return werValue{}, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	raw, ok := all[key]
	if !ok {
		return werValue{}, fmt.Errorf("%w: no key %q", ErrSyntax, key)
	}
	var entry struct {
		WER     *float64 `json:"wer"`
		WERLine string   `json:"wer_line"`
	}
	if err := json.Unmarshal(raw, &entry); err != nil {
		return werValue{}, fmt.Errorf("%w: key %q: %v", ErrSyntax, key, err)
	}
	if entry.WERLine != "" {
		w, e, n, err := ParseWERLine(entry.WERLine)
		if err != nil {
			return werValue{}, fmt.Errorf("key %q: %w", key, err)
		}
		return werValue{w, e, n}, nil
	}
	if entry.WER == nil || math.IsNaN(*entry.WER) || *entry.WER < 0 {
		return werValue{}, fmt.Errorf("%w: key %q has neither wer_line nor a wer ≥ 0", ErrSyntax, key)
	}
	return werValue{wer: *entry.WER}, nil
}

// RunsFileHelp describes the runs file for `strode compare --help`.
const RunsFileHelp = `Runs file: one run per line, "MODEL CONDITION SEED WER" separated by blanks ('#' starts a comment
line). CONDITION is the held-out speaker or test set; runs pair on CONDITION and SEED (compared as
text). WER is a percentage (12.6 or 12.6%), errors/words (63/500), a file with one compute-wer
"%WER" line (compute-wer's output, local/score.sh's best_wer), or a results.json (the FSDD recipe's;
the entry under MODEL, or under KEY with PATH.json:KEY). Paths are relative to the current directory.
The same MODEL CONDITION SEED twice is an error; errors name the file and line.
`
