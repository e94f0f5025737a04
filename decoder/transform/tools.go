package transform

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/internal/glibcrand"
	"github.com/strode-asr/strode/kaldiio"
)

// The command-line tools of Kaldi's src/transform users (bin, gmmbin,
// featbin), one function each, so that cmd/strode only registers options
// and calls them. Each reads and writes Kaldi tables through kaldiio and
// logs what the Kaldi binary logs.

// Env is what a tool needs from its command: the table options (its
// standard streams) and its log and warning lines.
type Env struct {
	Opts []kaldiio.Option
	Log  func(format string, a ...any)
	Warn func(format string, a ...any)
}

// ErrNothingDone is wrapped by the error of a tool that processed nothing:
// Kaldi's binaries then exit with status 1 (not the failure status of an
// exception).
var ErrNothingDone = errors.New("no utterances processed")

func nothingDone(what string) error { return fmt.Errorf("%w (%s)", ErrNothingDone, what) }

// AliToPost is ali-to-post.
func AliToPost(env Env, aliRspec, postWspec string) error {
	sr, err := kaldiio.OpenSequentialReader(aliRspec, kaldiio.IntVectorCodec, env.Opts...)
	if err != nil {
		return err
	}
	defer sr.Close()
	tw, err := kaldiio.OpenTableWriter(postWspec, kaldiio.PosteriorCodec, env.Opts...)
	if err != nil {
		return err
	}
	done := 0
	for sr.Next() {
		done++
		if err := tw.Write(sr.Key(), AlignmentToPosterior(sr.Value())); err != nil {
			tw.Abort()
			return err
		}
	}
	if err := sr.Err(); err != nil {
		tw.Abort()
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	env.Log("Converted %d alignments.", done)
	if done == 0 {
		return nothingDone("no alignments in " + aliRspec)
	}
	return nil
}

// WeightSilenceOptions are weight-silence-post's options.
type WeightSilenceOptions struct{ Distribute bool }

// Register adds the options to fs.
func (o *WeightSilenceOptions) Register(fs *flag.FlagSet) {
	fs.BoolVar(&o.Distribute, "distribute", o.Distribute, "If true, rather than weighting the individual posteriors, apply the weighting to the whole frame: i.e. on time t, scale all posterior entries by p(sil)*silence-weight + p(non-sil)*1.0")
}

// ParsePhoneList parses a colon-separated list of phone ids ("1:2:3"), as
// Kaldi's SplitStringToIntegers with ":"; "" is the empty list.
func ParsePhoneList(s string) ([]int32, error) {
	if s == "" {
		return nil, nil
	}
	var out []int32
	for _, f := range strings.Split(s, ":") {
		v, err := strconv.ParseInt(strings.TrimSpace(f), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("Invalid silence-phones string %s", s)
		}
		out = append(out, int32(v))
	}
	return out, nil
}

// WeightSilencePostTool is weight-silence-post: <silence-weight>
// <silence-phones> <model> <posteriors-rspecifier> <posteriors-wspecifier>.
func WeightSilencePostTool(env Env, o WeightSilenceOptions, weightStr, phonesStr, modelRx, rspec, wspec string) error {
	w, err := strconv.ParseFloat(weightStr, 32)
	if err != nil {
		return fmt.Errorf("Invalid silence-weight parameter: expected float, got %q", weightStr)
	}
	phones, err := ParsePhoneList(phonesStr)
	if err != nil {
		return err
	}
	if len(phones) == 0 {
		env.Warn("No silence phones, this will have no effect")
	}
	sil := map[int32]bool{}
	for _, p := range phones {
		sil[p] = true
	}
	tm := &hmm.TransitionModel{}
	if err := kaldiio.ReadObject(modelRx, hmm.TransitionModelCodec, tm, env.Opts...); err != nil {
		return err
	}
	done, err := mapPost(env, rspec, wspec, func(key string, post kaldiio.Posterior) error {
		if err := WeightSilencePost(tm, sil, float32(w), o.Distribute, post); err != nil {
			return fmt.Errorf("posteriors of %s in %s (model %s): %w", key, rspec, modelRx, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	env.Log("Done %d posteriors.", done)
	if done == 0 {
		return nothingDone("no posteriors in " + rspec)
	}
	return nil
}

func mapPost(env Env, rspec, wspec string, f func(string, kaldiio.Posterior) error) (int, error) {
	sr, err := kaldiio.OpenSequentialReader(rspec, kaldiio.PosteriorCodec, env.Opts...)
	if err != nil {
		return 0, err
	}
	defer sr.Close()
	tw, err := kaldiio.OpenTableWriter(wspec, kaldiio.PosteriorCodec, env.Opts...)
	if err != nil {
		return 0, err
	}
	done := 0
	for sr.Next() {
		post := sr.Value()
		if err := f(sr.Key(), post); err != nil {
			tw.Abort()
			return done, err
		}
		if err := tw.Write(sr.Key(), post); err != nil {
			tw.Abort()
			return done, err
		}
		done++
	}
	if err := sr.Err(); err != nil {
		tw.Abort()
		return done, err
	}
	return done, tw.Close()
}

// AccOptions are the options of the statistics tools (acc-lda's and
// gmm-acc-mllt's --binary and --rand-prune; their defaults differ).
type AccOptions struct {
	Binary    bool
	RandPrune float64
}

// Register adds the options to fs.
func (o *AccOptions) Register(fs *flag.FlagSet) {
	fs.BoolVar(&o.Binary, "binary", o.Binary, "Write accumulators in binary mode.")
	fs.Float64Var(&o.RandPrune, "rand-prune", o.RandPrune, "Randomized pruning threshold for posteriors")
}

// frameLoop runs f over every utterance of a feature table that has
// posteriors of as many frames, with Kaldi's warnings and counts for the
// others. It returns (done, no posteriors, other errors).
func frameLoop(env Env, featRspec, postRspec string, warnMissing bool, f func(key string, feats *kaldiio.Matrix, post kaldiio.Posterior) error) (done, noPost, other int, err error) {
	feats, err := kaldiio.OpenSequentialReader(featRspec, kaldiio.MatrixCodec, env.Opts...)
	if err != nil {
		return 0, 0, 0, err
	}
	defer feats.Close()
	posts, err := kaldiio.OpenRandomAccessReader(postRspec, kaldiio.PosteriorCodec, env.Opts...)
	if err != nil {
		return 0, 0, 0, err
	}
	defer posts.Close()
	for feats.Next() {
		key := feats.Key()
		ok, err := posts.HasKey(key)
		if err != nil {
			return done, noPost, other, err
		}
		if !ok {
			if warnMissing {
				env.Warn("No posteriors for utterance %s", key)
			}
			noPost++
			continue
		}
		post, err := posts.Value(key)
		if err != nil {
			return done, noPost, other, err
		}
		x := feats.Value()
		if len(post) != x.Rows {
			env.Warn("Posterior vector has wrong size %d vs. %d", len(post), x.Rows)
			other++
			continue
		}
		if err := f(key, &x, post); err != nil {
			return done, noPost, other, err
		}
		done++
	}
	return done, noPost, other, feats.Err()
}

// AccLda is acc-lda: LDA statistics by pdf from features and posteriors
// on transition-ids.
func AccLda(env Env, o AccOptions, modelRx, featRspec, postRspec, accWx string) error {
	tm := &hmm.TransitionModel{}
	if err := kaldiio.ReadObject(modelRx, hmm.TransitionModelCodec, tm, env.Opts...); err != nil {
		return err
	}
	var accs *LdaAccs
	rng := glibcrand.New(1)
	fail, n := 0, 0
	done, noPost, other, err := frameLoop(env, featRspec, postRspec, true, func(key string, x *kaldiio.Matrix, post kaldiio.Posterior) error {
		if accs == nil {
			accs = NewLdaAccs(tm.NumPdfs(), x.Cols)
		}
		if x.Cols != accs.Dim {
			env.Warn("Feature dimension mismatch %d vs. %d", accs.Dim, x.Cols)
			fail++
			return nil
		}
		if err := checkPost(tm, post); err != nil {
			return fmt.Errorf("posteriors of %s in %s (model %s): %w", key, postRspec, modelRx, err)
		}
		for t, frame := range PostToPdfs(tm, post) {
			for _, e := range frame {
				if w := RandPrune(float64(e.Weight), o.RandPrune, rng); w != 0 {
					accs.Accumulate(x.Row(t), int(e.ID), float32(w))
				}
			}
		}
		if n++; n%100 == 0 {
			env.Log("Done %d utterances.", n)
		}
		return nil
	})
	if err != nil {
		return err
	}
	done -= fail
	env.Log("Done %d files, failed for %d", done, noPost+other+fail)
	if accs == nil {
		accs = NewLdaAccs(tm.NumPdfs(), 0)
	}
	if err := kaldiio.WriteObject(accWx, LdaAccsCodec, o.Binary, accs, env.Opts...); err != nil {
		return err
	}
	env.Log("Written statistics.")
	if done == 0 {
		return nothingDone("no utterances with features and posteriors")
	}
	return nil
}

// EstLdaOptions are est-lda's options.
type EstLdaOptions struct {
	Binary     bool
	FullMatrix string
	Lda        LdaOptions
}

// DefaultEstLdaOptions are Kaldi's defaults.
func DefaultEstLdaOptions() EstLdaOptions {
	return EstLdaOptions{Binary: true, Lda: DefaultLdaOptions()}
}

// Register adds the options to fs.
func (o *EstLdaOptions) Register(fs *flag.FlagSet) {
	fs.BoolVar(&o.Binary, "binary", o.Binary, "Write matrix in binary mode.")
	fs.StringVar(&o.FullMatrix, "write-full-matrix", o.FullMatrix, "Write full LDA matrix to this location.")
	o.Lda.Register(fs)
}

// EstLda is est-lda: sums the statistics files and writes the LDA matrix.
func EstLda(env Env, o EstLdaOptions, matWx string, accRxs []string) error {
	var sum *LdaAccs
	for _, rx := range accRxs {
		var a LdaAccs
		if err := kaldiio.ReadObject(rx, LdaAccsCodec, &a, env.Opts...); err != nil {
			return err
		}
		if sum == nil {
			sum = &a
		} else if err := sum.Add(&a); err != nil {
			return fmt.Errorf("%s: %w", rx, err)
		}
	}
	if sum == nil {
		return fmt.Errorf("no LDA statistics given")
	}
	res, err := sum.Estimate(o.Lda, env.Log)
	if err != nil {
		return fmt.Errorf("LDA from %s: %w", strings.Join(accRxs, " "), err)
	}
	if err := kaldiio.WriteObject(matWx, kaldiio.MatrixCodec, o.Binary, &res.M, env.Opts...); err != nil {
		return err
	}
	if o.FullMatrix != "" {
		if err := kaldiio.WriteObject(o.FullMatrix, kaldiio.MatrixCodec, o.Binary, &res.Full, env.Opts...); err != nil {
			return err
		}
	}
	return nil
}

// readGmmModel reads a GMM model and names the file in its error.
func readGmmModel(env Env, rx string) (*gmm.Model, error) {
	return gmm.ReadModel(rx, env.Opts...)
}

// checkFeatDim is the error for features whose dimension is not the
// model's.
func checkFeatDim(key, featRspec string, got int, modelRx string, want int) error {
	if got != want {
		return fmt.Errorf("utterance %s in %s: features have dimension %d, the model %s has %d", key, featRspec, got, modelRx, want)
	}
	return nil
}

// GmmAccMllt is gmm-acc-mllt.
func GmmAccMllt(env Env, o AccOptions, modelRx, featRspec, postRspec, accWx string) error {
	m, err := readGmmModel(env, modelRx)
	if err != nil {
		return err
	}
	accs := NewMlltAccs(m.AM.Dim, o.RandPrune)
	totLike, totT := 0.0, 0.0
	n := 0
	done, noPost, other, err := frameLoop(env, featRspec, postRspec, false, func(key string, x *kaldiio.Matrix, post kaldiio.Posterior) error {
		if err := checkFeatDim(key, featRspec, x.Cols, modelRx, m.AM.Dim); err != nil {
			return err
		}
		if err := checkPost(&m.Trans, post); err != nil {
			return fmt.Errorf("posteriors of %s in %s (model %s): %w", key, postRspec, modelRx, err)
		}
		var like, weight float32
		for t, frame := range post {
			for _, e := range frame {
				pdf := m.Trans.TransitionIDToPdf(e.ID)
				like += accs.AccumulateFromGmm(&m.AM.Pdfs[pdf], x.Row(t), e.Weight) * e.Weight
				weight += e.Weight
			}
		}
		env.Log("Average like for this file is %s over %s frames.", g6(float64(like/weight)), g6(float64(weight)))
		totLike += float64(like)
		totT += float64(weight)
		n++
		if n%10 == 0 {
			env.Log("Avg like per frame so far is %s", g6(totLike/totT))
		}
		return nil
	})
	if err != nil {
		return err
	}
	env.Log("Done %d files, %d with no posteriors, %d with other errors.", done, noPost, other)
	env.Log("Overall avg like per frame (Gaussian only) = %s over %s frames.", g6(totLike/totT), g6(totT))
	if err := kaldiio.WriteObject(accWx, MlltAccsCodec, o.Binary, accs, env.Opts...); err != nil {
		return err
	}
	env.Log("Written accs.")
	if done == 0 {
		return nothingDone("no utterances with features and posteriors")
	}
	return nil
}

// BinaryOption is the --binary option alone, with the tool's default.
type BinaryOption struct{ Binary bool }

// Register adds the option to fs.
func (o *BinaryOption) Register(fs *flag.FlagSet) {
	fs.BoolVar(&o.Binary, "binary", o.Binary, "Write output in binary mode")
}

// EstMllt is est-mllt: sums the statistics files and writes the MLLT
// matrix, estimated from the identity.
func EstMllt(env Env, o BinaryOption, matWx string, accRxs []string) error {
	var sum MlltAccs
	for _, rx := range accRxs {
		var a MlltAccs
		if err := kaldiio.ReadObject(rx, MlltAccsCodec, &a, env.Opts...); err != nil {
			return err
		}
		if err := sum.Add(&a); err != nil {
			return fmt.Errorf("%s: %w", rx, err)
		}
	}
	dim := sum.Dim()
	if dim == 0 {
		return fmt.Errorf("MLLT statistics of dimension 0 in %s", strings.Join(accRxs, " "))
	}
	a := make([]float64, dim*dim)
	for i := 0; i < dim; i++ {
		a[i*dim+i] = 1
	}
	res, err := sum.Update(a, env.Log, env.Warn)
	if err != nil {
		return fmt.Errorf("MLLT from %s: %w", strings.Join(accRxs, " "), err)
	}
	mat := fromDouble(dim, dim, a)
	env.Log("Overall objective function improvement for MLLT is %s over %s frames, logdet is %s",
		g6(res.Improvement/res.Count), g6(res.Count), g6(logDetDense(dim, toDouble(&mat))))
	return kaldiio.WriteObject(matWx, kaldiio.MatrixCodec, o.Binary, &mat, env.Opts...)
}

// GmmTransformMeans is gmm-transform-means.
func GmmTransformMeans(env Env, o BinaryOption, matRx, modelRx, modelWx string) error {
	var t kaldiio.Matrix
	if err := kaldiio.ReadObject(matRx, kaldiio.MatrixCodec, &t, env.Opts...); err != nil {
		return err
	}
	m, err := readGmmModel(env, modelRx)
	if err != nil {
		return err
	}
	if err := TransformMeans(&t, &m.AM); err != nil {
		return fmt.Errorf("transform %s on model %s: %w", matRx, modelRx, err)
	}
	if err := kaldiio.WriteObject(modelWx, gmm.ModelCodec, o.Binary, m, env.Opts...); err != nil {
		return err
	}
	env.Log("Written model to %s", modelWx)
	return nil
}
