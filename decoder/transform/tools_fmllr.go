package transform

import (
	"errors"
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/kaldiio"
)

// ComposeOptions are compose-transforms' options.
type ComposeOptions struct {
	BIsAffine bool
	Binary    bool
	Utt2spk   string
}

// DefaultComposeOptions are Kaldi's defaults.
func DefaultComposeOptions() ComposeOptions { return ComposeOptions{Binary: true} }

// Register adds the options to fs.
func (o *ComposeOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.Utt2spk, "utt2spk", o.Utt2spk, "rspecifier for utterance to speaker map (if mixing utterance and speaker ids)")
	fs.BoolVar(&o.BIsAffine, "b-is-affine", o.BIsAffine, "If true, treat last column of transform b as an offset term (only relevant if a is affine)")
	fs.BoolVar(&o.Binary, "binary", o.Binary, "Write in binary mode (only relevant if output is a wxfilename)")
}

// readMatrixFile reads one matrix from an rxfilename.
func readMatrixFile(env Env, rx string) (kaldiio.Matrix, error) {
	var m kaldiio.Matrix
	err := kaldiio.ReadObject(rx, kaldiio.MatrixCodec, &m, env.Opts...)
	return m, err
}

// ComposeTransforms is compose-transforms: C = A·B for single matrices or
// tables of them (per utterance or speaker; with --utt2spk, A per
// utterance and B per speaker). A mismatch of dimensions is an error that
// names both inputs and the key. (Kaldi's --utt2spk branch looks B up by
// the utterance instead of its speaker; we use the speaker, as the option
// says.)
func ComposeTransforms(env Env, o ComposeOptions, aIn, bIn, cOut string) error {
	aTable, bTable := kaldiio.IsRspecifier(aIn), kaldiio.IsRspecifier(bIn)
	cTable := kaldiio.IsWspecifier(cOut)
	if o.Utt2spk != "" && !(aTable && bTable) {
		return fmt.Errorf("Error: utt2spk option provided compose transforms but at least one of the inputs is a global transform.")
	}
	if (aTable || bTable) != cTable {
		return fmt.Errorf("Formats of the input and output rspecifiers/rxfilenames do not match (if either a or b is an rspecifier, then the output must be a wspecifier.")
	}
	compose := func(key string, a, b *kaldiio.Matrix) (kaldiio.Matrix, error) {
		c, err := Compose(a, b, o.BIsAffine)
		if err != nil {
			where := ""
			if key != "" {
				where = " for key " + key
			}
			return c, fmt.Errorf("composing %s (%dx%d) with %s (%dx%d)%s: %w", aIn, a.Rows, a.Cols, bIn, b.Rows, b.Cols, where, err)
		}
		return c, nil
	}
	if !cTable {
		a, err := readMatrixFile(env, aIn)
		if err != nil {
			return err
		}
		b, err := readMatrixFile(env, bIn)
		if err != nil {
			return err
		}
		if !o.BIsAffine && a.Rows+1 == a.Cols && a.Rows == b.Rows && a.Cols == b.Cols {
			env.Warn("It looks like you are trying to compose two affine transforms, but you omitted the --b-is-affine option.")
		}
		c, err := compose("", &a, &b)
		if err != nil {
			return err
		}
		return kaldiio.WriteObject(cOut, kaldiio.MatrixCodec, o.Binary, &c, env.Opts...)
	}
	tw, err := kaldiio.OpenTableWriter(cOut, kaldiio.MatrixCodec, env.Opts...)
	if err != nil {
		return err
	}
	fail := func(err error) error { tw.Abort(); return err }
	switch {
	case aTable && bTable:
		ar, err := kaldiio.OpenSequentialReader(aIn, kaldiio.MatrixCodec, env.Opts...)
		if err != nil {
			return fail(err)
		}
		defer ar.Close()
		br, err := kaldiio.OpenRandomAccessReader(bIn, kaldiio.MatrixCodec, env.Opts...)
		if err != nil {
			return fail(err)
		}
		defer br.Close()
		var u2s *kaldiio.RandomAccessReader[kaldiio.TokenVector]
		if o.Utt2spk != "" {
			if u2s, err = kaldiio.OpenRandomAccessReader(o.Utt2spk, kaldiio.TokenVectorCodec, env.Opts...); err != nil {
				return fail(err)
			}
			defer u2s.Close()
		}
		for ar.Next() {
			key, bKey := ar.Key(), ar.Key()
			if u2s != nil {
				spk, ok, err := lookupSpeaker(u2s, o.Utt2spk, key)
				if err != nil {
					return fail(err)
				}
				if !ok {
					env.Warn("No speaker provided for utterance %s (perhaps you wrongly provided utt2spk option to  compose-transforms?)", key)
					continue
				}
				bKey = spk
			}
			ok, err := br.HasKey(bKey)
			if err != nil {
				return fail(err)
			}
			if !ok {
				env.Warn("Second table does not have key %s", bKey)
				continue
			}
			b, err := br.Value(bKey)
			if err != nil {
				return fail(err)
			}
			a := ar.Value()
			c, err := compose(key, &a, &b)
			if err != nil {
				return fail(err)
			}
			if err := tw.Write(key, c); err != nil {
				return fail(err)
			}
		}
		if err := ar.Err(); err != nil {
			return fail(err)
		}
	default:
		// One side is a single matrix.
		single, table := bIn, aIn
		if !aTable {
			single, table = aIn, bIn
		}
		m, err := readMatrixFile(env, single)
		if err != nil {
			return fail(err)
		}
		sr, err := kaldiio.OpenSequentialReader(table, kaldiio.MatrixCodec, env.Opts...)
		if err != nil {
			return fail(err)
		}
		defer sr.Close()
		for sr.Next() {
			t := sr.Value()
			var c kaldiio.Matrix
			if aTable {
				c, err = compose(sr.Key(), &t, &m)
			} else {
				c, err = compose(sr.Key(), &m, &t)
			}
			if err != nil {
				return fail(err)
			}
			if err := tw.Write(sr.Key(), c); err != nil {
				return fail(err)
			}
		}
		if err := sr.Err(); err != nil {
			return fail(err)
		}
	}
	return tw.Close()
}

