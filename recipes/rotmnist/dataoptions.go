package rotmnist

import (
	"flag"
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/pointproc"
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
