package transform

import (
	"fmt"
	"slices"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/kaldiio"
)

// AlignmentToPosterior is ali-to-post: every frame's transition-id with
// weight 1.
func AlignmentToPosterior(ali []int32) kaldiio.Posterior {
	post := make(kaldiio.Posterior, len(ali))
	for i, id := range ali {
		post[i] = []kaldiio.PostEntry{{ID: id, Weight: 1}}
	}
	return post
}

// checkPost fails on a transition-id the model does not have: Kaldi
// indexes its tables with it unchecked (undefined behaviour); we name it.
func checkPost(tm *hmm.TransitionModel, post kaldiio.Posterior) error {
	for t, frame := range post {
		for _, e := range frame {
			if !tm.ValidTransitionID(e.ID) {
				return fmt.Errorf("frame %d: transition-id %d is not in the model (which has %d)", t, e.ID, tm.NumTransitionIDs())
			}
		}
	}
	return nil
}

// WeightSilencePost scales the entries of silence phones by scale (Kaldi's
// WeightSilencePost); with scale 0 they are dropped. With distribute
// (WeightSilencePostDistributed) every entry of a frame is scaled by that
// frame's (p(sil)·scale + p(nonsil)) / (p(sil) + p(nonsil)) instead, so
// mostly-silent frames are down-weighted as a whole; a frame whose scale is
// 0 is emptied. Negative weights are an error with distribute, as Kaldi
// asserts. Sums are in float, as Kaldi's.
func WeightSilencePost(tm *hmm.TransitionModel, silence map[int32]bool, scale float32, distribute bool, post kaldiio.Posterior) error {
	if err := checkPost(tm, post); err != nil {
		return err
	}
	for i, frame := range post {
		var out []kaldiio.PostEntry
		if !distribute {
			for _, e := range frame {
				if silence[tm.TransitionIDToPhone(e.ID)] {
					if scale != 0 {
						out = append(out, kaldiio.PostEntry{ID: e.ID, Weight: e.Weight * scale})
					}
				} else {
					out = append(out, e)
				}
			}
			post[i] = out
			continue
		}
		var sil, nonsil float32
		for _, e := range frame {
			if silence[tm.TransitionIDToPhone(e.ID)] {
				sil += e.Weight
			} else {
				nonsil += e.Weight
			}
		}
		if sil < 0 || nonsil < 0 {
			return fmt.Errorf("frame %d: negative posteriors, which --distribute cannot weight", i)
		}
		if sil+nonsil == 0 {
			continue
		}
		fs := (sil*scale + nonsil) / (sil + nonsil)
		if fs != 0 {
			for _, e := range frame {
				out = append(out, kaldiio.PostEntry{ID: e.ID, Weight: e.Weight * fs})
			}
		}
		post[i] = out
	}
	return nil
}

// PostToPdfs sums each frame's entries by pdf (Kaldi's
// ConvertPosteriorToPdfs), dropping zero sums. Kaldi's order is that of an
// unordered_map; ours is ascending pdf-id, which matters only for the
// order of acc-lda's random pruning draws.
func PostToPdfs(tm *hmm.TransitionModel, post kaldiio.Posterior) kaldiio.Posterior {
	out := make(kaldiio.Posterior, len(post))
	for i, frame := range post {
		var row []kaldiio.PostEntry
		for _, e := range frame {
			pdf := tm.TransitionIDToPdf(e.ID)
			j := slices.IndexFunc(row, func(p kaldiio.PostEntry) bool { return p.ID == pdf })
			if j < 0 {
				row = append(row, kaldiio.PostEntry{ID: pdf, Weight: e.Weight})
			} else {
				row[j].Weight += e.Weight
			}
		}
		row = slices.DeleteFunc(row, func(p kaldiio.PostEntry) bool { return p.Weight == 0 })
		slices.SortFunc(row, func(a, b kaldiio.PostEntry) int { return int(a.ID) - int(b.ID) })
		out[i] = row
	}
	return out
}

// GaussPostEntry is one transition-id of a frame with the posteriors of
// its pdf's Gaussians.
type GaussPostEntry struct {
	ID    int32
	Posts kaldiio.Vector
}

// GaussPost is Kaldi's GaussPost: per frame, a list of transition-ids
// each with a vector of Gaussian posteriors (gmm-post-to-gpost's output).
type GaussPost [][]GaussPostEntry

// GaussPostCodec reads and writes Kaldi's GaussPostHolder format: the
// frame count, then per frame the entry count and per entry the
// transition-id and a float vector, all with Kaldi's basic-type encoding;
// text mode ends with a newline.
var GaussPostCodec kaldiio.Codec[GaussPost] = gaussPostCodec{}

type gaussPostCodec struct{}

func (gaussPostCodec) Write(w *kaldiio.Writer, binary bool, g *GaussPost) error {
	w.WriteInt32(binary, int32(len(*g)))
	for _, frame := range *g {
		w.WriteInt32(binary, int32(len(frame)))
		for i := range frame {
			w.WriteInt32(binary, frame[i].ID)
			if err := kaldiio.VectorCodec.Write(w, binary, &frame[i].Posts); err != nil {
				return err
			}
		}
	}
	if !binary {
		return w.WriteString("\n")
	}
	return nil
}

// maxFrames bounds a frame or entry count read from a file.
const maxFrames = 10000000

func (gaussPostCodec) Read(r *kaldiio.Reader, binary bool, g *GaussPost) error {
	n, err := r.ReadInt32(binary)
	if err != nil {
		return err
	}
	if n < 0 || n > maxFrames {
		return r.Errorf("Reading posteriors: got negative or improbably large size %d", n)
	}
	out := make(GaussPost, n)
	for t := range out {
		m, err := r.ReadInt32(binary)
		if err != nil {
			return err
		}
		if m < 0 || m > maxFrames {
			return r.Errorf("Reading posteriors: got negative or improbably large size %d", m)
		}
		out[t] = make([]GaussPostEntry, m)
		for i := range out[t] {
			if out[t][i].ID, err = r.ReadInt32(binary); err != nil {
				return err
			}
			if err := kaldiio.VectorCodec.Read(r, binary, &out[t][i].Posts); err != nil {
				return err
			}
		}
	}
	if !binary {
		// Consume the text line's end so the next key reads cleanly.
		r.SkipSpace()
	}
	*g = out
	return nil
}
