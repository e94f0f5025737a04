package hmm

import (
	"math"
	"math/rand"
	"reflect"
	"testing"

	"github.com/strode-asr/strode/kaldiio"
)

// pe is one posterior entry.
func pe(id int32, w float32) kaldiio.PostEntry { return kaldiio.PostEntry{ID: id, Weight: w} }

func TestProbToPost(t *testing.T) {
	m := kaldiio.Matrix{Rows: 2, Cols: 3, Data: []float32{0.7, 0.295, 0.005, 0, 1, 0}}
	for _, c := range []struct {
		name    string
		minPost float32
		want    kaldiio.Posterior
	}{
		{"threshold 0.01", 0.01, kaldiio.Posterior{{pe(0, 0.7), pe(1, 0.295)}, {pe(1, 1)}}},
		{"keep all", 0, kaldiio.Posterior{{pe(0, 0.7), pe(1, 0.295), pe(2, 0.005)}, {pe(0, 0), pe(1, 1), pe(2, 0)}}},
		{"threshold 0.5", 0.5, kaldiio.Posterior{{pe(0, 0.7)}, {pe(1, 1)}}},
	} {
		if got := ProbToPost(m, c.minPost, false, nil); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// Random pruning keeps a small entry as minPost with probability p/minPost,
// so the expected weight is p; the same seed gives the same posterior.
func TestProbToPostRandomPrunePreservesExpectation(t *testing.T) {
	const n, p, minPost = 20000, 0.002, 0.01
	m := kaldiio.Matrix{Rows: n, Cols: 2, Data: make([]float32, 2*n)}
	for i := 0; i < n; i++ {
		m.Data[2*i], m.Data[2*i+1] = 1-p, p
	}
	post := ProbToPost(m, minPost, true, rand.New(rand.NewSource(1)))
	sum := 0.0
	for _, f := range post {
		for _, e := range f[1:] {
			if e.ID != 1 || e.Weight != minPost {
				t.Fatalf("pruned entry %v, want {1 %v}", e, minPost)
			}
			sum += float64(e.Weight)
		}
	}
	// Binomial(n, p/minPost) kept entries: the mean weight's standard error is
	// minPost·sqrt(q(1-q)/n) ≈ 2.8e-5; 5 of them is the tolerance.
	if mean := sum / n; math.Abs(mean-p) > 1.5e-4 {
		t.Errorf("mean pruned weight %.6f, want %.6f", mean, p)
	}
	if again := ProbToPost(m, minPost, true, rand.New(rand.NewSource(1))); !reflect.DeepEqual(again, post) {
		t.Error("the same seed gave a different posterior")
	}
}

func TestPostOnAli(t *testing.T) {
	post := kaldiio.Posterior{{pe(3, 0.6), pe(5, 0.4)}, {pe(5, 1)}, {}, {pe(2, 0.25), pe(2, 0.5)}}
	got, err := PostOnAli(post, []int32{5, 5, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if want := []float32{0.4, 1, 0, 0.25}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if _, err := PostOnAli(post, []int32{5}); err == nil {
		t.Error("a length mismatch gave no error")
	}
}
