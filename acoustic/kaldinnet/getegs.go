package kaldinnet

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/internal/atomicfile"
	"github.com/strode-asr/strode/kaldiio"
)

// EgsOptions configure GetEgs; the names are steps/nnet3/get_egs.sh's.
type EgsOptions struct {
	NumArchives        int     // --num-archives: 0 derives it from SamplesPerIter as get_egs.sh does
	SamplesPerIter     int     // --samples-per-iter: frames per archive when NumArchives is 0
	NumUttsSubset      int     // --num-utts-subset: utterances in train_diagnostic.ark (and held out without ValidFeats)
	Seed               int64   // --srand
	Compress           bool    // --compress
	ValidFeats         string  // --cv-feats: held-out features (default: NumUttsSubset training utterances held out)
	ValidTargets       string  // --cv-targets (default: the training targets)
	NumPdfs            int     // --num-pdfs (0: from --transition-model, else the largest pdf-id + 1)
	FeatureDescription string  // --feature-description
	Data               Options // CMVN, splicing, targets
}

// DefaultEgsOptions are get_egs.sh's defaults where it has them; examples
// are stored uncompressed (get_egs.sh compresses) so that training on them
// sees exactly the features `strode train` would.
func DefaultEgsOptions() EgsOptions {
	return EgsOptions{SamplesPerIter: 400000, NumUttsSubset: 300, Data: DefaultOptions()}
}

// Register adds the options (the data options register themselves).
func (o *EgsOptions) Register(fs *flag.FlagSet) {
	fs.IntVar(&o.NumArchives, "num-archives", o.NumArchives, "number of archives egs.1.ark ... egs.N.ark (0: training frames / --samples-per-iter + 1, as get_egs.sh)")
	fs.IntVar(&o.SamplesPerIter, "samples-per-iter", o.SamplesPerIter, "frames per archive when --num-archives=0")
	fs.IntVar(&o.NumUttsSubset, "num-utts-subset", o.NumUttsSubset, "utterances in train_diagnostic.ark; without --cv-feats also the held-out utterances (at most a tenth of the training set), left out of training")
	fs.Int64Var(&o.Seed, "srand", o.Seed, "seed for the held-out and diagnostic subsets and the shuffling into archives")
	fs.BoolVar(&o.Compress, "compress", o.Compress, "store the features compressed (Kaldi's CompressedMatrix, automatic method)")
	fs.StringVar(&o.ValidFeats, "cv-feats", o.ValidFeats, "rspecifier of held-out features for valid_diagnostic.ark (default: hold out --num-utts-subset training utterances)")
	fs.StringVar(&o.ValidTargets, "cv-targets", o.ValidTargets, "rspecifier of held-out targets (default: the training targets)")
	fs.IntVar(&o.NumPdfs, "num-pdfs", o.NumPdfs, "number of pdfs (0: from --transition-model, else the largest pdf-id + 1)")
	fs.StringVar(&o.FeatureDescription, "feature-description", o.FeatureDescription, "how the features were made, stored with the egs and in models trained on them")
}

