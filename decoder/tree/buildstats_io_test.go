package tree

import (
	"bytes"
	"testing"
)

func smallStats() BuildTreeStats {
	g := NewGaussClusterable(2, 0.01)
	g.AddStats([]float32{0, 1}, 1)
	g.AddStats([]float32{1, 1}, 1)
	h := NewGaussClusterable(2, 0.01)
	h.AddStats([]float32{0.5, -3}, 1)
	return BuildTreeStats{
		{Event: EventType{{Key: -1, Value: 0}, {Key: 0, Value: 0}}, Stats: g},
		{Event: EventType{{Key: -1, Value: 1}, {Key: 0, Value: 7}}, Stats: h},
		{Event: EventType{{Key: -1, Value: 2}}},
	}
}

// The text form is Kaldi's WriteBuildTreeStats, character for character.
func TestStatsTextFormat(t *testing.T) {
	s := smallStats()[:1]
	got := string(writeBytes(t, BuildTreeStatsCodec, false, &s))
	want := "BTS 1 EV 2 -1 0 0 0 \nT GCL 2 0.01  [\n  1 2 \n  1 2 ]\n\n"
	if got != want {
		t.Errorf("text stats\n got %q\nwant %q", got, want)
	}
}

// The binary form's layout: "\0B", "BTS ", the count as a uint32 (size byte
// -4), "EV ", the event size, int32 pairs, 'T', "GCL ", two doubles and a
// DM matrix.
func TestStatsBinaryLayout(t *testing.T) {
	s := smallStats()[:1]
	got := writeBytes(t, BuildTreeStatsCodec, true, &s)
	prefix := []byte("\x00BBTS \xfc\x01\x00\x00\x00EV \xfc\x02\x00\x00\x00\x04\xff\xff\xff\xff\x04\x00\x00\x00\x00\x04\x00\x00\x00\x00\x04\x00\x00\x00\x00TGCL \x08")
	if !bytes.HasPrefix(got, prefix) {
		t.Errorf("binary stats start %q, want %q", got[:min(len(got), len(prefix))], prefix)
	}
	if !bytes.Contains(got, []byte("DM \x04\x02\x00\x00\x00\x04\x02\x00\x00\x00")) {
		t.Error("binary stats lack the 2x2 DM matrix header")
	}
}

func TestStatsRoundTrip(t *testing.T) {
	for _, binary := range []bool{true, false} {
		s := smallStats()
		b := writeBytes(t, BuildTreeStatsCodec, binary, &s)
		back, err := readBytes(t, BuildTreeStatsCodec, b)
		if err != nil {
			t.Fatalf("binary=%v: %v", binary, err)
		}
		again := writeBytes(t, BuildTreeStatsCodec, binary, back)
		if !bytes.Equal(b, again) {
			t.Errorf("binary=%v: stats do not round-trip:\n%q\n%q", binary, b, again)
		}
		if (*back)[2].Stats != nil || (*back)[1].Stats.X[1] != -3 {
			t.Errorf("binary=%v: read back %+v", binary, *back)
		}
	}
}

func TestStatsReadErrors(t *testing.T) {
	cases := map[string]string{
		"unsorted event":       "BTS 1 EV 2 0 0 -1 0 \nF \n",
		"mixed dimensions":     "BTS 2 EV 1 -1 0 \nT GCL 1 0.01  [\n  1 \n  1 ]\nEV 1 -1 1 \nT GCL 1 0.01  [\n  1 2 \n  1 2 ]\n\n",
		"three-row matrix":     "BTS 1 EV 1 -1 0 \nT GCL 1 0.01  [\n  1 \n  1 \n 1 ]\n\n",
		"truncated":            "BTS 2 EV 1 -1 0 \nF ",
		"not stats":            "<Questions> </Questions>",
		"huge count":           "BTS 4294967295 ",
		"bad bool":             "BTS 1 EV 1 -1 0 \nX ",
		"not GaussClusterable": "BTS 1 EV 1 -1 0 \nT SCL 1 1 1 ",
	}
	for name, text := range cases {
		if _, err := readBytes(t, BuildTreeStatsCodec, []byte(text)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestSumTreeStats(t *testing.T) {
	a, b := smallStats()[:2], smallStats()[:1]
	sum, err := SumTreeStats(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum) != 2 || sum[0].Stats.Count != 4 || sum[0].Stats.X2[1] != 4 || sum[1].Stats.Count != 1 {
		t.Errorf("sum %+v %+v", *sum[0].Stats, *sum[1].Stats)
	}
	if a[0].Stats.Count != 2 {
		t.Error("SumTreeStats changed its input")
	}
	other := BuildTreeStats{{Event: EventType{{Key: PdfClassKey, Value: 0}}, Stats: NewGaussClusterable(3, 0.01)}}
	if _, err := SumTreeStats(a, other); err == nil {
		t.Error("summing stats of dimensions 2 and 3 accepted")
	}
	if _, err := SumTreeStats(smallStats()); err == nil {
		t.Error("summing an entry without statistics accepted")
	}
}
