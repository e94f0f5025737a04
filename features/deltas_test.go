package features

import (
	"errors"
	"testing"
)

// Contexts that would need gigabytes are errors, not an out-of-memory crash.
func TestSpliceFramesBounds(t *testing.T) {
	feats := make([]float32, 100*40)
	for _, c := range []struct{ left, right int }{{-1, 0}, {0, -2}, {1001, 0}, {0, 100000000}} {
		if _, err := SpliceFrames(feats, 100, 40, c.left, c.right); !errors.Is(err, ErrOptions) {
			t.Errorf("context %d/%d: %v", c.left, c.right, err)
		}
	}
	if _, err := SpliceFrames(make([]float32, 100000*40), 100000, 40, 1000, 1000); !errors.Is(err, ErrOptions) {
		t.Errorf("8e9 output values: %v", err)
	}
	out, err := SpliceFrames(feats, 100, 40, 5, 5)
	if err != nil || len(out) != 100*40*11 {
		t.Errorf("5/5: %d values, %v", len(out), err)
	}
}
