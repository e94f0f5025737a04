package fsdd

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// Synthetic voices: espeak-ng's English accents, each with male voice
// variants (7 x 4: at most 28 speakers).
var (
	ttsAccents  = []string{"en-us", "en-gb", "en-gb-scotland", "en-gb-x-gbclan", "en-gb-x-rp", "en-gb-x-gbcwmd", "en-029"}
	ttsVariants = []string{"male1", "male3", "male5", "male7"}
)

// MaxVoices is how many synthetic speakers --tts-voices can ask for.
var MaxVoices = len(ttsAccents) * len(ttsVariants)

// checkVoices checks --tts-voices and --tts-takes before any work.
func checkVoices(o Options) error {
	switch {
	case o.TTSVoices < 0 || o.TTSTakes < 0:
		return fmt.Errorf("%w: --tts-voices and --tts-takes take whole numbers", ErrOptions)
	case o.TTSVoices > MaxVoices:
		return fmt.Errorf("%w: --tts-voices=%d: espeak-ng gives this recipe at most %d voices", ErrOptions, o.TTSVoices, MaxVoices)
	case o.TTSVoices > 0 && o.TTSTakes < 1:
		return fmt.Errorf("%w: --tts-takes must be at least 1", ErrOptions)
	case o.TTSVoices > 0 && o.TTSDir == "":
		return fmt.Errorf("%w: --tts-voices needs --tts-dir (where the waves are written)", ErrOptions)
	}
	return nil
}

// ttsTake is one synthetic take: voice v (speaker ttsNN) speaks digit d as
// take k (numbered from 10 in the file name, so that every take trains:
// 5-9 are the held-out takes). Pitch and rate are fixed by voice and take,
// so every run makes the same waves: three pitches, three rates.
type ttsTake struct {
	voice, accent, variant   string
	digit, take, pitch, rate int
}

func ttsTakes(voices, takes int) []ttsTake {
	var out []ttsTake
	v := 0
	for _, acc := range ttsAccents {
		for _, vr := range ttsVariants {
			if v >= voices {
				return out
			}
			for k := 0; k < takes; k++ {
				for d := 0; d < 10; d++ {
					out = append(out, ttsTake{voice: fmt.Sprintf("tts%02d", v), accent: acc, variant: vr,
						digit: d, take: 10 + k, pitch: 30 + 20*(k%3), rate: 130 + 20*((v+k)%3)})
				}
			}
			v++
		}
	}
	return out
}

// synthesizeVoices makes the takes of voices synthetic speakers with
// espeak-ng, as dir/DIGIT_ttsNN_TAKE.wav (espeak-ng's 22.05 kHz; the
// features downsample), reusing the non-empty files a previous run wrote,
// and returns them in the order the recipe lists them.
func synthesizeVoices(dir string, voices, takes int, log Logger) ([]recording, error) {
	if voices == 0 {
		return nil, nil
	}
	espeak, err := exec.LookPath("espeak-ng")
	if err != nil {
		return nil, fmt.Errorf("--tts-voices=%d needs espeak-ng: apt-get install espeak-ng (or --tts-voices 0: the corpus alone)", voices)
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	var out []recording
	made := 0
	for _, t := range ttsTakes(voices, takes) {
		d, take := strconv.Itoa(t.digit), strconv.Itoa(t.take)
		f := filepath.Join(dir, d+"_"+t.voice+"_"+take+".wav")
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			cmd := exec.Command(espeak, "-v", t.accent+"+"+t.variant, "-p", strconv.Itoa(t.pitch), "-s", strconv.Itoa(t.rate),
				"-w", f+".tmp", Digits[t.digit])
			if msg, err := cmd.CombinedOutput(); err != nil {
				return nil, fmt.Errorf("espeak-ng for %s: %v: %s", f, err, msg)
			}
			if err := os.Rename(f+".tmp", f); err != nil {
				return nil, err
			}
			made++
		}
		out = append(out, recording{path: f, digit: d, speaker: t.voice, take: take})
	}
	log.Log("%d synthetic voices in %s: %d takes, %d of them written now", voices, dir, len(out), made)
	return out, nil
}
