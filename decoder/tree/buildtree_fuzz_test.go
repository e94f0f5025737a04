package tree

import (
	"bytes"
	"strings"
	"testing"
)

// The readers of untrusted tree-building files: whatever the bytes, an
// error or a value that writes and reads back the same, never a panic.

func FuzzBuildTreeStats(f *testing.F) {
	s := smallStats()
	f.Add(writeBytes(f, BuildTreeStatsCodec, true, &s))
	f.Add(writeBytes(f, BuildTreeStatsCodec, false, &s))
	f.Add([]byte("BTS 1 EV 1 -1 0 \nT GCL 1 0.01  [\n  1 \n  1 ]\n\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := readBytes(t, BuildTreeStatsCodec, b)
		if err != nil {
			return
		}
		binary := len(b) > 1 && b[0] == 0 && b[1] == 'B'
		out := writeBytes(t, BuildTreeStatsCodec, binary, v)
		back, err := readBytes(t, BuildTreeStatsCodec, out)
		if err != nil {
			t.Fatalf("stats written by strode do not read back: %v", err)
		}
		if binary && !bytes.Equal(out, writeBytes(t, BuildTreeStatsCodec, true, back)) {
			t.Fatal("binary stats do not round-trip")
		}
	})
}

func FuzzQuestions(f *testing.F) {
	q := synthQuestions(f)
	f.Add(writeBytes(f, QuestionsCodec, true, q))
	f.Add(writeBytes(f, QuestionsCodec, false, q))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := readBytes(t, QuestionsCodec, b)
		if err != nil {
			return
		}
		for _, binary := range []bool{true, false} {
			out := writeBytes(t, QuestionsCodec, binary, v)
			back, err := readBytes(t, QuestionsCodec, out)
			if err != nil {
				t.Fatalf("questions written by strode do not read back: %v", err)
			}
			if !bytes.Equal(out, writeBytes(t, QuestionsCodec, binary, back)) {
				t.Fatal("questions do not round-trip")
			}
		}
	})
}

func FuzzRoots(f *testing.F) {
	f.Add("shared split 1\nnot-shared not-split 2 3\n")
	f.Add("shared split 1 1\n")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ReadRoots(strings.NewReader(s), "roots")
		if err != nil {
			return
		}
		seen := map[int32]bool{}
		for _, set := range r.PhoneSets {
			if len(set) == 0 {
				t.Fatal("empty phone set accepted")
			}
			for _, p := range set {
				if p <= 0 || seen[p] {
					t.Fatalf("phone %d accepted (non-positive or repeated)", p)
				}
				seen[p] = true
			}
		}
	})
}