// GetEgs writes the training examples of featRspec/targetRspec into dir as
// egs.1.ark … egs.N.ark (see egs.go), valid_diagnostic.ark,
// train_diagnostic.ark and info/. It reads the data once, applying the
// CMVN the options describe, into a temporary archive (dir/tmp.ark, with an
// scp into it); then, with a seeded random permutation of the training
// utterances dealt round-robin, archive k gets every N-th utterance of the
// permutation (its utterances shuffled, the archives within one utterance
// of each other in size) and is written under a temporary name and renamed.
// info/num_archives is written last: a directory without it is
// incomplete. Memory holds one utterance at a time and the scp's lines.
func GetEgs(featRspec, targetRspec, dir string, o EgsOptions, log func(string, ...any)) (EgsInfo, error) {
	var info EgsInfo
	if o.NumArchives < 0 || o.SamplesPerIter < 1 || o.NumUttsSubset < 0 {
		return info, fmt.Errorf("dataset: --num-archives=%d, --samples-per-iter=%d, --num-utts-subset=%d: need ≥ 0, ≥ 1, ≥ 0", o.NumArchives, o.SamplesPerIter, o.NumUttsSubset)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return info, err
	}
	// A directory being rewritten must not look complete, nor keep archives of an earlier run.
	if err := os.Remove(filepath.Join(dir, "info", "num_archives")); err != nil && !os.IsNotExist(err) {
		return info, err
	}
	old, _ := filepath.Glob(filepath.Join(dir, "egs.*.ark"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return info, err
		}
	}
	numPdfs := o.NumPdfs
	if numPdfs == 0 && o.Data.TransModel != "" {
		tm, err := hmm.ReadTransitionModel(o.Data.TransModel)
		if err != nil {
			return info, err
		}
		numPdfs = tm.NumPdfs()
	}
	limit := numPdfs
	if limit == 0 {
		limit = math.MaxInt32
	}
	full := o.Data.Pipeline(0)
	full.Features = o.FeatureDescription
	stored := full // what the archives hold: CMVN applied, no splicing
	stored.SpliceLeft, stored.SpliceRight = 0, 0
	maxPdf := int32(-1)
	track := func(pdfs []int32) {
		for _, y := range pdfs {
			maxPdf = max(maxPdf, y)
		}
	}

	// Pass 1: every training utterance, CMVN applied, into tmp.ark with an scp.
	tmpArk, tmpScp := filepath.Join(dir, "tmp.ark"), filepath.Join(dir, "tmp.scp")
	defer os.Remove(tmpArk)
	defer os.Remove(tmpScp)
	w, err := kaldiio.OpenTableWriter("ark,scp:"+tmpArk+","+tmpScp, EgCodec{})
	if err != nil {
		return info, err
	}
	var lengths []int
	rep, err := Each(featRspec, targetRspec, o.Data, &stored, limit, logf(log), func(u *am.Utterance) error {
		track(u.Targets)
		lengths = append(lengths, u.Rows)
		return w.Write(u.Key, egOf(u, stored.RawDim))
	})
	if err != nil {
		w.Abort()
		return info, err
	}
	if err := w.Close(); err != nil {
		return info, err
	}
	log("training data: %v", rep)
	if len(lengths) == 0 {
		return info, fmt.Errorf("dataset: %s: no training utterances with targets", featRspec)
	}
	full.RawDim = stored.RawDim
	lines, err := readLines(tmpScp)
	if err != nil {
		return info, err
	}
	if len(lines) != len(lengths) {
		return info, fmt.Errorf("dataset: %s has %d lines for %d utterances", tmpScp, len(lines), len(lengths))
	}

	// The held-out set: its own tables, or training utterances held out.
	rng := rand.New(rand.NewSource(o.Seed))
	perm := rng.Perm(len(lines))
	nValid, validFrom := 0, "--cv-feats"
	if o.ValidFeats != "" {
		vt := o.ValidTargets
		if vt == "" {
			vt = targetRspec
		}
		vw, err := kaldiio.OpenTableWriter("ark:"+ValidDiagnostic(dir), EgCodec{Compress: o.Compress})
		if err != nil {
			return info, err
		}
		vp := stored
		vrep, err := Each(o.ValidFeats, vt, o.Data, &vp, limit, logf(log), func(u *am.Utterance) error {
			track(u.Targets)
			return vw.Write(u.Key, egOf(u, vp.RawDim))
		})
		if err == nil && vp.RawDim != stored.RawDim {
			err = fmt.Errorf("dataset: held-out features %s have dimension %d, training features %d", o.ValidFeats, vp.RawDim, stored.RawDim)
		}
		if err == nil && vrep.Utterances == 0 {
			err = fmt.Errorf("dataset: %s: no held-out utterances with targets", o.ValidFeats)
		}
		if err != nil {
			vw.Abort()
			return info, err
		}
		if err := vw.Close(); err != nil {
			return info, err
		}
		log("held-out data: %v", vrep)
		nValid = vrep.Utterances
	} else {
		n := min(o.NumUttsSubset, len(lines)/10)
		if n < 1 {
			return info, fmt.Errorf("dataset: %d training utterances and --num-utts-subset=%d leave none to hold out: give --cv-feats", len(lines), o.NumUttsSubset)
		}
		held := append([]int(nil), perm[:n]...)
		nValid, validFrom = n, "held out of the training set"
		perm = perm[n:]
		if err := copyEgs(tmpScp, lines, held, ValidDiagnostic(dir), o.Compress); err != nil {
			return info, err
		}
		log("held out %d random training utterances (--num-utts-subset, at most a tenth) in %s", n, ValidDiagnostic(dir))
	}
	if numPdfs == 0 {
		numPdfs = int(maxPdf) + 1
	}

	// train_diagnostic.ark: a random subset of the training utterances.
	sub := append([]int(nil), perm[:min(o.NumUttsSubset, len(perm))]...)
	if len(sub) > 0 {
		if err := copyEgs(tmpScp, lines, sub, TrainDiagnostic(dir), o.Compress); err != nil {
			return info, err
		}
	}

	// The archives: the permutation dealt round-robin.
	frames := 0
	for _, i := range perm {
		frames += lengths[i]
	}
	na := o.NumArchives
	if na == 0 {
		na = frames/o.SamplesPerIter + 1
	}
	if na > len(perm) {
		return info, fmt.Errorf("dataset: --num-archives=%d but only %d training utterances", na, len(perm))
	}
	for k := 1; k <= na; k++ {
		var idx []int
		for j := k - 1; j < len(perm); j += na {
			idx = append(idx, perm[j])
		}
		if err := copyEgs(tmpScp, lines, idx, EgsArchive(dir, k), o.Compress); err != nil {
			return info, err
		}
	}
	info = EgsInfo{NumArchives: na, NumFrames: frames, NumUtts: len(perm), FeatDim: stored.RawDim, NumPdfs: numPdfs, Pipeline: full}
	if err := info.write(dir); err != nil {
		return info, err
	}
	log("wrote %d archives of %d training utterances (%d frames, about %d per archive), %d held-out utterances (%s), %d in train_diagnostic.ark; %d pdfs; pipeline %s",
		na, len(perm), frames, frames/na, nValid, validFrom, len(sub), numPdfs, full)
	return info, nil
}