// lookupSpeaker is utt2spk[utt]; a line with other than one speaker is an
// error naming the file and the utterance.
func lookupSpeaker(u2s *kaldiio.RandomAccessReader[kaldiio.TokenVector], name, utt string) (string, bool, error) {
	ok, err := u2s.HasKey(utt)
	if err != nil || !ok {
		return "", false, err
	}
	v, err := u2s.Value(utt)
	if err != nil {
		return "", false, err
	}
	if len(v) != 1 {
		return "", false, fmt.Errorf("%s: utterance %s has %d speakers, expected one", name, utt, len(v))
	}
	return v[0], true, nil
}

// TransformFeatsOptions are transform-feats' options.
type TransformFeatsOptions struct{ Utt2spk string }

// Register adds the options to fs.
func (o *TransformFeatsOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.Utt2spk, "utt2spk", o.Utt2spk, "rspecifier for utterance to speaker map")
}

// TransformFeats is transform-feats: one global transform (an rxfilename)
// or a table of them by utterance (or by speaker with --utt2spk), linear or
// affine, and Kaldi's average [pseudo-]logdet. A table transform that does
// not fit an utterance is warned about and the utterance skipped, as Kaldi
// does; a global one that does not fit the features is an error naming the
// file, the utterance and both dimensions (Kaldi would skip every
// utterance and succeed with nothing written).
func TransformFeats(env Env, o TransformFeatsOptions, tIn, featRspec, featWspec string) error {
	var global *kaldiio.Matrix
	var tr *kaldiio.RandomAccessReader[kaldiio.Matrix]
	if !kaldiio.IsRspecifier(tIn) {
		m, err := readMatrixFile(env, tIn)
		if err != nil {
			return err
		}
		global = &m
	} else {
		var err error
		if tr, err = kaldiio.OpenRandomAccessReader(tIn, kaldiio.MatrixCodec, env.Opts...); err != nil {
			return fmt.Errorf("Problem opening transforms with rspecifier %s: %w", tIn, err)
		}
		defer tr.Close()
	}
	var u2s *kaldiio.RandomAccessReader[kaldiio.TokenVector]
	if o.Utt2spk != "" {
		var err error
		if u2s, err = kaldiio.OpenRandomAccessReader(o.Utt2spk, kaldiio.TokenVectorCodec, env.Opts...); err != nil {
			return err
		}
		defer u2s.Close()
	}
	sr, err := kaldiio.OpenSequentialReader(featRspec, kaldiio.MatrixCodec, env.Opts...)
	if err != nil {
		return err
	}
	defer sr.Close()
	tw, err := kaldiio.OpenTableWriter(featWspec, kaldiio.MatrixCodec, env.Opts...)
	if err != nil {
		return err
	}
	fail := func(err error) error { tw.Abort(); return err }
	kind, kindSet := LogDetTrue, false
	totT, totLogdet := 0.0, 0.0
	done, bad := 0, 0
	for sr.Next() {
		utt := sr.Key()
		key := utt
		if u2s != nil {
			spk, ok, err := lookupSpeaker(u2s, o.Utt2spk, utt)
			if err != nil {
				return fail(err)
			}
			if !ok {
				env.Warn("Utt2spk map has no value for utterance %s, producing no output for this utterance", utt)
				bad++
				continue
			}
			key = spk
		}
		t := global
		if t == nil {
			ok, err := tr.HasKey(key)
			if err != nil {
				return fail(err)
			}
			if !ok {
				if key == utt {
					env.Warn("No fMLLR transform available for utterance %s, producing no output for this utterance", utt)
				} else {
					env.Warn("No fMLLR transform available for utterance %s [spk = %s], producing no output for this utterance", utt, key)
				}
				bad++
				continue
			}
			m, err := tr.Value(key)
			if err != nil {
				return fail(err)
			}
			t = &m
		}
		x := sr.Value()
		y, err := Apply(t, &x)
		if err != nil {
			if global != nil && errors.Is(err, ErrTransformDim) {
				return fail(fmt.Errorf("transform %s does not fit utterance %s of %s: %w", tIn, utt, featRspec, err))
			}
			env.Warn("Transform matrix for key %s has bad dimension %dx%d versus feat dim %d", key, t.Rows, t.Cols, x.Cols)
			if t.Cols == x.Cols+2 {
				env.Warn("[perhaps the transform was created by compose-transforms, and you forgot the --b-is-affine option?]")
			}
			bad++
			continue
		}
		done++
		if !kindSet {
			_, kind = LogDet(t, x.Cols)
			kindSet = true
		}
		if kind != LogDetNone {
			ld, _ := LogDet(t, x.Cols)
			if ld != ld || ld-ld != 0 {
				env.Warn("Matrix has bad logdet %s", g6(ld))
			} else {
				totT += float64(x.Rows)
				totLogdet += float64(x.Rows) * ld
			}
		}
		if err := tw.Write(utt, y); err != nil {
			return fail(err)
		}
	}
	if err := sr.Err(); err != nil {
		return fail(err)
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if kindSet && kind != LogDetNone {
		pseudo := ""
		if kind == LogDetPseudo {
			pseudo = "[pseudo-]"
		}
		env.Log("Overall average %slogdet is %s over %s frames.", pseudo, g6(totLogdet/totT), g6(totT))
	}
	env.Log("Applied transform to %d utterances; %d had errors.", done, bad)
	return nil
}

// EstFmllrOptions are gmm-est-fmllr's (and gmm-est-fmllr-gpost's) options.
type EstFmllrOptions struct {
	Spk2utt string
	Fmllr   FmllrOptions
}

// DefaultEstFmllrOptions are Kaldi's defaults.
func DefaultEstFmllrOptions() EstFmllrOptions { return EstFmllrOptions{Fmllr: DefaultFmllrOptions()} }

// Register adds the options to fs.
func (o *EstFmllrOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.Spk2utt, "spk2utt", o.Spk2utt, "rspecifier for speaker to utterance-list map")
	o.Fmllr.Register(fs)
}

