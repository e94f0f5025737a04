package rotmnist

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"math/rand"
	"os"

	"github.com/strode-asr/strode/acoustic/pointproc"
	"github.com/strode-asr/strode/internal/atomicfile"
)

// DataOptions configures the generator. The defaults are the reference
// code's (Waffle-Liu/STRODE rotatingMNIST/config.py and rotateMNIST.py;
// DATA.md gives the line of each). A recipe's own Options can embed it and
// call its Register.
type DataOptions struct {
	Subset   string `json:"subset"`    // "hawkes" or "exp" (the reference's 'hks' and 'exp')
	MNISTDir string `json:"mnist_dir"` // folder of the four MNIST files

	NumTrain int `json:"num_train"` // videos drawn from MNIST's training set
	NumVal   int `json:"num_val"`   // videos drawn from MNIST's training set too (as the reference)
	NumTest  int `json:"num_test"`  // videos drawn from MNIST's test set

	VideoLength  int     `json:"video_length"`  // frames per video
	CanvasSize   int     `json:"canvas_size"`   // frames are CanvasSize × CanvasSize
	PositionMean float64 `json:"position_mean"` // digit's top-left corner ~ round(N(mean, std²)) per axis, per video
	PositionStd  float64 `json:"position_std"`
	NumDigits    int     `json:"num_digits"` // digits 0 … NumDigits−1 (the reference's randint(0, 9) never draws 9)

	TrainAngleMin float64 `json:"train_angle_min"` // degrees, train and validation
	TrainAngleMax float64 `json:"train_angle_max"`
	TestAngleMin  float64 `json:"test_angle_min"` // degrees, test
	TestAngleMax  float64 `json:"test_angle_max"`

	HawkesMu         float64 `json:"hawkes_mu"`    // base rate μ
	HawkesAlpha      float64 `json:"hawkes_alpha"` // branching ratio α
	HawkesBeta       float64 `json:"hawkes_beta"`  // kernel decay β (the reference's omega)
	HawkesDegPerUnit float64 `json:"hawkes_deg_per_unit"`
	HawkesMaxRuns    int     `json:"hawkes_max_runs"`

	ExpInterval   float64 `json:"exp_interval"` // t_i = e^{interval·i} + noise
	ExpDegPerUnit float64 `json:"exp_deg_per_unit"`
	ExpNoiseDeg   float64 `json:"exp_noise_deg"` // std of the angle noise, degrees

	Interpolation string `json:"interpolation"` // "bilinear" (ours) or "nearest" (the reference's)
}

// DefaultDataOptions are the reference code's settings.
func DefaultDataOptions() DataOptions {
	return DataOptions{Subset: "exp", MNISTDir: "../shared/data/mnist",
		NumTrain: 5000, NumVal: 1000, NumTest: 1000,
		VideoLength: 6, CanvasSize: 64, PositionMean: 18, PositionStd: 2, NumDigits: 9,
		TrainAngleMin: 0, TrainAngleMax: 180, TestAngleMin: 180, TestAngleMax: 360,
		HawkesMu: 1, HawkesAlpha: 0.5, HawkesBeta: 1, HawkesDegPerUnit: 100, HawkesMaxRuns: 100000,
		ExpInterval: 0.57, ExpDegPerUnit: 10, ExpNoiseDeg: 5,
		Interpolation: "bilinear"}
}

