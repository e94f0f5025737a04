package sine

import (
	"math"
	"math/rand"

	"github.com/strode-asr/strode/acoustic/pointproc"
)

// Set is a list of sequences: Times[s][i] and Values[s][i].
type Set struct {
	Times, Values [][]float64
}

// Data is the train/validation/test split.
type Data struct{ Train, Val, Test Set }

// Generate draws the data for one seed: for each sequence, t_0 = 0 and
// t_1 … t_{n−1} the first n−1 events of the process; x_0 = sin(0) = 0 and
// x_i = sin(2π·t_i) + noise·U[0,1) for i ≥ 1.
func Generate(o Options, seed int64) Data {
	rng := rand.New(rand.NewSource(seed))
	var p pointproc.Process = pointproc.Poisson{Rate: o.Rate}
	if o.Process == "hawkes" {
		p = pointproc.Hawkes{Mu: o.Mu, Alpha: o.Alpha, Beta: o.Beta}
	}
	gen := func(n int) Set {
		var s Set
		for k := 0; k < n; k++ {
			ev := p.Events(rng, o.Length-1)
			t := append([]float64{0}, ev...)
			x := make([]float64, o.Length)
			for i := 1; i < o.Length; i++ {
				x[i] = math.Sin(2*math.Pi*t[i]) + o.Noise*rng.Float64()
			}
			s.Times = append(s.Times, t)
			s.Values = append(s.Values, x)
		}
		return s
	}
	return Data{Train: gen(o.Train), Val: gen(o.Val), Test: gen(o.Test)}
}
