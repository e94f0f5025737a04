package am

// Target delay (Options.TargetDelay = N) gives the unidirectional SRU N
// frames of look-ahead, as nnet1's --targets-delay does for its LSTMs: the
// output at frame t+N is trained on the label of frame t. The utterance is
// extended by N copies of its last feature row and its targets are shifted
// right by N, the first N output frames repeating the first label (usually
// silence). Forward extends the input the same way and drops the first N
// output rows, so loglikes stay frame-aligned with the features and every
// frame, the last ones included, gets an output that saw N frames beyond it.

// delayed returns u extended for a target delay of n frames (u itself
// when n is 0). The features and targets are copied; u is not modified.
// Unspliced features (Utterance.Context) are spliced first: the copies of
// the last row are whole input rows, their left context the real frames.
func delayed(u *Utterance, n int) (*Utterance, error) {
	if n == 0 || u.Rows == 0 {
		return u, nil
	}
	u, err := u.Spliced()
	if err != nil {
		return nil, err
	}
	d := len(u.Feats) / u.Rows
	v := &Utterance{Key: u.Key, Rows: u.Rows + n, Feats: make([]float32, 0, (u.Rows+n)*d)}
	v.Feats = append(v.Feats, u.Feats...)
	last := u.Feats[(u.Rows-1)*d:]
	for range n {
		v.Feats = append(v.Feats, last...)
	}
	// A teacher's rows: its encodings (the prior's input, Utterance.PriorIn)
	// describe the input frames, extended as the features are; its
	// posteriors (Soft) are targets, shifted as they are.
	v.PriorIn, v.Soft = extendRows(u.PriorIn, u.Rows, n, false), extendRows(u.Soft, u.Rows, n, true)
	if u.Targets != nil {
		v.Targets = make([]int32, 0, u.Rows+n)
		for range n {
			v.Targets = append(v.Targets, u.Targets[0])
		}
		v.Targets = append(v.Targets, u.Targets...)
	}
	return v, nil
}

// DelayAll returns utts extended for a target delay of n frames (utts
// itself when n is 0), as a trainer applies Options.TargetDelay to its
// training and held-out sets; the utterances are not modified.
func DelayAll(utts []*Utterance, n int) ([]*Utterance, error) {
	if n == 0 {
		return utts, nil
	}
	out := make([]*Utterance, len(utts))
	for i, u := range utts {
		var err error
		if out[i], err = delayed(u, n); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// extendRows is the rows × c matrix v with n more rows: copies of its last
// row after it, or with shift copies of its first row before it (nil for
// nil).
func extendRows(v []float32, rows, n int, shift bool) []float32 {
	if v == nil || rows == 0 {
		return v
	}
	c := len(v) / rows
	out := make([]float32, 0, len(v)+n*c)
	if !shift {
		out = append(out, v...)
	}
	for range n {
		if shift {
			out = append(out, v[:c]...)
		} else {
			out = append(out, v[len(v)-c:]...)
		}
	}
	if shift {
		out = append(out, v...)
	}
	return out
}