// Register adds every option to fs.
func (o *DataOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.Subset, "subset", o.Subset, "frame times: hawkes (Hawkes process) or exp (t = e^{a·i} + noise)")
	fs.StringVar(&o.MNISTDir, "mnist-dir", o.MNISTDir, "folder of train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz, t10k-labels-idx1-ubyte.gz")
	fs.IntVar(&o.NumTrain, "num-train", o.NumTrain, "training videos")
	fs.IntVar(&o.NumVal, "num-val", o.NumVal, "validation videos")
	fs.IntVar(&o.NumTest, "num-test", o.NumTest, "test videos")
	fs.IntVar(&o.VideoLength, "video-length", o.VideoLength, "frames per video")
	fs.IntVar(&o.CanvasSize, "canvas-size", o.CanvasSize, "frame width and height in pixels")
	fs.Float64Var(&o.PositionMean, "position-mean", o.PositionMean, "mean of the digit's top-left corner (pixels, each axis)")
	fs.Float64Var(&o.PositionStd, "position-std", o.PositionStd, "std of the digit's top-left corner (pixels, each axis)")
	fs.IntVar(&o.NumDigits, "num-digits", o.NumDigits, "digits 0..N-1 are drawn (the reference code's 9 leaves out 9; 10 for all)")
	fs.Float64Var(&o.TrainAngleMin, "train-angle-min", o.TrainAngleMin, "smallest angle of training and validation videos (degrees)")
	fs.Float64Var(&o.TrainAngleMax, "train-angle-max", o.TrainAngleMax, "largest angle of training and validation videos (degrees)")
	fs.Float64Var(&o.TestAngleMin, "test-angle-min", o.TestAngleMin, "smallest angle of test videos (degrees)")
	fs.Float64Var(&o.TestAngleMax, "test-angle-max", o.TestAngleMax, "largest angle of test videos (degrees)")
	fs.Float64Var(&o.HawkesMu, "hawkes-mu", o.HawkesMu, "Hawkes base rate mu")
	fs.Float64Var(&o.HawkesAlpha, "hawkes-alpha", o.HawkesAlpha, "Hawkes branching ratio alpha")
	fs.Float64Var(&o.HawkesBeta, "hawkes-beta", o.HawkesBeta, "Hawkes kernel decay beta")
	fs.Float64Var(&o.HawkesDegPerUnit, "hawkes-deg-per-unit", o.HawkesDegPerUnit, "hawkes: degrees of rotation per unit of time")
	fs.IntVar(&o.HawkesMaxRuns, "hawkes-max-runs", o.HawkesMaxRuns, "hawkes: give up after this many runs without video-length events in the window")
	fs.Float64Var(&o.ExpInterval, "exp-interval", o.ExpInterval, "exp: a in t_i = e^{a·i} + noise")
	fs.Float64Var(&o.ExpDegPerUnit, "exp-deg-per-unit", o.ExpDegPerUnit, "exp: degrees of rotation per unit of time")
	fs.Float64Var(&o.ExpNoiseDeg, "exp-noise-deg", o.ExpNoiseDeg, "exp: std of the Gaussian noise on each angle (degrees)")
	fs.StringVar(&o.Interpolation, "interpolation", o.Interpolation, "rotation sampling: bilinear or nearest (the reference code's)")
}

// ApplyQuick shrinks the sets to 200/50/50 videos, for smoke runs and tests.
func (o *DataOptions) ApplyQuick() { o.NumTrain, o.NumVal, o.NumTest = 200, 50, 50 }

// Validate checks the options.
func (o DataOptions) Validate() error {
	bad := func(format string, args ...any) error { return fmt.Errorf("rotmnist: "+format, args...) }
	switch {
	case o.Subset != "hawkes" && o.Subset != "exp":
		return bad("--subset=%q: want hawkes or exp", o.Subset)
	case o.NumTrain < 0 || o.NumVal < 0 || o.NumTest < 0 || o.NumTrain > maxVideos || o.NumVal > maxVideos || o.NumTest > maxVideos:
		return bad("set sizes %d/%d/%d: want 0 … %d", o.NumTrain, o.NumVal, o.NumTest, maxVideos)
	case o.VideoLength < 1 || o.VideoLength > maxFrames:
		return bad("--video-length=%d: want 1 … %d", o.VideoLength, maxFrames)
	case o.CanvasSize < 1 || o.CanvasSize > maxSide:
		return bad("--canvas-size=%d: want 1 … %d", o.CanvasSize, maxSide)
	case !(o.PositionStd >= 0) || math.IsInf(o.PositionMean, 0) || math.IsNaN(o.PositionMean) || math.IsInf(o.PositionStd, 0):
		return bad("--position-mean=%v --position-std=%v: want finite, std ≥ 0", o.PositionMean, o.PositionStd)
	case o.NumDigits < 1 || o.NumDigits > 10:
		return bad("--num-digits=%d: want 1 … 10", o.NumDigits)
	case !(o.TrainAngleMax > o.TrainAngleMin) || !(o.TestAngleMax > o.TestAngleMin):
		return bad("angle ranges [%v, %v] and [%v, %v]: want min < max", o.TrainAngleMin, o.TrainAngleMax, o.TestAngleMin, o.TestAngleMax)
	case !(o.HawkesDegPerUnit > 0) || !(o.ExpDegPerUnit > 0) || !(o.ExpNoiseDeg >= 0) || math.IsNaN(o.ExpInterval):
		return bad("--hawkes-deg-per-unit, --exp-deg-per-unit must be > 0, --exp-noise-deg ≥ 0")
	case o.HawkesMaxRuns < 1:
		return bad("--hawkes-max-runs=%d: want ≥ 1", o.HawkesMaxRuns)
	}
	if o.Subset == "hawkes" {
		if o.TrainAngleMin < 0 || o.TestAngleMin < 0 {
			return bad("hawkes: angle ranges must start at ≥ 0 (the process starts at time 0)")
		}
		if err := o.hawkes().Validate(); err != nil {
			return err
		}
	}
	_, err := ParseInterpolation(o.Interpolation)
	return err
}

