package local

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
	"github.com/strode-asr/strode/internal/testbin"
)

// rescoreAcwt is the acoustic scale of the decodes and of the 1-best
// comparison (LM weight 200). kaldi-mini's GMM on synthetic speech is so
// sure of its digits that at Kaldi's usual 0.083 the bigram and trigram
// decodes differ on 1 utterance of 190, which would test nothing; at 0.005
// the LM decides 47 of them. The beams are narrower than Kaldi's defaults
// (10 and 4 rather than 13 and 8) because at this scale they admit far more
// word sequences (an 8-wide lattice beam makes the bigram decode take 40 s
// and its lattices 15 times larger); the rescored 1-best is the same.
const rescoreAcwt = "0.005"

// Rescoring a bigram lattice with a trigram gives the trigram HCLG's 1-best:
// all 190 kaldi-mini utterances (train and test: random digit strings,
// GMM log-likelihoods of Kaldi's final.mdl) decoded with a bigram and a
// trigram HCLG (Witten–Bell LMs of their transcripts, no cutoffs, so the
// trigram has 490 3-grams); the bigram lattices rescored by lmrescore.sh
// (G.fst, Kaldi's method 1) and by lmrescore_const_arpa.sh (G.carpa); the
// 1-best of each compared with the trigram decode's.
func TestLMRescoreMatchesTrigramGraph(t *testing.T) {
	k, _ := filepath.Abs(shareddata.Full(t, "kaldi-mini"))
	bin := testbin.Strode(t)
	dir := t.TempDir()
	sh := func(script string) string {
		t.Helper()
		cmd := exec.Command("bash", "-c", "set -euo pipefail\n"+script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "S="+bin, "K="+k, "L="+mustAbs(t, "."))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s\n%s", err, script, out)
		}
		return string(out)
	}
	// Data, features, GMM log-likelihoods.
	sh(`mkdir -p data
cat $K/data/train/wav.scp $K/data/test/wav.scp | sort | awk -v k=$K '{print $1, k"/"$2}' > data/wav.scp
cat $K/data/train/utt2spk $K/data/test/utt2spk | sort > data/utt2spk
cat $K/data/train/text $K/data/test/text | sort > data/text
$S utt2spk-to-spk2utt data/utt2spk > data/spk2utt 2>/dev/null
$S compute-mfcc-feats --config=$K/conf/mfcc.conf scp:data/wav.scp ark:mfcc.ark 2>/dev/null
$S compute-cmvn-stats --spk2utt=ark:data/spk2utt ark:mfcc.ark ark:cmvn.ark 2>/dev/null
$S apply-cmvn --utt2spk=ark:data/utt2spk ark:cmvn.ark ark:mfcc.ark ark:- 2>/dev/null | $S add-deltas ark:- ark:- 2>/dev/null |
  $S gmm-compute-likes $K/exp/mono/final.mdl ark:- ark:loglikes.ark 2>/dev/null`)
	// A bigram and a trigram, their G.fst and HCLG; the trigram's G.carpa.
	sh(`grep -v -E '^(<eps>|#0|<s>|</s>) ' $K/data/lang/words.txt | cut -d' ' -f1 > vocab
cut -d' ' -f2- data/text > lm_text
for o in 2 3; do
  $S ngram-count -order $o -interpolate -wbdiscount -gt2min 1 -gt3min 1 -vocab vocab -unk -map-unk "<SIL>" -text lm_text -lm lm$o.arpa 2>/dev/null
  cp -r $K/data/lang lang$o
  $S arpa2fst --disambig-symbol=#0 --read-symbol-table=lang$o/words.txt lm$o.arpa lang$o/G.fst 2>/dev/null
  $S mkgraph lang$o $K/exp/mono graph$o 2>/dev/null
  mkdir -p decode$o; echo 1 > decode$o/num_jobs
  $S latgen-faster-mapped --max-active=7000 --beam=10.0 --lattice-beam=4.0 --acoustic-scale=` + rescoreAcwt + ` --allow-partial=true \
    $K/exp/mono/final.mdl graph$o/HCLG.fst ark:loglikes.ark "ark:|gzip -c > decode$o/lat.1.gz" 2>/dev/null
done
gzip -c lm3.arpa > lm3.arpa.gz
$L/build_const_arpa_lm.sh --strode $S lm3.arpa.gz lang3 lang3_carpa`)
	score := "--min-lmwt 200 --max-lmwt 200 --word-ins-penalty 0.0"
	sh(`$L/lmrescore.sh --strode $S ` + score + ` lang2 lang3 data decode2 decode2_rescore_fst > /dev/null
$L/lmrescore_const_arpa.sh --strode $S ` + score + ` lang2 lang3_carpa data decode2 decode2_rescore_carpa > /dev/null`)
	best := func(d string) map[string]string {
		out := sh(`$S lattice-best-path --acoustic-scale=` + rescoreAcwt + ` "ark:gunzip -c ` + d + `/lat.*.gz |" ark,t:- 2>/dev/null`)
		m := map[string]string{}
		sc := bufio.NewScanner(strings.NewReader(out))
		for sc.Scan() {
			key, words, _ := strings.Cut(sc.Text(), " ")
			m[key] = words
		}
		return m
	}
	tri, bi := best("decode3"), best("decode2")
	if len(tri) != 190 {
		t.Fatalf("trigram decode: %d utterances, want 190", len(tri))
	}
	agree := func(m map[string]string) (n int, diff []string) {
		for k, w := range tri {
			if m[k] == w {
				n++
			} else {
				diff = append(diff, fmt.Sprintf("%s: %q vs trigram %q", k, m[k], w))
			}
		}
		sort.Strings(diff)
		return n, diff
	}
	nBi, _ := agree(bi)
	t.Logf("bigram decode = trigram decode on %d of %d utterances", nBi, len(tri))
	if len(tri)-nBi < 20 {
		t.Errorf("the bigram and trigram decodes differ on only %d utterances: the test would not show that rescoring changes anything", len(tri)-nBi)
	}
	for _, d := range []string{"decode2_rescore_fst", "decode2_rescore_carpa"} {
		n, diff := agree(best(d))
		t.Logf("%s: 1-best = trigram HCLG's on %d of %d utterances", d, n, len(tri))
		if n*100 < 95*len(tri) {
			t.Errorf("%s agrees with the trigram decode on %d of %d utterances (< 95%%):\n%s", d, n, len(tri), strings.Join(diff, "\n"))
		}
		if _, err := os.Stat(filepath.Join(dir, d, "best_wer")); err != nil {
			t.Errorf("%s was not scored: %v", d, err)
		}
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
