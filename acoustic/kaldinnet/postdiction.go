package kaldinnet

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/kaldiio"
)

// PostdictionOptions select the utterance and frame and where results go.
type PostdictionOptions struct {
	Utt        string // --utt
	Frame      int    // --frame (−1: table only)
	Ali        string // --ali: alignment rspecifier (transition-ids with TransModel, else pdf-ids)
	TransModel string // --transition-model
	OutDir     string // --out-dir: UTT_FRAME.json, .png and .svg
	CMVN       string // --cmvn, when the model's pipeline reads CMVN stats
	Utt2spk    string // --utt2spk
}

// DefaultPostdictionOptions: the t̃ table only, files in the current
// directory.
func DefaultPostdictionOptions() PostdictionOptions {
	return PostdictionOptions{Frame: -1, OutDir: "."}
}

// Register adds strode postdiction's options to fs.
func (o *PostdictionOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.Utt, "utt", o.Utt, "utterance to analyse (required)")
	fs.IntVar(&o.Frame, "frame", o.Frame, "frame whose trajectory is plotted (-1: only the t~ table)")
	fs.StringVar(&o.Ali, "ali", o.Ali, "alignment rspecifier giving the true labels")
	fs.StringVar(&o.TransModel, "transition-model", o.TransModel, "model mapping --ali transition-ids to pdf-ids (pdf-ids when empty)")
	fs.StringVar(&o.OutDir, "out-dir", o.OutDir, "directory for UTT_FRAME.json, UTT_FRAME.png and UTT_FRAME.svg")
	fs.StringVar(&o.CMVN, "cmvn", o.CMVN, "CMVN statistics rspecifier, when the model's pipeline applies CMVN from a table")
	fs.StringVar(&o.Utt2spk, "utt2spk", o.Utt2spk, "utterance-to-speaker rspecifier for --cmvn")
}

// Postdiction runs the model on one utterance, writes the per-frame t̃
// table (frame, t̃, aligned pdf, arg-max pdf) to table and, for the chosen
// frame, the trajectory of Figure 3 as JSON and PNG. It returns the
// trajectory (nil when no frame was asked for).
func Postdiction(f *am.File, featRspec string, o PostdictionOptions, table io.Writer) (*am.Trajectory, error) {
	if !f.Model.HasTTilde() {
		return nil, fmt.Errorf("dataset: postdiction needs a strode model, this one is %q", f.Model.Opts.Kind)
	}
	ra, err := kaldiio.OpenRandomAccessReader(featRspec, kaldiio.MatrixCodec)
	if err != nil {
		return nil, err
	}
	defer ra.Close()
	m, err := ra.Value(o.Utt)
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: utterance %s: %w", featRspec, o.Utt, err)
	}
	var labels []int32
	if o.Ali != "" {
		ar, err := kaldiio.OpenRandomAccessReader(o.Ali, kaldiio.IntVectorCodec)
		if err != nil {
			return nil, err
		}
		ali, err := ar.Value(o.Utt)
		ar.Close()
		if err != nil && !errors.Is(err, kaldiio.ErrNotFound) {
			return nil, err
		}
		labels = append(labels, ali...)
		if o.TransModel != "" && labels != nil {
			tm, err := hmm.ReadTransitionModel(o.TransModel)
			if err != nil {
				return nil, err
			}
			t2p := tm.TransitionIDToPdfArray()
			for i, v := range labels {
				if v < 1 || int(v) >= len(t2p) {
					return nil, fmt.Errorf("dataset: %s: utterance %s frame %d: transition-id %d out of range", o.Ali, o.Utt, i, v)
				}
				labels[i] = t2p[v]
			}
		}
		if labels != nil && len(labels) != m.Rows {
			return nil, fmt.Errorf("dataset: utterance %s: %d feature frames, %d aligned frames", o.Utt, m.Rows, len(labels))
		}
	}
	tr, err := NewTransformer(f.Pipeline, o.CMVN, o.Utt2spk)
	if err != nil {
		return nil, err
	}
	defer tr.Close()
	feats, err := tr.Apply(o.Utt, &m)
	if err != nil {
		return nil, err
	}
	fw := am.NewForwarder(f.Model)
	defer fw.Close()
	g, err := fw.Run(&am.Utterance{Key: o.Utt, Rows: m.Rows, Feats: feats})
	if err != nil {
		return nil, err
	}
	tt := g.Rows(g.TTilde, 0)
	enc := g.Rows(g.Enc, 0)
	logits := g.Output(0, nil)
	p := f.Model.Opts.NumPdfs
	hid := f.Model.Opts.SRU.OutDim()
	fmt.Fprintf(table, "# utterance %s: frame t~ aligned-pdf argmax-pdf\n", o.Utt)
	for i := 0; i < m.Rows; i++ {
		row := logits[i*p : (i+1)*p]
		best := 0
		for j, v := range row {
			if v > row[best] {
				best = j
			}
		}
		lab := -1
		if labels != nil {
			lab = int(labels[i])
		}
		fmt.Fprintf(table, "%d %.6g %d %d\n", i, tt[i], lab, best)
	}
	if o.Frame < 0 {
		return nil, nil
	}
	if o.Frame >= m.Rows {
		return nil, fmt.Errorf("dataset: utterance %s has %d frames, --frame=%d", o.Utt, m.Rows, o.Frame)
	}
	lab := -1
	if labels != nil {
		lab = int(labels[o.Frame])
	}
	traj, err := f.Model.Postdiction(enc[o.Frame*hid:(o.Frame+1)*hid], tt[o.Frame], lab)
	if err != nil {
		return nil, err
	}
	traj.Utt, traj.Frame = o.Utt, o.Frame
	if o.OutDir != "" {
		base := filepath.Join(o.OutDir, fmt.Sprintf("%s_%d", o.Utt, o.Frame))
		if err := traj.WriteJSON(base + ".json"); err != nil {
			return nil, err
		}
		if err := traj.WritePNG(base + ".png"); err != nil {
			return nil, err
		}
	}
	return traj, nil
}