func (o DataOptions) hawkes() pointproc.Hawkes {
	return pointproc.Hawkes{Mu: o.HawkesMu, Alpha: o.HawkesAlpha, Beta: o.HawkesBeta}
}

// Limits on what Validate and Load accept.
const (
	maxVideos = 1 << 24
	maxFrames = 1 << 12
	maxSide   = 1 << 12
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

// The dataset file: little-endian, in this order —
//
//	"ROTMNIST"  8 bytes, then uint32 version (1)
//	uint32 n, then n bytes: the DataOptions as JSON
//	int64 seed; uint32 frames, height, width
//	per set (train, val, test): uint32 videos; labels [videos]uint8;
//	    sources, x0, y0 [videos]int32; times, angles [videos·frames]float64;
//	    pixels [videos·frames·height·width]uint8
//	uint32 CRC-32 (IEEE) of every byte before it.
const (
	fileMagic   = "ROTMNIST"
	fileVersion = 1
)

// Save writes d to path atomically (a killed run leaves the old file or
// none, never half of one).
func (d *Dataset) Save(path string) error {
	return atomicfile.Write(path, func(w io.Writer) error { return d.Write(w) })
}

// Write encodes d in the dataset file format.
func (d *Dataset) Write(w io.Writer) error {
	opts, err := json.Marshal(d.Options)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	crc := crc32.NewIEEE()
	e := &encoder{w: io.MultiWriter(bw, crc)}
	e.raw([]byte(fileMagic))
	e.u32(fileVersion)
	e.u32(uint32(len(opts)))
	e.raw(opts)
	e.u64(uint64(d.Seed))
	e.u32(uint32(d.Train.Frames))
	e.u32(uint32(d.Train.Height))
	e.u32(uint32(d.Train.Width))
	splits, _ := d.Splits()
	for _, s := range splits {
		e.u32(uint32(s.Videos))
		e.raw(s.Labels)
		for _, a := range [][]int32{s.Sources, s.X0, s.Y0} {
			for _, v := range a {
				e.u32(uint32(v))
			}
		}
		for _, a := range [][]float64{s.Times, s.Angles} {
			for _, v := range a {
				e.u64(math.Float64bits(v))
			}
		}
		e.raw(s.Pixels)
	}
	if e.err != nil {
		return e.err
	}
	if err := binary.Write(bw, binary.LittleEndian, crc.Sum32()); err != nil {
		return err
	}
	return bw.Flush()
}

type encoder struct {
	w   io.Writer
	b   [8]byte
	err error
}

func (e *encoder) raw(p []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(p)
	}
}
func (e *encoder) u32(v uint32) { binary.LittleEndian.PutUint32(e.b[:4], v); e.raw(e.b[:4]) }
func (e *encoder) u64(v uint64) { binary.LittleEndian.PutUint64(e.b[:], v); e.raw(e.b[:]) }

// Load reads and validates a dataset file; errors name path and offset.
func Load(path string) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("rotmnist: %w", err)
	}
	defer f.Close()
	size := int64(-1)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	return read(f, path, size)
}

// Read decodes a dataset file from r; name is used in error messages. It
// allocates only as the data arrives, so a corrupt header cannot make it
// reserve more memory than the input holds.
func Read(r io.Reader, name string) (*Dataset, error) { return read(r, name, -1) }