// fmllrAccumulator adds one utterance of features and its table entry to
// the statistics; gmm-est-fmllr and gmm-est-fmllr-gpost differ only there.
type fmllrAccumulator[P any] struct {
	codec  kaldiio.Codec[P]
	frames func(P) int
	acc    func(key string, m *gmm.Model, x *kaldiio.Matrix, p P, f *FmllrAccs) error
	what   string // "posteriors" or "gposts"
}

// GmmEstFmllr is gmm-est-fmllr: one fMLLR transform per utterance, or per
// speaker with --spk2utt, from posteriors on transition-ids.
func GmmEstFmllr(env Env, o EstFmllrOptions, modelRx, featRspec, postRspec, transWspec string) error {
	return estFmllr(env, o, modelRx, featRspec, postRspec, transWspec, fmllrAccumulator[kaldiio.Posterior]{
		codec:  kaldiio.PosteriorCodec,
		frames: func(p kaldiio.Posterior) int { return len(p) },
		what:   "posts",
		acc: func(key string, m *gmm.Model, x *kaldiio.Matrix, post kaldiio.Posterior, f *FmllrAccs) error {
			if err := checkPost(&m.Trans, post); err != nil {
				return fmt.Errorf("posteriors of %s in %s (model %s): %w", key, postRspec, modelRx, err)
			}
			for t, frame := range post {
				for _, e := range frame {
					f.AccumulateForGmm(&m.AM.Pdfs[m.Trans.TransitionIDToPdf(e.ID)], x.Row(t), e.Weight)
				}
			}
			return nil
		},
	})
}

