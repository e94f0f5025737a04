package fetch

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The command-line options keep their seconds and the corpus's defaults,
// and a --sums file is read as the corpus lists its files.
func TestOptionsRegister(t *testing.T) {
	c := &Corpus{Name: "toy", URL: "https://example.org/toy.tar.gz", Flat: true, Timeout: 2 * time.Hour}
	o := DefaultOptions(c)
	if o.URL != c.URL || o.Timeout != 2*time.Hour || o.StallTimeout != 60*time.Second || o.ConnectTimeout != 15*time.Second {
		t.Fatalf("defaults %+v", o)
	}
	sums := filepath.Join(t.TempDir(), "SUMS")
	os.WriteFile(sums, []byte("0000000000000000000000000000000000000000000000000000000000000000  a.wav\n"), 0o644)
	fs := flag.NewFlagSet("fetch-toy", flag.ContinueOnError)
	o.Register(fs)
	if f := fs.Lookup("timeout"); f.DefValue != "7200" {
		t.Errorf("--timeout default %q, want 7200", f.DefValue)
	}
	if err := fs.Parse([]string{"--timeout=1.5", "--stall-timeout=2", "--sums=" + sums}); err != nil {
		t.Fatal(err)
	}
	if o.Timeout != 1500*time.Millisecond || o.StallTimeout != 2*time.Second {
		t.Errorf("timeouts %v %v", o.Timeout, o.StallTimeout)
	}
	if err := o.LoadSums(); err != nil || len(o.Sums) != 1 || o.SumsPath != sums {
		t.Errorf("LoadSums: %v, %v", o.Sums, err)
	}
	lo := DefaultLocateOptions(c)
	if lo.SharedDir != "../shared/data/toy" {
		t.Errorf("shared dir %q", lo.SharedDir)
	}
}
