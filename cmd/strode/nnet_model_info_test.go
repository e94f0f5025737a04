package main

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

// TestModelInfoPreset: without a model file, model-info prints the
// parameter count of the model strode train would build for the preset and
// kind (explicit size options applied on top), and refuses too little.
func TestModelInfoPreset(t *testing.T) {
	for _, tc := range []struct {
		kind  string
		extra []string
		edit  func(*am.Options)
	}{
		{am.KindSTRODE, nil, nil},
		{am.KindSRU, nil, nil},
		{am.KindODERNN, []string{"--decoder-layers=3"}, func(o *am.Options) { o.DecoderLayers = 3 }},
		{am.KindDNN, []string{"--dnn-hidden=100", "--left-context=5", "--right-context=5"}, func(o *am.Options) { o.DNNHidden = 100; o.InputDim = 23 * 11 }},
	} {
		args := append([]string{"model-info", "--preset=small", "--model=" + tc.kind, "--num-pdfs=10", "--feat-dim=23"}, tc.extra...)
		code, out, stderr := runKaldiioCmd(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		o, _ := am.PresetFor("small", tc.kind)
		o.InputDim, o.NumPdfs = 23, 10
		if tc.edit != nil {
			tc.edit(&o)
		}
		ts, err := am.Shapes(o)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, s := range ts {
			n += s.Rows * s.Cols
		}
		if want := fmt.Sprintf(`(?m)^\s+total\s+%d\s`, n); !regexp.MustCompile(want).Match(out) {
			t.Errorf("%v: no %q in\n%s", args, want, out)
		}
	}
	if code, _, _ := runKaldiioCmd(t, "model-info", "--preset=paper", "--model=odernn"); code == 0 {
		t.Errorf("model-info without --feat-dim and --num-pdfs succeeded")
	}
}

// TestModelInfoPaperCount: at the paper's sizes model-info prints the
// paper's own count beside ours (strode 76 M, odernn 77 M), and only there.
func TestModelInfoPaperCount(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // "" = no paper line
	}{
		{[]string{"--preset=paper", "--model=strode"}, "76 M"},
		{[]string{"--preset=paper", "--model=odernn"}, "77 M"},
		{[]string{"--preset=paper", "--model=odernn", "--decoder-layers=3"}, ""},
		{[]string{"--preset=paper", "--model=sru"}, ""},
		{[]string{"--preset=small", "--model=strode"}, ""},
	} {
		args := append([]string{"model-info", "--num-pdfs=5000", "--feat-dim=40"}, tc.args...)
		code, out, stderr := runKaldiioCmd(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		m := regexp.MustCompile(`(?m)^\s+paper\s+(\d+ M)`).FindSubmatch(out)
		switch {
		case tc.want == "" && m != nil:
			t.Errorf("%v: a paper line (%s) for sizes the paper does not report:\n%s", args, m[1], out)
		case tc.want != "" && (m == nil || string(m[1]) != tc.want):
			t.Errorf("%v: want the paper's %s in\n%s", args, tc.want, out)
		}
	}
}