// GmmEstFmllrGpost is gmm-est-fmllr-gpost: the same from Gaussian-level
// posteriors (gmm-post-to-gpost's output).
func GmmEstFmllrGpost(env Env, o EstFmllrOptions, modelRx, featRspec, gpostRspec, transWspec string) error {
	return estFmllr(env, o, modelRx, featRspec, gpostRspec, transWspec, fmllrAccumulator[GaussPost]{
		codec:  GaussPostCodec,
		frames: func(p GaussPost) int { return len(p) },
		what:   "gposts",
		acc: func(key string, m *gmm.Model, x *kaldiio.Matrix, gp GaussPost, f *FmllrAccs) error {
			for t, frame := range gp {
				for _, e := range frame {
					if !m.Trans.ValidTransitionID(e.ID) {
						return fmt.Errorf("gposts of %s in %s: frame %d: transition-id %d is not in the model %s", key, gpostRspec, t, e.ID, modelRx)
					}
					g := &m.AM.Pdfs[m.Trans.TransitionIDToPdf(e.ID)]
					if len(e.Posts) != g.NumGauss() {
						return fmt.Errorf("gposts of %s in %s: frame %d: %d Gaussian posteriors for a pdf of %d Gaussians in %s", key, gpostRspec, t, len(e.Posts), g.NumGauss(), modelRx)
					}
					f.AccumulateFromPosteriors(g, x.Row(t), e.Posts)
				}
			}
			return nil
		},
	})
}

