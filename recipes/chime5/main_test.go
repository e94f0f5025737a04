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
	if len(os.Args) == 5 && os.Args[1] == "wav-select-channel" && strings.HasPrefix(os.Args[2], "--channel=") && os.Args[4] == "-" {
		ch, err := strconv.Atoi(strings.TrimPrefix(os.Args[2], "--channel="))
		if err == nil {
			var f *os.File
			if f, err = os.Open(os.Args[3]); err == nil {
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
