package am

import (
	"bytes"
	"flag"
	"math"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
)

// TestFixedTTildeZeroIsProjection: with --fixed-t-tilde=0 h̃ is P·e, the
// projected encoder output with no ODE step (relative difference from a
// plain float64 product ≤ 1e-5: the product runs in float32, batch.go), t̃ is 0 in
// every row, f_o is left out of the training graph and there is no KL term.
func TestFixedTTildeZeroIsProjection(t *testing.T) {
	o := tinyOptions(KindSTRODE)
	zero := 0.0
	o.FixedTTilde = &zero
	m, err := New(o, 5)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(6))
	u := tinyBatch(rng, o, []int{7})[0]
	fw := NewForwarder(m)
	defer fw.Close()
	g, err := fw.Run(u)
	if err != nil {
		t.Fatal(err)
	}
	enc, ht, tt := g.Rows(g.Enc, 0), g.Rows(g.HTilde, 0), g.Rows(g.TTilde, 0)
	h, s := o.SRU.OutDim(), o.ODEState
	for i := 0; i < u.Rows; i++ {
		if tt[i] != 0 {
			t.Errorf("frame %d: t~ = %g, want 0", i, tt[i])
		}
		proj := m.arch.(*strodeArch).head.Proj.Data
		want := make([]float64, s) // P·e
		for k, v := range enc[i*h : (i+1)*h] {
			for j := range want {
				want[j] += v * proj[k*s+j]
			}
		}
		for j, w := range want {
			if got := ht[i*s+j]; math.Abs(got-w) > 1e-5*math.Max(1, math.Abs(w)) {
				t.Errorf("frame %d h~[%d] = %.17g, P e = %.17g", i, j, got, w)
			}
		}
	}
	bt, err := m.Build(8, 1, Train)
	if err != nil {
		t.Fatal(err)
	}
	defer bt.Close()
	if bt.KL != nil {
		t.Error("a fixed t~ still has a KL term")
	}
	for _, p := range bt.Params() {
		if strings.HasPrefix(p.Name, "ode.0") || strings.HasPrefix(p.Name, "ode.1") || strings.HasPrefix(p.Name, "ode.2") ||
			strings.HasPrefix(p.Name, "phi.") || strings.HasPrefix(p.Name, "prior.") {
			t.Errorf("%s is in the training graph of --fixed-t-tilde=0", p.Name)
		}
	}
}

// TestFixedTTildeRows: the boundary the forwarder reports is C in every
// row, and C ≠ 0 changes the logits against C = 0 (the ODE acts).
func TestFixedTTildeRows(t *testing.T) {
	var logits [][]float64
	for _, c := range []float64{0, 2} {
		o := tinyOptions(KindSTRODE)
		o.FixedTTilde = &c
		m, err := New(o, 5)
		if err != nil {
			t.Fatal(err)
		}
		u := tinyBatch(rand.New(rand.NewSource(9)), o, []int{5})[0]
		fw := NewForwarder(m)
		g, err := fw.Run(u)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range autodiff.Value(g.TTilde)[:u.Rows] {
			if v != c {
				t.Errorf("C = %g: row %d t~ = %g", c, i, v)
			}
		}
		logits = append(logits, g.Output(0, nil))
		fw.Close()
	}
	diff := 0.0
	for j := range logits[0] {
		diff = math.Max(diff, math.Abs(logits[0][j]-logits[1][j]))
	}
	if diff < 1e-6 {
		t.Errorf("logits with t~ = 0 and 2 differ by at most %g: the ODE does not act", diff)
	}
}

// TestFixedTTildeOption: the flag's values, validation, and the option's
// way through save and load (C = 0 included: absent means off) and
// model-info.
func TestFixedTTildeOption(t *testing.T) {
	for _, tc := range []struct {
		arg   string
		want  float64 // −1: off
		isErr bool
	}{
		{"", -1, false},
		{"--fixed-t-tilde=-1", -1, false},
		{"--fixed-t-tilde=0", 0, false},
		{"--fixed-t-tilde=2.5", 2.5, false},
		{"--fixed-t-tilde=abc", 0, true},
		{"--fixed-t-tilde=NaN", 0, true},
	} {
		o := tinyOptions(KindSTRODE)
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(new(bytes.Buffer))
		o.Register(fs)
		var args []string
		if tc.arg != "" {
			args = []string{tc.arg}
		}
		err := fs.Parse(args)
		if (err != nil) != tc.isErr {
			t.Errorf("%q: error %v, want error %v", tc.arg, err, tc.isErr)
			continue
		}
		if err != nil {
			continue
		}
		c, ok := o.FixedBoundary()
		if got := map[bool]float64{true: c, false: -1}[ok]; got != tc.want {
			t.Errorf("%q: fixed t~ %g (set %v), want %g", tc.arg, c, ok, tc.want)
		}
	}
	o := tinyOptions(KindSRU)
	one := 1.0
	o.FixedTTilde = &one
	if err := o.Validate(); err == nil {
		t.Error("--fixed-t-tilde accepted for --model=sru")
	}
	o = tinyOptions(KindSTRODE)
	neg := -0.5
	o.FixedTTilde = &neg
	if err := o.Validate(); err == nil {
		t.Error("a stored negative fixed t~ accepted")
	}

	dir := t.TempDir()
	for _, c := range []float64{0, 4} {
		o := tinyOptions(KindSTRODE)
		o.FixedTTilde = &c
		m, err := New(o, 1)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "m.am")
		if err := (&File{Model: m, Pipeline: Pipeline{RawDim: o.InputDim}}).Save(path); err != nil {
			t.Fatal(err)
		}
		f, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := f.Model.Opts.FixedBoundary(); !ok || got != c {
			t.Errorf("C = %g: loaded fixed t~ %g (set %v)", c, got, ok)
		}
		if f.Model.Opts.JSON() != o.JSON() {
			t.Errorf("C = %g: options %s after load, %s before", c, f.Model.Opts.JSON(), o.JSON())
		}
		var b bytes.Buffer
		if err := f.WriteInfo(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "no KL term") || !strings.Contains(b.String(), "fixed at") {
			t.Errorf("C = %g: model-info does not show the fixed t~:\n%s", c, b.String())
		}
	}
}
