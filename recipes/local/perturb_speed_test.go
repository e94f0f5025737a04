package local

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
	"github.com/strode-asr/strode/internal/testbin"
	"github.com/strode-asr/strode/recipes/datadir"
)

// readKV reads "key value" lines (utt2spk, utt2dur, feat-to-len output).
func readKV(t *testing.T, text string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			t.Fatalf("bad line %q", l)
		}
		m[f[0]] = f[1]
	}
	return m
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// perturbSrc makes a small data dir from kaldi-mini's training set: the
// first two utterances of spk00 and spk01, their wav.scp entries a file, a
// pipe ("cat FILE |") and an archive offset (wav.ark:N), the three forms
// perturb_data_dir_speed.sh rewrites.
func perturbSrc(t *testing.T, bin, dir string) (src string, utts []string) {
	t.Helper()
	k := shareddata.Full(t, "kaldi-mini")
	k, _ = filepath.Abs(k)
	train := filepath.Join(k, "data", "train")
	if _, err := os.Stat(filepath.Join(train, "wav.scp")); err != nil {
		t.Skipf("needs ../shared/kaldi-mini/data/train/wav.scp: %v", err)
	}
	wavs := readKV(t, readText(t, filepath.Join(train, "wav.scp")))
	texts := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(readText(t, filepath.Join(train, "text"))), "\n") {
		key, rest, _ := strings.Cut(l, " ")
		texts[key] = rest
	}
	src = filepath.Join(dir, "train")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	var u2s, wavScp, text strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(readText(t, filepath.Join(train, "spk2utt"))), "\n")[:2] {
		f := strings.Fields(l)
		for _, u := range f[1:3] {
			utts = append(utts, u)
			fmt.Fprintf(&u2s, "%s %s\n", u, f[0])
			fmt.Fprintf(&text, "%s %s\n", u, texts[u])
		}
	}
	// utts are sorted (spk2utt of a sorted utt2spk); the second entry is
	// read through a pipe, the third from an archive.
	arkScp := filepath.Join(dir, "ark.scp")
	sh(t, dir, bin+" wav-copy --print-args=false 'scp:echo "+utts[2]+" "+filepath.Join(k, wavs[utts[2]])+" |' ark,scp:"+
		filepath.Join(dir, "wav.ark")+","+arkScp+" 2>/dev/null")
	for i, u := range utts {
		path := filepath.Join(k, wavs[u])
		switch i {
		case 1:
			fmt.Fprintf(&wavScp, "%s cat %s |\n", u, path)
		case 2:
			fmt.Fprint(&wavScp, readText(t, arkScp))
		default:
			fmt.Fprintf(&wavScp, "%s %s\n", u, path)
		}
	}
	for name, s := range map[string]string{"utt2spk": u2s.String(), "wav.scp": wavScp.String(), "text": text.String()} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sh(t, dir, bin+" utt2spk-to-spk2utt --print-args=false train/utt2spk > train/spk2utt")
	return src, utts
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sh runs a bash script in dir and returns its standard output; it fails
// the test, with both outputs, when the script fails.
func sh(t *testing.T, dir, script string) string {
	t.Helper()
	out, err := shErr(dir, script)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, script, out)
	}
	return out
}

func shErr(dir, script string) (string, error) {
	cmd := exec.Command("bash", "-c", "set -euo pipefail\n"+script)
	cmd.Dir = dir
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		return stdout.String() + stderr.String(), err
	}
	return stdout.String(), nil
}

