package lm

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
)

// findTLM returns IRSTLM's estimator (Debian's irstlm package puts it in
// /usr/lib/irstlm/bin), or "" when it is not installed.
func findTLM() string {
	if p, err := exec.LookPath("tlm"); err == nil {
		return p
	}
	if p := "/usr/lib/irstlm/bin/tlm"; fileExists(p) {
		return p
	}
	return ""
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// speechoceanSplit reads speechocean762's train text and holds out the
// sentences of the last 10% of its speakers (sorted by id): the words of
// each utterance, first column dropped.
func speechoceanSplit(t *testing.T) (train, heldout []string) {
	dir := filepath.Join(shareddata.Full(t, "data/speechocean762"), "train")
	read := func(name string) [][]string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var rows [][]string
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) > 0 {
				rows = append(rows, f)
			}
		}
		return rows
	}
	spkOf := map[string]string{}
	spks := map[string]bool{}
	for _, r := range read("utt2spk") {
		spkOf[r[0]] = r[1]
		spks[r[1]] = true
	}
	var order []string
	for s := range spks {
		order = append(order, s)
	}
	sort.Strings(order)
	held := map[string]bool{}
	for _, s := range order[len(order)-(len(order)+9)/10:] {
		held[s] = true
	}
	for _, r := range read("text") {
		if held[spkOf[r[0]]] {
			heldout = append(heldout, strings.Join(r[1:], " "))
		} else {
			train = append(train, strings.Join(r[1:], " "))
		}
	}
	return train, heldout
}

// irstlmRun estimates a trigram with IRSTLM's tlm (improved Kneser-Ney,
// its name for Chen & Goodman's modified KN) and returns the ARPA text and
// the count-of-counts and discounts it reports per order.
func irstlmRun(t *testing.T, tlm string, train []string, args ...string) (string, [][4]int64, [][3]float64) {
	dir := t.TempDir()
	var b strings.Builder
	for _, s := range train {
		b.WriteString("<s> " + s + " </s>\n") // tlm wants the sentence marks in the text
	}
	trainFile, arpaFile := filepath.Join(dir, "train"), filepath.Join(dir, "irst.arpa")
	if err := os.WriteFile(trainFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tlm, append([]string{"-tr=" + trainFile, "-n=3", "-lm=ikn", "-o=" + arpaFile}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, stderr.String())
	}
	arpa, err := os.ReadFile(arpaFile)
	if err != nil {
		t.Fatal(err)
	}
	// tlm reports each order as " n1: N n2: N n3: N n4: N" and then "D1 D2 D3+".
	var nc [][4]int64
	var disc [][3]float64
	re := regexp.MustCompile(`^ n1: (\d+) n2: (\d+) n3: (\d+) n4: (\d+)`)
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		m := re.FindStringSubmatch(sc.Text())
		if m == nil || !sc.Scan() {
			continue
		}
		var n [4]int64
		for i := range n {
			n[i], _ = strconv.ParseInt(m[i+1], 10, 64)
		}
		var d [3]float64
		f := strings.Fields(sc.Text())
		for i := 0; i < 3 && i < len(f); i++ {
			d[i], _ = strconv.ParseFloat(f[i], 64)
		}
		nc, disc = append(nc, n), append(disc, d)
	}
	if len(nc) != 3 {
		t.Fatalf("could not read tlm's count-of-counts for 3 orders from its log:\n%s", stderr.String())
	}
	return string(arpa), nc, disc
}

// heldoutStats scores the held-out sentences and the fraction of the
// scored events whose probability came from a unigram.
func heldoutStats(m *Model, heldout []string) (TextStats, float64) {
	var st TextStats
	unigram, scored := 0, 0
	for _, s := range heldout {
		words := strings.Fields(s)
		st.Add(m.SentenceProb(words, 0, nil))
		ids := []int32{m.Vocab.bos}
		for _, w := range words {
			ids = append(ids, m.Vocab.Index(w))
		}
		ids = append(ids, m.Vocab.eos)
		for i := 1; i < len(ids); i++ {
			if _, found := m.WordProb(ids[i], ids[:i]); found > 0 {
				scored++
				if found == 1 {
					unigram++
				}
			}
		}
	}
	return st, float64(unigram) / float64(scored)
}

