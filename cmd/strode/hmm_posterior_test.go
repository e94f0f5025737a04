package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// prob-to-post then get-post-on-ali give each frame the probability of its
// aligned pdf; an utterance without an alignment is skipped, one whose
// alignment has another length is an error naming it.
func TestProbToPostGetPostOnAli(t *testing.T) {
	tmp := t.TempDir()
	probs := filepath.Join(tmp, "probs.txt")
	ali := filepath.Join(tmp, "ali.txt")
	must(t, os.WriteFile(probs, []byte("u1  [\n  0.7 0.295 0.005\n  0 1 0 ]\nu2  [\n  0.5 0.5 0 ]\n"), 0o644))
	must(t, os.WriteFile(ali, []byte("u1 2 1\n"), 0o644))
	post := filepath.Join(tmp, "post.ark")
	runDecoderCmd(t, "prob-to-post", "--min-post=0", "ark,t:"+probs, "ark:"+post)
	got := runDecoderCmd(t, "get-post-on-ali", "ark:"+post, "ark,t:"+ali, "ark,t:-")
	if want := "u1  [ 0.005 1 ]\n"; got != want {
		t.Errorf("weights %q, want %q", got, want)
	}
	// The default threshold (0.01) drops the 0.005: its weight becomes 0.
	runDecoderCmd(t, "prob-to-post", "--random-prune=false", "ark,t:"+probs, "ark:"+post)
	if got := runDecoderCmd(t, "get-post-on-ali", "ark:"+post, "ark,t:"+ali, "ark,t:-"); got != "u1  [ 0 1 ]\n" {
		t.Errorf("weights after pruning %q", got)
	}

	must(t, os.WriteFile(ali, []byte("u1 2\n"), 0o644))
	code, _, stderr := runKaldiioCmd(t, "get-post-on-ali", "ark:"+post, "ark,t:"+ali, "ark,t:-")
	if code == 0 || !strings.Contains(stderr, "utterance u1") || !strings.Contains(stderr, "2 frames, alignment 1") {
		t.Errorf("length mismatch: exit %d, stderr %q", code, stderr)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
