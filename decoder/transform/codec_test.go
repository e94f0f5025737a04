package transform

import (
	"bytes"
	"strings"
	"testing"

	"github.com/strode-asr/strode/kaldiio"
)

// MLLT statistics and Gaussian-level posteriors survive Kaldi's binary and
// text forms exactly (double packed matrices, float vectors); a truncated
// or malformed object is an error, not a panic.
func TestStatsCodecsRoundTrip(t *testing.T) {
	accs := NewMlltAccs(3, 0)
	accs.Beta = 12.5
	for i := range accs.G {
		for j := range accs.G[i].Data {
			accs.G[i].Data[j] = float64(i+1) + 0.25*float64(j)
		}
	}
	gp := GaussPost{{{ID: 3, Posts: kaldiio.Vector{0.25, 0.75}}}, {}, {{ID: 1, Posts: kaldiio.Vector{1}}, {ID: 2, Posts: kaldiio.Vector{0.5, 0.5, 0}}}}
	for _, binary := range []bool{true, false} {
		var buf bytes.Buffer
		w := kaldiio.NewWriter(&buf)
		if err := MlltAccsCodec.Write(w, binary, accs); err != nil {
			t.Fatal(err)
		}
		if err := GaussPostCodec.Write(w, binary, &gp); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		whole := buf.String()
		r := kaldiio.NewReader(&buf, "stats")
		var back MlltAccs
		if err := MlltAccsCodec.Read(r, binary, &back); err != nil {
			t.Fatalf("binary=%v: %v", binary, err)
		}
		if back.Beta != accs.Beta || len(back.G) != 3 {
			t.Fatalf("binary=%v: beta %g, %d G", binary, back.Beta, len(back.G))
		}
		for i := range back.G {
			for j, v := range back.G[i].Data {
				if v != accs.G[i].Data[j] {
					t.Fatalf("binary=%v: G_%d[%d] = %g, want %g", binary, i, j, v, accs.G[i].Data[j])
				}
			}
		}
		var gback GaussPost
		if err := GaussPostCodec.Read(r, binary, &gback); err != nil {
			t.Fatalf("binary=%v: %v", binary, err)
		}
		if len(gback) != 3 || len(gback[2]) != 2 || gback[2][1].ID != 2 || gback[0][0].Posts[1] != 0.75 {
			t.Fatalf("binary=%v: gauss posts %+v", binary, gback)
		}
		// Every truncation fails cleanly.
		for n := 0; n < len(whole)-1; n += 7 {
			var a MlltAccs
			if err := MlltAccsCodec.Read(kaldiio.NewReader(strings.NewReader(whole[:n]), "cut"), binary, &a); err == nil && n < len(whole)/2 {
				t.Errorf("binary=%v: %d of %d bytes read without error", binary, n, len(whole))
			}
		}
	}
}