// The 3-way speed-perturbed copy of a few kaldi-mini utterances: it
// validates, has 3x the utterances and speakers, utt2uniq maps every copy to
// its original, durations scale by 1/F in utt2dur and in the waves the
// wav.scp pipes decode to (to a sample), and compute-fbank-feats reads the
// pipes (frames ~ 1/F).
func TestPerturbDataDirSpeed3Way(t *testing.T) {
	bin := testbin.Strode(t)
	scripts := mustAbs(t, ".")
	dir := t.TempDir()
	src, utts := perturbSrc(t, bin, dir)
	dest := filepath.Join(dir, "train_sp")
	sh(t, dir, scripts+"/perturb_data_dir_speed_3way.sh --strode "+bin+" "+src+" "+dest+" > 3way.log")

	if err := datadir.Validate(dest, datadir.ValidateOptions{NoFeats: true}, nil); err != nil {
		t.Fatalf("validate: %v", err)
	}
	u2s := readKV(t, readText(t, filepath.Join(dest, "utt2spk")))
	u2u := readKV(t, readText(t, filepath.Join(dest, "utt2uniq")))
	if len(u2s) != 3*len(utts) || len(u2u) != len(u2s) {
		t.Fatalf("%d utterances and %d utt2uniq lines, want %d", len(u2s), len(u2u), 3*len(utts))
	}
	spks := map[string]bool{}
	for _, s := range u2s {
		spks[s] = true
	}
	if len(spks) != 6 {
		t.Errorf("%d speakers, want 3 x 2", len(spks))
	}
	if _, err := os.Stat(dest + "_speed0.9"); err == nil {
		t.Error("the 0.9 dir was left behind")
	}

	rate := 16000.0
	utt2dur := readKV(t, readText(t, filepath.Join(dest, "utt2dur")))
	decoded := readKV(t, sh(t, dir, bin+" wav-to-duration --print-args=false scp:"+dest+"/wav.scp ark,t:- 2>/dev/null"))
	frames := readKV(t, sh(t, dir, bin+" compute-fbank-feats --print-args=false --dither=0 scp,p:"+dest+"/wav.scp ark:- 2>/dev/null | "+
		bin+" feat-to-len --print-args=false ark:- ark,t:- 2>/dev/null"))
	if len(decoded) != len(u2s) || len(frames) != len(u2s) {
		t.Fatalf("%d waves decoded and %d feature matrices, want %d", len(decoded), len(frames), len(u2s))
	}
	for _, u := range utts {
		orig := atof(t, decoded[u])
		if d := atof(t, utt2dur[u]); math.Abs(d-orig) > 1e-5 {
			t.Errorf("%s: utt2dur %v, decoded %v", u, d, orig)
		}
		origFrames := atof(t, frames[u])
		for _, f := range []float64{0.9, 1.1} {
			c := fmt.Sprintf("sp%g-%s", f, u)
			if u2u[c] != u {
				t.Errorf("utt2uniq %s -> %q, want %s", c, u2u[c], u)
			}
			if want := "sp" + strconv.FormatFloat(f, 'g', -1, 64) + "-" + u2s[u]; u2s[c] != want {
				t.Errorf("utt2spk %s -> %q, want %s", c, u2s[c], want)
			}
			if d := atof(t, utt2dur[c]); math.Abs(d-orig/f) > 1e-4 {
				t.Errorf("%s: utt2dur %v, want %v / %v = %v", c, d, orig, f, orig/f)
			}
			if d := atof(t, decoded[c]); math.Abs(d-orig/f) > 1.01/rate {
				t.Errorf("%s: the wav.scp pipe decodes to %v s, want %v / %v = %v (to a sample)", c, d, orig, f, orig/f)
			}
			// compute-fbank-feats read the pipe: 1 + (n - 400) / 160 frames
			// (25 ms windows, 10 ms shift at 16 kHz) of its n samples.
			n := int(math.Round(atof(t, decoded[c]) * rate))
			if got, want := atof(t, frames[c]), float64(1+(n-400)/160); got != want {
				t.Errorf("%s: %v frames, want %v (from %d samples; the original has %v)", c, got, want, n, origFrames)
			}
		}
	}
	if t.Failed() {
		t.Logf("wav.scp:\n%s", readText(t, filepath.Join(dest, "wav.scp")))
	}

	// --always-include-prefix: the original's ids are prefixed sp1.0- and
	// its wav.scp entries unchanged.
	dest2 := filepath.Join(dir, "train_sp_all")
	sh(t, dir, scripts+"/perturb_data_dir_speed_3way.sh --always-include-prefix true --strode "+bin+" "+src+" "+dest2+" > 3way2.log")
	u2s2 := readKV(t, readText(t, filepath.Join(dest2, "utt2spk")))
	if len(u2s2) != 3*len(utts) || u2s2["sp1.0-"+utts[0]] != "sp1.0-"+u2s[utts[0]] {
		t.Errorf("--always-include-prefix: utt2spk %v", u2s2)
	}
	if w := readKV(t, readText(t, filepath.Join(dest2, "wav.scp"))); !strings.HasSuffix(w["sp1.0-"+utts[0]], ".wav") {
		t.Errorf("--always-include-prefix: wav.scp entry of sp1.0-%s is %q, want the original file", utts[0], w["sp1.0-"+utts[0]])
	}
	if err := datadir.Validate(dest2, datadir.ValidateOptions{NoFeats: true}, nil); err != nil {
		t.Errorf("--always-include-prefix: %v", err)
	}
	// A factor whose rate is not a whole number of Hz fails here, on the
	// first entry's pipe, not later in make_fbank.
	if out, err := shErr(dir, scripts+"/perturb_data_dir_speed.sh --strode "+bin+" 0.93711 "+src+" sp_odd"); err == nil || !strings.Contains(out, "cannot resample from 14993.76 Hz to 16000 Hz") {
		t.Errorf("factor 0.93711: %v\n%s", err, out)
	}
	// A dest with features is refused, as Kaldi does.
	os.WriteFile(filepath.Join(dest2, "feats.scp"), nil, 0o644)
	if out, err := shErr(dir, scripts+"/perturb_data_dir_speed_3way.sh --strode "+bin+" "+src+" "+dest2); err == nil || !strings.Contains(out, "feats.scp already exists") {
		t.Errorf("dest with feats.scp: %v\n%s", err, out)
	}
}

