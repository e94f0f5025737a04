package rotmnist

import (
	"fmt"
	"math"
	"math/rand"
)

// Split is one set of videos, all arrays video-major.
type Split struct {
	Videos, Frames, Height, Width int
	Pixels                        []uint8   // Videos×Frames×Height×Width, row-major frames, 0 … 255
	Times                         []float64 // Videos×Frames: the time of each frame
	Angles                        []float64 // Videos×Frames: its rotation in degrees (the reference's "gt_time")
	Labels                        []uint8   // the digit of each video
	Sources                       []int32   // its index in the MNIST file it came from
	X0, Y0                        []int32   // its top-left corner on the canvas
}

// Video returns the pixels of video i (Frames×Height×Width, a view).
func (s *Split) Video(i int) []uint8 {
	n := s.Frames * s.Height * s.Width
	return s.Pixels[i*n : (i+1)*n : (i+1)*n]
}

// VideoTimes returns the frame times of video i (a view).
func (s *Split) VideoTimes(i int) []float64 { return s.Times[i*s.Frames : (i+1)*s.Frames] }

// VideoAngles returns the frame angles of video i in degrees (a view).
func (s *Split) VideoAngles(i int) []float64 { return s.Angles[i*s.Frames : (i+1)*s.Frames] }

// Batch writes the videos listed, pixels scaled to [0, 1] (value/255, as the
// reference's __getitem__), into dst grown to len(videos)×Frames×Height×Width.
func (s *Split) Batch(dst []float32, videos []int) []float32 {
	n := s.Frames * s.Height * s.Width
	if cap(dst) < len(videos)*n {
		dst = make([]float32, len(videos)*n)
	}
	dst = dst[:len(videos)*n]
	for b, v := range videos {
		out := dst[b*n : (b+1)*n]
		for i, p := range s.Video(v) {
			out[i] = float32(p) / 255
		}
	}
	return dst
}

// Dataset is the three sets of one subset, with the options and seed that
// made them.
type Dataset struct {
	Options          DataOptions
	Seed             int64
	Train, Val, Test Split
}

// Splits returns the sets in file order with their names.
func (d *Dataset) Splits() ([3]*Split, [3]string) {
	return [3]*Split{&d.Train, &d.Val, &d.Test}, [3]string{"train", "val", "test"}
}

// GenerateFromDir loads MNIST from o.MNISTDir and generates the data. With
// the files missing its error says where to put them and where to get them.
func GenerateFromDir(o DataOptions, seed int64) (*Dataset, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	m, err := LoadMNIST(o.MNISTDir)
	if err != nil {
		return nil, err
	}
	return Generate(o, m, seed)
}

// Generate draws the three sets. Each set has its own random stream, split
// off the seed, so the first videos of a set do not depend on the sizes
// asked for: a --quick run's validation videos begin the full run's.
func Generate(o DataOptions, m *MNIST, seed int64) (*Dataset, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if m == nil || m.Train == nil || m.Test == nil {
		return nil, fmt.Errorf("rotmnist: no MNIST data given; %s", mnistHelp)
	}
	master := rand.New(rand.NewSource(seed))
	d := &Dataset{Options: o, Seed: seed}
	specs := []struct {
		s      *Split
		n      int
		im     *Images
		labels []uint8
		lo, hi float64
	}{{&d.Train, o.NumTrain, m.Train, m.TrainLabels, o.TrainAngleMin, o.TrainAngleMax},
		{&d.Val, o.NumVal, m.Train, m.TrainLabels, o.TrainAngleMin, o.TrainAngleMax},
		{&d.Test, o.NumTest, m.Test, m.TestLabels, o.TestAngleMin, o.TestAngleMax}}
	for k, sp := range specs {
		rng := rand.New(rand.NewSource(master.Int63()))
		if err := o.fill(sp.s, rng, sp.n, sp.im, sp.labels, sp.lo, sp.hi); err != nil {
			return nil, fmt.Errorf("rotmnist: %s set: %w", [3]string{"train", "val", "test"}[k], err)
		}
	}
	return d, nil
}

// fill draws n videos: frame times, then digit class (uniform), then an
// image of that class (uniform), then the position, then renders.
func (o DataOptions) fill(s *Split, rng *rand.Rand, n int, im *Images, labels []uint8, lo, hi float64) error {
	byClass := make([][]int32, o.NumDigits)
	for i, l := range labels {
		if int(l) < o.NumDigits {
			byClass[l] = append(byClass[l], int32(i))
		}
	}
	for c, idx := range byClass {
		if len(idx) == 0 {
			return fmt.Errorf("no image of digit %d", c)
		}
	}
	interp, _ := ParseInterpolation(o.Interpolation)
	L, side := o.VideoLength, o.CanvasSize
	*s = Split{Videos: n, Frames: L, Height: side, Width: side,
		Pixels: make([]uint8, n*L*side*side), Times: make([]float64, 0, n*L), Angles: make([]float64, 0, n*L),
		Labels: make([]uint8, n), Sources: make([]int32, n), X0: make([]int32, n), Y0: make([]int32, n)}
	for v := 0; v < n; v++ {
		var times []float64
		var offset, w float64
		if o.Subset == "hawkes" {
			w = o.HawkesDegPerUnit
			var err error
			if times, _, err = HawkesWindowTimes(rng, o.hawkes(), lo/w, hi/w, L, o.HawkesMaxRuns); err != nil {
				return fmt.Errorf("video %d: %w", v, err)
			}
		} else {
			w, offset = o.ExpDegPerUnit, lo
			times = ExpTimes(rng, L, o.ExpInterval, o.ExpNoiseDeg/w)
		}
		s.Times = append(s.Times, times...)
		for _, t := range times {
			s.Angles = append(s.Angles, offset+w*t)
		}
		class := rng.Intn(o.NumDigits)
		src := byClass[class][rng.Intn(len(byClass[class]))]
		s.Labels[v], s.Sources[v] = uint8(class), src
		s.X0[v] = corner(o.PositionMean + o.PositionStd*rng.NormFloat64())
		s.Y0[v] = corner(o.PositionMean + o.PositionStd*rng.NormFloat64())
		digit := Digit{Pixels: im.Image(int(src)), Rows: im.Rows, Cols: im.Cols}
		RenderVideo(s.Video(v), side, side, digit, int(s.X0[v]), int(s.Y0[v]), s.VideoAngles(v), interp)
	}
	return nil
}

// corner rounds a drawn position to a pixel (as the reference's
// int(round(p))), bounded so that any draw fits an int32.
func corner(p float64) int32 {
	return int32(math.Max(-maxSide, math.Min(maxSide, math.Round(p))))
}
