package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
)

// speechocean762-data-prep on the project's copy, then validate-dict-dir
// and validate-data-dir on what it wrote.
func TestSpeechocean762DataPrepCommand(t *testing.T) {
	corpus := shareddata.Full(t, "data/speechocean762")
	data := filepath.Join(t.TempDir(), "data")
	code, _, stderr := runStrode(t, "", "speechocean762-data-prep", "--flac-pipe=true", corpus, data)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	for _, want := range []string{"/train: 2240 utterances, 112 speakers (child-f 20, child-m 27, adult-f 40, adult-m 25)",
		"/dev: 260 utterances, 13 speakers (child-f 2, child-m 3, adult-f 5, adult-m 3)", "every word is in the lexicon",
		"2605 words, 2862 pronunciations (<UNK> SPN added)", "has no test/"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("log lacks %q:\n%s", want, stderr)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(data, "dev", "wav.scp")); !strings.Contains(string(b), " flac -c -d -s ") {
		t.Errorf("--flac-pipe: dev/wav.scp starts %.100q", b)
	}
	if code, out, stderr := runStrode(t, "", "validate-dict-dir", filepath.Join(data, "local", "dict")); code != 0 || !strings.Contains(out, "SUCCESS") {
		t.Errorf("validate-dict-dir: exit %d %s %s", code, out, stderr)
	}
	if code, out, stderr := runStrode(t, "", "validate-data-dir", "--no-feats", filepath.Join(data, "train")); code != 0 || !strings.Contains(out, "Successfully validated") {
		t.Errorf("validate-data-dir: exit %d %s %s", code, out, stderr)
	}
	list := filepath.Join(t.TempDir(), "dev.txt")
	os.WriteFile(list, []byte("0001\n0005\n"), 0o644)
	if code, _, stderr := runStrode(t, "", "speechocean762-data-prep", "--dev-speakers="+list, corpus, data); code != 0 || !strings.Contains(stderr, "/dev: 40 utterances, 2 speakers") {
		t.Errorf("--dev-speakers: exit %d:\n%s", code, stderr)
	}
}

func TestValidateDictDirCommand(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"silence_phones.txt": "SIL\n", "optional_silence.txt": "SIL\n",
		"nonsilence_phones.txt": "A\nB\n", "lexicon.txt": "x A B\ny A C\n"} {
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	code, _, stderr := runStrode(t, "", "validate-dict-dir", dir)
	if code != 1 || !strings.Contains(stderr, filepath.Join(dir, "lexicon.txt")+":2: phone \"C\" (word y) is in neither") {
		t.Errorf("exit %d:\n%s", code, stderr)
	}
	os.WriteFile(filepath.Join(dir, "lexicon.txt"), []byte("x A B\n"), 0o644)
	if code, out, stderr := runStrode(t, "", "validate-dict-dir", dir); code != 0 || out != "--> SUCCESS [validating dictionary directory "+dir+"]\n" {
		t.Errorf("exit %d %q %s", code, out, stderr)
	}
}

// fetch-speechocean762 prints the folder it finds, and offline says how to
// place the files by hand.
func TestFetchSpeechocean762Command(t *testing.T) {
	root := t.TempDir()
	mine := filepath.Join(root, "mine")
	for _, f := range []string{"WAVE/SPEAKER0001/000010011.WAV", "train/text", "train/wav.scp", "resource/lexicon.txt"} {
		os.MkdirAll(filepath.Dir(filepath.Join(mine, f)), 0o755)
		os.WriteFile(filepath.Join(mine, f), nil, 0o644)
	}
	cache := filepath.Join(root, "data", "speechocean762")
	if code, out, stderr := runStrode(t, "", "fetch-speechocean762", "--shared-dir=", "--corpus-dir="+mine, cache); code != 0 || out != mine+"\n" {
		t.Errorf("--corpus-dir: exit %d %q %s", code, out, stderr)
	}
	if code, out, stderr := runStrode(t, "", "fetch-speechocean762", "--shared-dir="+mine, cache); code != 0 || out != mine+"\n" || !strings.Contains(stderr, "speechocean762 (shared)") {
		t.Errorf("--shared-dir: exit %d %q %s", code, out, stderr)
	}
	code, out, stderr := runStrode(t, "", "fetch-speechocean762", "--shared-dir=", "--connect-timeout=2", "--url=http://127.0.0.1:1/speechocean762.tar.gz", cache)
	if code == 0 || out != "" || !strings.Contains(stderr, "tar -xzf speechocean762.tar.gz -C "+cache) {
		t.Errorf("offline: exit %d %q:\n%s", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(root, "data")); !os.IsNotExist(err) {
		t.Errorf("offline fetch left %s/data: %v", root, err)
	}
}

// compute-fbank-feats reads the wav.scp data prep writes for the FLAC copy,
// with paths and with Kaldi's flac pipes (when the flac program is
// installed), to the same features.
func TestSpeechocean762FbankFromFLAC(t *testing.T) {
	corpus := shareddata.Full(t, "data/speechocean762")
	dir := t.TempDir()
	var plain, piped string
	for i, pipe := range []bool{false, true} {
		data := filepath.Join(dir, fmt.Sprint(i))
		if code, _, stderr := runStrode(t, "", "speechocean762-data-prep", fmt.Sprintf("--flac-pipe=%v", pipe), corpus, data); code != 0 {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
		b, _ := os.ReadFile(filepath.Join(data, "dev", "wav.scp"))
		lines := strings.SplitAfter(string(b), "\n")
		scp := filepath.Join(data, "three.scp")
		os.WriteFile(scp, []byte(strings.Join(lines[:3], "")), 0o644)
		if pipe {
			piped = scp
		} else {
			plain = scp
		}
	}
	feats := func(scp string) string {
		out := filepath.Join(t.TempDir(), "feats.txt")
		if code, _, stderr := runStrode(t, "", "compute-fbank-feats", "scp:"+scp, "ark,t:"+out); code != 0 {
			t.Fatalf("compute-fbank-feats %s: exit %d:\n%s", scp, code, stderr)
		}
		b, _ := os.ReadFile(out)
		return string(b)
	}
	a := feats(plain)
	if strings.Count(a, "[") != 3 {
		t.Fatalf("%d matrices from %s, want 3", strings.Count(a, "["), plain)
	}
	if _, err := exec.LookPath("flac"); err != nil {
		t.Skip("the flac program is not installed: the pipe form is not compared")
	}
	if b := feats(piped); a != b {
		t.Error("features through 'flac -c -d -s FILE |' differ from those of the .flac paths")
	}
}