// Bad input stops the scripts with a message that says what is wrong.
func TestPerturbDataDirSpeedBadInput(t *testing.T) {
	bin := testbin.Strode(t)
	scripts := mustAbs(t, ".")
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	os.MkdirAll(src, 0o755)
	os.WriteFile(filepath.Join(src, "utt2spk"), []byte("u1 s1\n"), 0o644)
	os.WriteFile(filepath.Join(src, "wav.scp"), []byte("u1 "+filepath.Join(dir, "missing.wav")+"\n"), 0o644)
	noWav := filepath.Join(dir, "nowav")
	os.MkdirAll(noWav, 0o755)
	os.WriteFile(filepath.Join(noWav, "utt2spk"), []byte("u1 s1\n"), 0o644)
	for _, c := range []struct{ name, args, want string }{
		{"no wav.scp (3-way)", "perturb_data_dir_speed_3way.sh " + noWav + " out", "expected " + noWav + "/wav.scp to exist"},
		{"no wav.scp", "perturb_data_dir_speed.sh 0.9 " + noWav + " out", "no such file " + noWav + "/wav.scp"},
		{"factor 0", "perturb_data_dir_speed.sh 0 " + src + " out", "must be a positive number (such as 0.9 or 1.1), got '0'"},
		{"factor 0.0", "perturb_data_dir_speed.sh 0.0 " + src + " out", "got '0.0'"},
		{"not a number", "perturb_data_dir_speed.sh fast " + src + " out", "got 'fast'"},
		{"negative", "perturb_data_dir_speed.sh -0.9 " + src + " out", "got '-0.9'"},
		{"same dir", "perturb_data_dir_speed.sh 0.9 " + src + " " + src, "to be different"},
		{"missing audio", "perturb_data_dir_speed.sh 0.9 " + src + " out", "missing.wav"},
		{"combine into a source", "combine_data.sh " + src + " " + src, "is also a source"},
	} {
		out, err := shErr(dir, scripts+"/"+strings.Replace(c.args, " ", " --strode "+bin+" ", 1))
		if err == nil || !strings.Contains(out, c.want) {
			t.Errorf("%s: %v, want an error saying %q:\n%s", c.name, err, c.want, out)
		}
	}
}

// A segmented source (segments, reco2file_and_channel): recordings get the
// prefix, segment times are divided by F (to 2 decimals, Kaldi's rule), a
// segment of 10 ms or less at a speed is dropped, and extract-segments reads
// the perturbed recordings.
func TestPerturbDataDirSpeedSegments(t *testing.T) {
	bin := testbin.Strode(t)
	scripts := mustAbs(t, ".")
	k, _ := filepath.Abs(shareddata.Full(t, "kaldi-mini"))
	wav := filepath.Join(k, "wav", "spk00-train006.wav")
	if _, err := os.Stat(wav); err != nil {
		t.Skipf("needs %s: %v", wav, err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "seg")
	os.MkdirAll(src, 0o755)
	for name, s := range map[string]string{
		"wav.scp":               "rec1 " + wav + "\n",
		"segments":              "s1-a rec1 0.10 0.60\ns1-b rec1 0.50 0.90\ns2-c rec1 0.20 0.205\n",
		"utt2spk":               "s1-a s1\ns1-b s1\ns2-c s2\n",
		"spk2utt":               "s1 s1-a s1-b\ns2 s2-c\n",
		"text":                  "s1-a zero\ns1-b one\ns2-c two\n",
		"reco2file_and_channel": "rec1 rec1 A\n",
	} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dest := filepath.Join(dir, "seg_sp")
	sh(t, dir, scripts+"/perturb_data_dir_speed_3way.sh --strode "+bin+" "+src+" "+dest+" > 3way.log")
	if err := datadir.Validate(dest, datadir.ValidateOptions{NoFeats: true}, nil); err != nil {
		t.Fatalf("validate: %v", err)
	}
	segs := readText(t, filepath.Join(dest, "segments"))
	for _, want := range []string{"sp0.9-s1-a sp0.9-rec1 0.11 0.67\n", "sp1.1-s1-b sp1.1-rec1 0.45 0.82\n", "s1-a rec1 0.10 0.60\n"} {
		if !strings.Contains(segs, want) {
			t.Errorf("segments lack %q:\n%s", want, segs)
		}
	}
	if strings.Contains(segs, "sp0.9-s2-c") || strings.Contains(segs, "sp1.1-s2-c") {
		t.Errorf("the 5 ms segment was kept in a perturbed copy:\n%s", segs)
	}
	if r := readKV(t, readText(t, filepath.Join(dest, "reco2file_and_channel"))); r["sp0.9-rec1"] != "rec1" {
		t.Errorf("reco2file_and_channel: %v", r)
	}
	frames := readKV(t, sh(t, dir, bin+" extract-segments --print-args=false scp,p:"+dest+"/wav.scp "+dest+"/segments ark:- 2>/dev/null | "+
		bin+" compute-fbank-feats --print-args=false --dither=0 ark:- ark:- 2>/dev/null | "+bin+" feat-to-len --print-args=false ark:- ark,t:- 2>/dev/null"))
	// 0.11–0.67 s at 16 kHz: 8960 samples, 1 + (8960 - 400) / 160 = 54 frames.
	if frames["sp0.9-s1-a"] != "54" || frames["s1-a"] != "48" {
		t.Errorf("frames %v, want sp0.9-s1-a 54 and s1-a 48", frames)
	}
}
