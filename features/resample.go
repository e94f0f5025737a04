package features

import (
	"fmt"
	"math"
)

// ResampleWaveform is Kaldi's ResampleWaveform: LinearResample with a
// windowed-sinc low-pass filter at 0.99 × half the lower rate, 6 zeros wide,
// over the whole signal (flush). Both rates must be whole numbers of Hz.
func ResampleWaveform(origFreq float64, wave []float32, newFreq float64) ([]float32, error) {
	in, out := int64(float32(origFreq)), int64(float32(newFreq))
	if in <= 0 || out <= 0 || float64(in) != float64(float32(origFreq)) || float64(out) != float64(float32(newFreq)) {
		return nil, fmt.Errorf("%w: cannot resample from %v Hz to %v Hz (whole positive rates only)", ErrOptions, origFreq, newFreq)
	}
	cutoff := float64(float32(0.99 * 0.5 * float64(float32(min(origFreq, newFreq)))))
	const numZeros = 6
	g := gcd(in, out)
	inUnit, outUnit := in/g, out/g
	windowWidth := numZeros / (2 * cutoff)

	// Filter taps per output phase (Kaldi's SetIndexesAndWeights).
	firstIndex := make([]int64, outUnit)
	weights := make([][]float32, outUnit)
	filter := func(t float64) float32 {
		t = float64(float32(t)) // Kaldi's FilterFunc takes a float
		var window, f float64
		if math.Abs(t) < numZeros/(2*cutoff) {
			window = 0.5 * (1 + math.Cos(2*math.Pi*cutoff/numZeros*t))
		}
		if t != 0 {
			f = math.Sin(2*math.Pi*cutoff*t) / (math.Pi * t)
		} else {
			f = 2 * cutoff
		}
		return float32(f * window)
	}
	for i := int64(0); i < outUnit; i++ {
		outT := float64(i) / float64(out)
		minIdx := int64(math.Ceil((outT - windowWidth) * float64(in)))
		maxIdx := int64(math.Floor((outT + windowWidth) * float64(in)))
		firstIndex[i] = minIdx
		w := make([]float32, maxIdx-minIdx+1)
		for j := range w {
			inT := float64(minIdx+int64(j)) / float64(in)
			w[j] = float32(float64(filter(inT-outT)) / float64(in))
		}
		weights[i] = w
	}

	// Number of output samples with flush (Kaldi's GetNumOutputSamples).
	tick := in / g * out // lcm
	ticksIn, ticksOut := tick/in, tick/out
	length := int64(len(wave)) * ticksIn
	var nOut int64
	if length > 0 {
		last := length / ticksOut
		if last*ticksOut == length {
			last--
		}
		nOut = last + 1
	}
	res := make([]float32, nOut)
	for s := int64(0); s < nOut; s++ {
		unit := s / outUnit
		phase := s - unit*outUnit
		first := firstIndex[phase] + unit*inUnit
		w := weights[phase]
		var acc float64
		for i, wt := range w {
			idx := first + int64(i)
			if idx >= 0 && idx < int64(len(wave)) {
				acc += float64(wt) * float64(wave[idx])
			}
		}
		res[s] = float32(acc)
	}
	return res, nil
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
