package features

import (
	"github.com/strode-asr/strode/kaldiio"
)

// WaveCodec reads and writes waves in Kaldi tables as Kaldi's WaveHolder:
// an archive entry is the key, one space and a complete RIFF/WAVE file (no
// "\0B" marker), and an scp entry may be a plain path, a pipe
// ("sox x.flac -t wav - |") or "wav.ark:OFFSET" pointing at "RIFF". Reading
// consumes exactly the data chunk (or to the end of a stream whose header
// has placeholder sizes); Kaldi's warnings land in WaveData.Warnings.
var WaveCodec kaldiio.Codec[WaveData] = waveCodec{}

type waveCodec struct{}

// RawObject marks waves as objects without the binary marker.
func (waveCodec) RawObject() {}

func (waveCodec) Read(r *kaldiio.Reader, binary bool, w *WaveData) error {
	start := r.Offset()
	v, err := ReadWave(r)
	if err != nil {
		return &kaldiio.Error{File: r.Name(), Offset: start, Err: err}
	}
	*w = *v
	return nil
}

func (waveCodec) Write(w *kaldiio.Writer, binary bool, v *WaveData) error {
	_, err := v.Write(w)
	return err
}
