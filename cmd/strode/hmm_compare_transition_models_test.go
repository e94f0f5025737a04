package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/kaldicmd"
)

// compare-transition-models: exit 0 for the same model, 1 naming the first
// difference otherwise (kaldi-mini's trained monophone model against fresh
// ones from prepare-lang).
func TestCompareTransitionModels(t *testing.T) {
	k := decoderKaldiMini(t)
	mdl := filepath.Join(k, "exp/mono/final.mdl")
	tmp := t.TempDir()
	fresh := func(dict string) string {
		mono := filepath.Join(tmp, dict[8:])
		runDecoderCmd(t, "prepare-lang", "--position-dependent-phones=false", "--mono-dir="+mono, dict, "<SIL>", filepath.Join(tmp, dict[8:]+"_local"), filepath.Join(tmp, dict[8:]+"_lang"))
		return filepath.Join(mono, "final.mdl")
	}
	for _, c := range []struct {
		name, a, b string
		code       int
		want       string
	}{
		{"same", mdl, mdl, 0, "have the same transition model"},
		{"probabilities", mdl, fresh("builtin:digits-no-oh"), 1, "same pdfs and transition-states, different transition probabilities"},
		{"no such file", mdl, filepath.Join(tmp, "none.mdl"), 1, "none.mdl"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := app.Run([]string{"strode", "compare-transition-models", c.a, c.b},
				kaldicmd.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
			if (code == 0) != (c.code == 0) || !strings.Contains(errb.String(), c.want) {
				t.Errorf("exit %d, stderr\n%s\nwant exit %d and %q", code, errb.String(), c.code, c.want)
			}
			if c.code != 0 && c.name != "no such file" && strings.Count(out.String(), "number of pdfs") != 2 {
				t.Errorf("stdout lacks both models' hmm-info:\n%s", out.String())
			}
		})
	}
}
