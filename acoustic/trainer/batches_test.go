package trainer

import (
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

func TestBatches(t *testing.T) {
	var us []*am.Utterance
	for i := 0; i < 20; i++ {
		us = append(us, &am.Utterance{Rows: 10 + i*7})
	}
	bs := Batches(us, 4, 300, rand.New(rand.NewSource(1)))
	n := 0
	for _, b := range bs {
		mx := 0
		for _, u := range b {
			mx = max(mx, u.Rows)
		}
		if len(b) > 4 || (len(b) > 1 && mx*len(b) > 300) {
			t.Fatalf("batch of %d with max %d frames", len(b), mx)
		}
		n += len(b)
	}
	if n != 20 {
		t.Fatalf("%d utterances in batches", n)
	}
}
