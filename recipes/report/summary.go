package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/strode-asr/strode/internal/atomicfile"
)

// Summary is one model's entry of a recipe's results.json (recipes/fsdd):
// its WER on its one test set as compute-wer printed it, and, after an
// unsupervised adaptation to the test speaker, the adapted WER.
type Summary struct {
	Model   string      `json:"-"`
	WER     json.Number `json:"wer"`
	WERLine string      `json:"wer_line"`
	Adapted *Adapted    `json:"adapted,omitempty"`
}

// Adapted is the last adaptation round of a model (recipes/fsdd stage 9).
type Adapted struct {
	WER        json.Number `json:"wer"`
	WERLine    string      `json:"wer_line"`
	Utterances int         `json:"utterances"` // test utterances the last round trained on
	Rounds     int         `json:"rounds"`
}

// AdaptDir is the folder of adaptation round r in a model directory, as
// recipes/fsdd/run.sh stage 9 names them: adapt, adapt2, adapt3, ...
func AdaptDir(modelDir string, r int) string {
	if r == 1 {
		return filepath.Join(modelDir, "adapt")
	}
	return filepath.Join(modelDir, "adapt"+strconv.Itoa(r))
}

// Summarize makes the summary of rows (Collect's, one decode set per
// model). With adaptRounds > 0 every model also gets the adapted WER of its
// last round: AdaptDir(model, adaptRounds)/decode_SET/wer (a compute-wer
// output) and the utterances listed in its keep.list.
func Summarize(modelDirs []string, rows []Row, adaptRounds int) ([]Summary, error) {
	if len(rows) != len(modelDirs) {
		return nil, fmt.Errorf("report: a summary needs one decode set per model directory: %d sets in %d directories", len(rows), len(modelDirs))
	}
	out := make([]Summary, len(rows))
	for i, r := range rows {
		out[i] = Summary{Model: r.Model, WER: rateOf(r.WERLine), WERLine: r.WERLine}
		if adaptRounds <= 0 {
			continue
		}
		dir := AdaptDir(modelDirs[i], adaptRounds)
		line, err := werLine(filepath.Join(dir, "decode_"+r.Set, "wer"))
		if err != nil {
			return nil, err
		}
		keep, err := countLines(filepath.Join(dir, "keep.list"))
		if err != nil {
			return nil, err
		}
		out[i].Adapted = &Adapted{WER: rateOf(line), WERLine: line, Utterances: keep, Rounds: adaptRounds}
	}
	return out, nil
}

// rateOf is the rate field of a compute-wer line, as printed.
func rateOf(line string) json.Number {
	f := strings.Fields(line)
	if len(f) < 2 {
		return ""
	}
	return json.Number(f[1])
}

// werLine returns the %WER line of a compute-wer output.
func werLine(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "%WER") {
			if _, _, _, _, err := parseRate(l, "%WER"); err != nil {
				return "", fmt.Errorf("%w: %s line %d: %v", ErrFormat, path, i+1, err)
			}
			return strings.TrimRight(l, " \t\r"), nil
		}
	}
	return "", fmt.Errorf("%w: %s: no %%WER line", ErrFormat, path)
}

func countLines(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("report: %w", err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
	}
	return n, sc.Err()
}

// WriteSummaryJSONFile writes the summaries to path atomically, as one
// JSON object keyed by model in the order given, a model per line.
func WriteSummaryJSONFile(path string, sums []Summary) error {
	var b bytes.Buffer
	b.WriteString("{")
	for i, s := range sums {
		k, err := json.Marshal(s.Model)
		if err != nil {
			return err
		}
		v, err := json.Marshal(s)
		if err != nil {
			return fmt.Errorf("report: %s: %w", s.Model, err)
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n  %s: %s", k, v)
	}
	b.WriteString("\n}\n")
	return atomicfile.WriteBytes(path, b.Bytes())
}
