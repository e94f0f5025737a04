package am

import (
	"bytes"
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"testing"
)

// TestHeadVariantOption: --head-variant's values and validation, its way
// through save and load, model-info's line for it, and an old model file
// (no head_variant in its options) loading as the paper's.
func TestHeadVariantOption(t *testing.T) {
	for _, tc := range []struct {
		arg, want string
		isErr     bool
	}{
		{"", HeadPaper, false},
		{"--head-variant=htilde", HeadHTilde, false},
		{"--head-variant=gated", HeadGated, false},
		{"--head-variant=lookahead", HeadLookahead, false},
		{"--head-variant=both", "", true},
	} {
		o, _ := PresetFor("small", KindSTRODE)
		o.InputDim, o.NumPdfs = 3, 4
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		o.Register(fs)
		var args []string
		if tc.arg != "" {
			args = []string{tc.arg}
		}
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		err := o.Validate()
		if (err != nil) != tc.isErr {
			t.Errorf("%q: error %v, want error %v", tc.arg, err, tc.isErr)
			continue
		}
		if err != nil {
			if !strings.Contains(err.Error(), "--head-variant") {
				t.Errorf("%q: the error does not name the option: %v", tc.arg, err)
			}
			continue
		}
		if o.HeadVariant != tc.want {
			t.Errorf("%q: variant %q, want %q", tc.arg, o.HeadVariant, tc.want)
		}
	}
	o := tinyOptions(KindSRU)
	o.HeadVariant = HeadGated
	if err := o.Validate(); err == nil {
		t.Error("--head-variant=gated accepted for --model=sru")
	}

	dir := t.TempDir()
	for _, v := range []string{HeadPaper, HeadHTilde, HeadGated, HeadLookahead} {
		o := tinyOptions(KindSTRODE)
		o.HeadVariant, o.MaxLookahead = v, 5
		m, err := New(o, 1)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, v+".am")
		if err := (&File{Model: m, Pipeline: Pipeline{RawDim: o.InputDim}}).Save(path); err != nil {
			t.Fatal(err)
		}
		f, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if f.Model.Opts.HeadVariant != v || f.Model.Checksum() != m.Checksum() {
			t.Errorf("%s: loaded as %q, checksum equal %v", v, f.Model.Opts.HeadVariant, f.Model.Checksum() == m.Checksum())
		}
		var b bytes.Buffer
		if err := f.WriteInfo(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "head variant "+v+":") {
			t.Errorf("%s: model-info does not show the variant:\n%s", v, b.String())
		}
		if has := strings.Contains(b.String(), "out.gate.weight"); has != (v == HeadGated) {
			t.Errorf("%s: model-info lists out.gate.weight: %v", v, has)
		}
		if has := strings.Contains(b.String(), "out.ode.weight"); has != (v != HeadHTilde) {
			t.Errorf("%s: model-info lists out.ode.weight: %v", v, has)
		}
		// the file records L for lookahead only, and model-info shows it
		if f.Model.Opts.MaxLookahead != map[bool]int{true: 5}[v == HeadLookahead] {
			t.Errorf("%s: loaded with --max-lookahead=%d", v, f.Model.Opts.MaxLookahead)
		}
		if has := strings.Contains(b.String(), "min(t~, 5)"); has != (v == HeadLookahead) {
			t.Errorf("%s: model-info shows L: %v\n%s", v, has, b.String())
		}
	}
	// A file of before the variants (golden_test's, recorded then).
	f, err := Load(filepath.Join("testdata", "golden", "strode.am"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.WriteInfo(&b); err != nil {
		t.Fatal(err)
	}
	if f.Model.Opts.HeadVariant != "" || !strings.Contains(b.String(), "head variant paper:") {
		t.Errorf("an old file loads with variant %q; model-info:\n%s", f.Model.Opts.HeadVariant, b.String())
	}
}

// TestInitEncoderVariants: --init-encoder into a gated head copies the
// encoder and its output layer (W reads e through the gate) and zeroes
// W_h; into an htilde head, whose W reads h̃, only the SRU stack; an htilde
// model as the source gives the SRU stack alone as well.
func TestInitEncoderVariants(t *testing.T) {
	so := tinyOptions(KindSRU)
	src, err := New(so, 5)
	if err != nil {
		t.Fatal(err)
	}
	param := func(m *Model, name string) []float64 {
		for _, p := range m.Params.List {
			if p.Name == name {
				return p.Data
			}
		}
		return nil
	}
	same := func(a, b []float64) bool {
		if len(a) != len(b) || a == nil {
			return false
		}
		for i := range a {
			if a[i] != b[i] {
				return false
			}
		}
		return true
	}
	for _, tc := range []struct {
		variant string
		out     bool // out.weight copied
	}{{HeadGated, true}, {HeadHTilde, false}} {
		o := so
		o.Kind, o.HeadVariant = KindSTRODE, tc.variant
		m, err := New(o, 9)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.InitEncoder(src); err != nil {
			t.Fatalf("%s: %v", tc.variant, err)
		}
		if !same(param(m, "sru.0.weight"), param(src, "sru.0.weight")) {
			t.Errorf("%s: the SRU stack was not copied", tc.variant)
		}
		if got := same(param(m, "out.weight"), param(src, "out.weight")); got != tc.out {
			t.Errorf("%s: out.weight copied %v, want %v", tc.variant, got, tc.out)
		}
		if tc.variant == HeadGated {
			for _, v := range param(m, "out.ode.weight") {
				if v != 0 {
					t.Fatalf("gated: W_h not zeroed")
				}
			}
		}
		// and back: the htilde model as a source for an sru model
		if tc.variant == HeadHTilde {
			dst, err := New(so, 3)
			if err != nil {
				t.Fatal(err)
			}
			before := append([]float64(nil), param(dst, "out.weight")...)
			if err := dst.InitEncoder(m); err != nil {
				t.Fatalf("from htilde: %v", err)
			}
			if !same(param(dst, "sru.1.weight"), param(m, "sru.1.weight")) || !same(param(dst, "out.weight"), before) {
				t.Errorf("from htilde: want the SRU stack alone copied")
			}
		}
	}
}

// TestLookaheadOptions: the look-ahead head needs a causal encoder and no
// target delay, L ≥ 1 and w_latency ≥ 0; it does not stream yet, and the
// replays of one frame refuse it; Lookahead and CheckCausal count its L.
func TestLookaheadOptions(t *testing.T) {
	base := tinyOptions(KindSTRODE)
	base.HeadVariant, base.MaxLookahead, base.WLatency = HeadLookahead, 4, 0.1
	for _, tc := range []struct {
		name, want string
		edit       func(o *Options)
	}{
		{"bidirectional", "--bidirectional=false", func(o *Options) { o.SRU.Bidirectional = true }},
		{"target delay", "--target-delay=2", func(o *Options) { o.TargetDelay = 2 }},
		{"L 0", "--max-lookahead=0", func(o *Options) { o.MaxLookahead = 0 }},
		{"negative weight", "--w-latency=-1", func(o *Options) { o.WLatency = -1 }},
		{"sru", "--head-variant=lookahead is for --model=strode", func(o *Options) { o.Kind = KindSRU }},
	} {
		o := base
		tc.edit(&o)
		if err := o.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error naming %s", tc.name, err, tc.want)
		}
	}
	m, err := New(base, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.NewStream(); !errors.Is(err, ErrLookaheadStream) {
		t.Errorf("stream: %v, want ErrLookaheadStream", err)
	}
	if _, err := m.Postdiction(make([]float64, base.SRU.OutDim()), 1, -1); err == nil {
		t.Error("postdiction of a lookahead head accepted")
	}
	p := Pipeline{RawDim: base.InputDim, CMVN: CMVNNone, SpliceLeft: 2}
	if Lookahead(base, p) != 4 || CheckCausal(base, p) == nil || CheckCausalDelayed(base, p) != nil {
		t.Errorf("look-ahead %d, causal %v, causal with delays %v", Lookahead(base, p), CheckCausal(base, p), CheckCausalDelayed(base, p))
	}
	// JSON leaves the look-ahead options out of the other variants' files.
	o := base
	o.HeadVariant = HeadPaper
	if j := o.JSON(); strings.Contains(j, "lookahead") || strings.Contains(j, "latency") {
		t.Errorf("paper's options carry the look-ahead's: %s", j)
	}
	if j := base.JSON(); !strings.Contains(j, `"max_lookahead":4`) || !strings.Contains(j, `"w_latency":0.1`) {
		t.Errorf("lookahead's options: %s", j)
	}
}