// read is Read knowing the input's size (or -1): then each array is
// checked against the bytes left and read in one piece.
func read(r io.Reader, name string, size int64) (*Dataset, error) {
	crc := crc32.NewIEEE()
	dec := &decoder{r: bufio.NewReaderSize(r, 64<<10), crc: crc, name: name, size: size}
	if string(dec.bytes(8, "magic")) != fileMagic && dec.err == nil {
		return nil, dec.errorf(0, "bad magic: not a rotmnist dataset file (want %q)", fileMagic)
	}
	if v := dec.u32("version"); v != fileVersion && dec.err == nil {
		return nil, dec.errorf(8, "version %d: this reader knows %d", v, fileVersion)
	}
	at := dec.off
	n := dec.u32("options length")
	if n > 1<<16 && dec.err == nil {
		return nil, dec.errorf(at, "options of %d bytes", n)
	}
	at = dec.off
	opts := dec.bytes(int(n), "options")
	d := &Dataset{}
	if dec.err != nil {
		return nil, dec.err
	}
	if err := json.Unmarshal(opts, &d.Options); err != nil {
		return nil, dec.errorf(at, "options: %w", err)
	}
	if err := d.Options.Validate(); err != nil {
		return nil, dec.errorf(at, "options: %w", err)
	}
	o := d.Options
	d.Seed = int64(dec.u64("seed"))
	at = dec.off
	frames, height, width := int(dec.u32("frames")), int(dec.u32("height")), int(dec.u32("width"))
	if dec.err == nil && (frames != o.VideoLength || height != o.CanvasSize || width != o.CanvasSize) {
		return nil, dec.errorf(at, "frames %d of %dx%d: the options say %d of %dx%d", frames, height, width, o.VideoLength, o.CanvasSize, o.CanvasSize)
	}
	splits, names := d.Splits()
	for k, s := range splits {
		at := dec.off
		v := int(dec.u32(names[k] + " videos"))
		if want := [3]int{o.NumTrain, o.NumVal, o.NumTest}[k]; v != want && dec.err == nil {
			return nil, dec.errorf(at, "%s set has %d videos: the options say %d", names[k], v, want)
		}
		*s = Split{Videos: v, Frames: frames, Height: height, Width: width}
		at = dec.off
		s.Labels = dec.bytes(v, names[k]+" labels")
		for i, l := range s.Labels {
			if int(l) >= o.NumDigits {
				return nil, dec.errorf(at+int64(i), "%s video %d: digit %d, but --num-digits=%d", names[k], i, l, o.NumDigits)
			}
		}
		s.Sources, s.X0, s.Y0 = dec.i32s(v, names[k]+" sources"), dec.i32s(v, names[k]+" x0"), dec.i32s(v, names[k]+" y0")
		at = dec.off
		s.Times, s.Angles = dec.f64s(v*frames, names[k]+" times"), dec.f64s(v*frames, names[k]+" angles")
		for i, t := range append(s.Times[:len(s.Times):len(s.Times)], s.Angles...) {
			if math.IsNaN(t) || math.IsInf(t, 0) {
				return nil, dec.errorf(at+8*int64(i), "%s: time or angle %v", names[k], t)
			}
		}
		s.Pixels = dec.bytes(v*frames*height*width, names[k]+" pixels")
		if dec.err != nil {
			return nil, dec.err
		}
	}
	at = dec.off
	sum := crc.Sum32()
	dec.crc = nil
	if got := dec.u32("checksum"); got != sum && dec.err == nil {
		return nil, dec.errorf(at, "checksum %#08x, content sums to %#08x: the file is corrupt", got, sum)
	}
	if dec.err != nil {
		return nil, dec.err
	}
	if _, err := dec.r.ReadByte(); err != io.EOF {
		return nil, dec.errorf(dec.off, "trailing data after the checksum")
	}
	return d, nil
}

type decoder struct {
	r    *bufio.Reader
	crc  hash.Hash32
	name string
	off  int64
	size int64 // bytes in the input, or -1 when unknown
	err  error // the first error; later reads return zeros
}

func (d *decoder) errorf(off int64, format string, args ...any) error {
	return fmt.Errorf("rotmnist: %s: offset %d: %w", d.name, off, fmt.Errorf(format, args...))
}

// bytes reads n bytes: at once when the input's size shows they are there,
// else in chunks of at most 1 MiB, growing with the data.
func (d *decoder) bytes(n int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if d.size >= 0 && int64(n) > d.size-d.off {
		d.err = d.errorf(d.size, "truncated: %s needs %d bytes, the file ends after %d", what, n, d.size-d.off)
		return nil
	}
	chunk := 1 << 20
	if d.size >= 0 {
		chunk = max(n, 1)
	}
	out := make([]byte, 0, min(n, chunk))
	for len(out) < n {
		k := min(n-len(out), chunk)
		out = append(out, make([]byte, k)...)
		got, err := io.ReadFull(d.r, out[len(out)-k:])
		if err != nil {
			d.err = d.errorf(d.off+int64(len(out)-k+got), "truncated: %s needs %d bytes, the file ends after %d", what, n, len(out)-k+got)
			return nil
		}
	}
	if d.crc != nil {
		d.crc.Write(out)
	}
	d.off += int64(n)
	return out
}

func (d *decoder) u32(what string) uint32 {
	if b := d.bytes(4, what); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *decoder) u64(what string) uint64 {
	if b := d.bytes(8, what); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (d *decoder) i32s(n int, what string) []int32 {
	b := d.bytes(4*n, what)
	out := make([]int32, len(b)/4)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func (d *decoder) f64s(n int, what string) []float64 {
	b := d.bytes(8*n, what)
	out := make([]float64, len(b)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}
