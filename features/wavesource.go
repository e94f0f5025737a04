package features

import (
	"bufio"
	"fmt"

	"github.com/strode-asr/strode/kaldiio"
)

// waveSource yields the utterances of a wave rspecifier in order. For a
// script ("scp:wav.scp") it yields each key with its rxfilename only, and
// the worker that computes the utterance reads the wave (readWave): opening,
// reading and decoding a file costs about as much as its fbank features, so
// done under the pool's reader lock it kept the second core idle. Archives,
// and scripts read with the "p" (permissive) option, go through kaldiio's
// sequential reader as before.
type waveSource struct {
	sr     *kaldiio.SequentialReader[WaveData]
	script *kaldiio.Input
	lines  *bufio.Scanner
	line   int
	kopts  []kaldiio.Option
}

func openWaveSource(rspecifier string, kopts []kaldiio.Option) (*waveSource, error) {
	rs, err := kaldiio.ParseRspecifier(rspecifier)
	if err != nil {
		return nil, err
	}
	if rs.Kind != kaldiio.Script || rs.Permissive {
		sr, err := kaldiio.OpenSequentialReader(rspecifier, WaveCodec, kopts...)
		if err != nil {
			return nil, err
		}
		return &waveSource{sr: sr}, nil
	}
	in, err := kaldiio.OpenInput(rs.Path, kopts...)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(in.Reader())
	sc.Buffer(make([]byte, 0, 64<<10), 1<<24)
	return &waveSource{script: in, lines: sc, kopts: kopts}, nil
}

// next returns the next utterance: its key and either its wave (archives)
// or the rxfilename to read it from (scripts).
func (s *waveSource) next() (key, rx string, wave WaveData, ok bool, err error) {
	if s.sr != nil {
		if !s.sr.Next() {
			return "", "", WaveData{}, false, s.sr.Err()
		}
		return s.sr.Key(), "", s.sr.Value(), true, nil
	}
	for s.lines.Scan() {
		s.line++
		// A blank line is an error, as in kaldiio's (and Kaldi's) reader.
		e, err := kaldiio.ParseScpLine(s.lines.Text())
		if err != nil {
			return "", "", WaveData{}, false, fmt.Errorf("%s line %d: %w", s.script.Name(), s.line, err)
		}
		if e.Range != "" {
			return "", "", WaveData{}, false, fmt.Errorf("%s line %d: %w: range [%s] given for waves, which cannot be cut", s.script.Name(), s.line, kaldiio.ErrSpecifier, e.Range)
		}
		return e.Key, e.Rx, WaveData{}, true, nil
	}
	if err := s.lines.Err(); err != nil {
		return "", "", WaveData{}, false, fmt.Errorf("%s line %d: %w", s.script.Name(), s.line+1, err)
	}
	return "", "", WaveData{}, false, nil
}

// readWave reads the wave of a script entry, for a worker.
func (s *waveSource) readWave(key, rx string, w *WaveData) error {
	if err := kaldiio.ReadObject(rx, WaveCodec, w, s.kopts...); err != nil {
		return fmt.Errorf("failed to read wave %s for utterance %s: %w", rx, key, err)
	}
	return nil
}

// skipped is the number of entries a permissive read skipped (see
// kaldiio.SequentialReader.Skipped); a plain script has none: it fails.
func (s *waveSource) skipped() int {
	if s.sr != nil {
		return s.sr.Skipped()
	}
	return 0
}

func (s *waveSource) Close() error {
	if s.sr != nil {
		return s.sr.Close()
	}
	return s.script.Close()
}