func estFmllr[P any](env Env, o EstFmllrOptions, modelRx, featRspec, postRspec, transWspec string, a fmllrAccumulator[P]) error {
	if err := o.Fmllr.Check(); err != nil {
		return err
	}
	m, err := readGmmModel(env, modelRx)
	if err != nil {
		return err
	}
	dim := m.AM.Dim
	posts, err := kaldiio.OpenRandomAccessReader(postRspec, a.codec, env.Opts...)
	if err != nil {
		return err
	}
	defer posts.Close()
	tw, err := kaldiio.OpenTableWriter(transWspec, kaldiio.MatrixCodec, env.Opts...)
	if err != nil {
		return err
	}
	fail := func(err error) error { tw.Abort(); return err }
	totImpr, totT := 0.0, 0.0
	done, noPost, other := 0, 0, 0
	// addUtt accumulates one utterance; false when it was skipped.
	addUtt := func(utt string, x *kaldiio.Matrix, f *FmllrAccs) (bool, error) {
		ok, err := posts.HasKey(utt)
		if err != nil {
			return false, err
		}
		if !ok {
			env.Warn("Did not find %s for utterance %s", a.what, utt)
			noPost++
			return false, nil
		}
		p, err := posts.Value(utt)
		if err != nil {
			return false, err
		}
		if a.frames(p) != x.Rows {
			env.Warn("Posterior vector has wrong size %d vs. %d", a.frames(p), x.Rows)
			other++
			return false, nil
		}
		if err := checkFeatDim(utt, featRspec, x.Cols, modelRx, dim); err != nil {
			return false, err
		}
		if err := a.acc(utt, m, x, p, f); err != nil {
			return false, err
		}
		done++
		return true, nil
	}
	estimate := func(key, what string, f *FmllrAccs) error {
		w := Identity(dim)
		res, err := f.Update(o.Fmllr, w, env.Log, env.Warn)
		if err != nil {
			return fmt.Errorf("fMLLR for %s %s: %w", what, key, err)
		}
		if err := tw.Write(key, FmllrMatrix(dim, w)); err != nil {
			return err
		}
		env.Log("For %s %s, auxf-impr from fMLLR is %s, over %s frames.", what, key, g6(res.Improvement/res.Count), g6(res.Count))
		totImpr += res.Improvement
		totT += res.Count
		return nil
	}
	if o.Spk2utt != "" {
		feats, err := kaldiio.OpenRandomAccessReader(featRspec, kaldiio.MatrixCodec, env.Opts...)
		if err != nil {
			return fail(err)
		}
		defer feats.Close()
		s2u, err := kaldiio.OpenSequentialReader(o.Spk2utt, kaldiio.TokenVectorCodec, env.Opts...)
		if err != nil {
			return fail(err)
		}
		defer s2u.Close()
		for s2u.Next() {
			f := NewFmllrAccs(dim)
			for _, utt := range s2u.Value() {
				ok, err := feats.HasKey(utt)
				if err != nil {
					return fail(err)
				}
				if !ok {
					env.Warn("Did not find features for utterance %s", utt)
					other++
					continue
				}
				x, err := feats.Value(utt)
				if err != nil {
					return fail(err)
				}
				if _, err := addUtt(utt, &x, f); err != nil {
					return fail(err)
				}
			}
			if err := estimate(s2u.Key(), "speaker", f); err != nil {
				return fail(err)
			}
		}
		if err := s2u.Err(); err != nil {
			return fail(err)
		}
	} else {
		feats, err := kaldiio.OpenSequentialReader(featRspec, kaldiio.MatrixCodec, env.Opts...)
		if err != nil {
			return fail(err)
		}
		defer feats.Close()
		for feats.Next() {
			f := NewFmllrAccs(dim)
			x := feats.Value()
			ok, err := addUtt(feats.Key(), &x, f)
			if err != nil {
				return fail(err)
			}
			if !ok {
				continue
			}
			if err := estimate(feats.Key(), "utterance", f); err != nil {
				return fail(err)
			}
		}
		if err := feats.Err(); err != nil {
			return fail(err)
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	env.Log("Done %d files, %d with no %s, %d with other errors.", done, noPost, a.what, other)
	env.Log("Overall fMLLR auxf impr per frame is %s over %s frames.", g6(totImpr/totT), g6(totT))
	if done == 0 {
		return nothingDone("no utterances with features and " + a.what)
	}
	return nil
}

// GmmPostToGpost is gmm-post-to-gpost: each posterior entry becomes the
// posteriors of its pdf's Gaussians on that frame, scaled by its weight.
func GmmPostToGpost(env Env, modelRx, featRspec, postRspec, gpostWspec string) error {
	m, err := readGmmModel(env, modelRx)
	if err != nil {
		return err
	}
	tw, err := kaldiio.OpenTableWriter(gpostWspec, GaussPostCodec, env.Opts...)
	if err != nil {
		return err
	}
	totLike, totT := 0.0, 0.0
	done, noPost, other, err := frameLoop(env, featRspec, postRspec, false, func(key string, x *kaldiio.Matrix, post kaldiio.Posterior) error {
		if err := checkFeatDim(key, featRspec, x.Cols, modelRx, m.AM.Dim); err != nil {
			return err
		}
		if err := checkPost(&m.Trans, post); err != nil {
			return fmt.Errorf("posteriors of %s in %s (model %s): %w", key, postRspec, modelRx, err)
		}
		gp := make(GaussPost, len(post))
		var like, weight float32
		for t, frame := range post {
			gp[t] = make([]GaussPostEntry, len(frame))
			for j, e := range frame {
				g := &m.AM.Pdfs[m.Trans.TransitionIDToPdf(e.ID)]
				v := make(kaldiio.Vector, g.NumGauss())
				ll := g.ComponentPosteriors(x.Row(t), v)
				for i := range v {
					v[i] *= e.Weight
				}
				gp[t][j] = GaussPostEntry{ID: e.ID, Posts: v}
				like += ll * e.Weight
				weight += e.Weight
			}
		}
		totLike += float64(like)
		totT += float64(weight)
		return tw.Write(key, gp)
	})
	if err != nil {
		tw.Abort()
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	env.Log("Num frames %s, avg like per frame (Gaussian only) = %s", g6(totT), g6(totLike/totT))
	env.Log("Done %d files, %d with no posteriors, %d with other errors.", done, noPost, other)
	env.Log("Done converting post to gpost")
	if done == 0 {
		return nothingDone("no utterances with features and posteriors")
	}
	return nil
}