func egOf(u *am.Utterance, dim int) Eg {
	return Eg{Feats: kaldiio.Matrix{Rows: u.Rows, Cols: dim, Data: u.Feats}, Pdfs: u.Targets}
}

// copyEgs writes the entries of the scp lines idx (in that order) to the
// archive out, atomically.
func copyEgs(scp string, lines []string, idx []int, out string, compress bool) error {
	sub := out + ".scp.tmp"
	var b strings.Builder
	for _, i := range idx {
		b.WriteString(lines[i])
		b.WriteByte('\n')
	}
	if err := os.WriteFile(sub, []byte(b.String()), 0o644); err != nil {
		return err
	}
	defer os.Remove(sub)
	sr, err := kaldiio.OpenSequentialReader("scp:"+sub, EgCodec{})
	if err != nil {
		return err
	}
	defer sr.Close()
	w, err := kaldiio.OpenTableWriter("ark:"+out, EgCodec{Compress: compress})
	if err != nil {
		return err
	}
	n := 0
	for sr.Next() {
		if err := w.Write(sr.Key(), sr.Value()); err != nil {
			w.Abort()
			return err
		}
		n++
	}
	if err := sr.Err(); err != nil {
		w.Abort()
		return fmt.Errorf("dataset: reading back %s: %w", scp, err)
	}
	if n != len(idx) {
		w.Abort()
		return fmt.Errorf("dataset: %s: read %d of %d examples back", scp, n, len(idx))
	}
	return w.Close()
}

func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		if l := sc.Text(); l != "" {
			out = append(out, l)
		}
	}
	return out, sc.Err()
}

func writeFileAtomic(path, s string) error { return atomicfile.WriteBytes(path, []byte(s)) }

// parsePipeline reads a pipeline written by Pipeline.JSON and validates it.
func parsePipeline(s string) (am.Pipeline, error) {
	var p am.Pipeline
	if err := json.Unmarshal([]byte(s), &p); err != nil {
		return p, err
	}
	return p, p.Validate()
}