// An independent check: IRSTLM's modified Kneser-Ney (Debian's irstlm,
// tlm -lm=ikn) on speechocean762's train text, held-out perplexity
// compared with ours.
//
// What differs, measured on this text: the count-of-counts agree exactly
// at order 1 (so do the discounts) and within one at orders 2 and 3
// (IRSTLM counts one more n-gram), and IRSTLM's default singleton pruning
// keeps one trigram more than SRILM's -gt3min 2 (1074 against 1073). The
// main difference is IRSTLM's own model of unseen words: it adds an <unk>
// unigram with a Witten-Bell pseudo-count (1800 here, the vocabulary size)
// to the corrected unigram counts, so <unk> takes p = 10^-0.753 = 0.18 of
// the unigram distribution and every other unigram loses that share;
// SRILM's closed-vocabulary model has no <unk> and gives the unigram
// interpolation mass to the seen words. Scoring IRSTLM's model with its
// <unk> removed (OOVs left out, as SRILM does), the events that fall back
// to unigrams each lose about log10(1 - 0.18) = -0.084: with a fraction f
// of the held-out events resolved by unigrams, IRSTLM's log10 probability
// per event should be lower by f·0.084, the rest agreeing. Measured:
// f = 0.341, predicted 0.0287 per event, observed 0.0305 with the default
// cutoffs (held-out ppl 87.07 ours against 93.41 IRSTLM's) and 0.0302
// without (84.87 against 90.98); the rest comes mostly from the <unk>
// share missing in the unigram terms that interpolation adds to bigram and
// trigram probabilities. The test allows 0.006 per event (1.4% in
// perplexity, three times the residual) between predicted and observed,
// and requires the discounts to agree (1e-5 at order 1, 0.01 above). The
// cutoff-free case runs only without -short.
func TestIRSTLMComparison(t *testing.T) {
	tlm := findTLM()
	if tlm == "" {
		t.Skip("IRSTLM's tlm is not installed (Debian: apt-get install irstlm); skipping the comparison with an independent estimator")
	}
	train, heldout := speechoceanSplit(t)
	for _, tc := range []struct {
		name     string
		minCount []int64
		tlmArgs  []string
	}{
		{"default cutoffs (-gt3min 2; tlm prunes singletons)", nil, nil},
		{"no cutoffs (-gt3min 1; tlm -ps=no)", []int64{1, 1, 1}, []string{"-ps=no", "-pts=no"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.minCount != nil && testing.Short() {
				t.Skip("the cutoff-free comparison runs without -short")
			}
			c, err := NewCounts(NewVocab("", false), 3, true)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.CountText(strings.NewReader(strings.Join(train, "\n")), "train"); err != nil {
				t.Fatal(err)
			}
			ours, disc, err := c.Estimate(Options{Interpolate: true, MinCount: tc.minCount})
			if err != nil {
				t.Fatal(err)
			}
			arpa, irstNC, irstD := irstlmRun(t, tlm, train, tc.tlmArgs...)
			for k := range 3 {
				d := disc[k]
				ours := [4]int64{d.N1, d.N2, d.N3, d.N4}
				tolN, tolD := int64(0), 1e-5
				if k > 0 {
					tolN, tolD = 2, 0.01
				}
				for i := range ours {
					if diff := ours[i] - irstNC[k][i]; diff > tolN || diff < -tolN {
						t.Errorf("order %d: count-of-counts %v, IRSTLM's %v", k+1, ours, irstNC[k])
						break
					}
				}
				for i, x := range []float64{d.D1, d.D2, d.D3} {
					if math.Abs(x-irstD[k][i]) > tolD {
						t.Errorf("order %d: D%d = %.6f, IRSTLM's %.6f", k+1, i+1, x, irstD[k][i])
					}
				}
			}
			var pUnk float64
			var kept []string
			for _, l := range strings.Split(arpa, "\n") {
				if f := strings.Fields(l); len(f) >= 2 && f[1] == DefaultUnk {
					p, _ := strconv.ParseFloat(f[0], 64)
					pUnk = math.Pow(10, p)
					continue // SRILM's closed vocabulary: OOVs are not scored
				}
				kept = append(kept, l)
			}
			irst, err := ReadARPA(strings.NewReader(strings.Join(kept, "\n")), "irst.arpa", ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			so, frac := heldoutStats(ours, heldout)
			si, _ := heldoutStats(irst, heldout)
			events := float64(so.Words - so.OOVs + so.Sentences)
			observed := (so.LogProb - si.LogProb) / events
			predicted := frac * -math.Log10(1-pUnk)
			t.Logf("held-out: %d sentences, %d words, %d OOVs (%.2f%%); ppl ours %.2f, IRSTLM %.2f; IRSTLM p(<unk>) = %.4f; unigram-resolved fraction %.3f; log10 shift per event observed %.4f, predicted %.4f",
				so.Sentences, so.Words, so.OOVs, 100*float64(so.OOVs)/float64(so.Words), so.PPL(), si.PPL(), pUnk, frac, observed, predicted)
			if so.Words != si.Words || so.OOVs != si.OOVs || pUnk == 0 {
				t.Fatalf("ours %+v and IRSTLM's %+v count differently, or IRSTLM has no <unk> (p %g)", so, si, pUnk)
			}
			if math.Abs(observed-predicted) > 0.006 {
				t.Errorf("IRSTLM's held-out log10 probability is lower by %.4f per event; its <unk> mass explains %.4f (tolerance 0.006)", observed, predicted)
			}
		})
	}
}
