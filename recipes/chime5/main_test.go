package chime5

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestMain lets the test binary stand in for `strode wav-select-channel` in
// the wav.scp pipes the tests write (Options.Strode = os.Args[0]), so the
// end-to-end test runs in -short mode without building the strode binary.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "wav-select-channel" {
		// wav-select-channel [--print-args=false] --channel=N <file> -
		ch, path, err := -1, "", error(nil)
		for _, a := range os.Args[2:] {
			switch {
			case a == "--print-args=false" || a == "-":
			case strings.HasPrefix(a, "--channel="):
				ch, err = strconv.Atoi(strings.TrimPrefix(a, "--channel="))
			default:
				path = a
			}
		}
		if err == nil {
			var f *os.File
			if f, err = os.Open(path); err == nil {
				err = SelectChannel(f, os.Stdout, ch)
				f.Close()
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
