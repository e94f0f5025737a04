package jobs

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"
)

var time0 = time.Date(2024, 3, 7, 9, 5, 1, 0, time.UTC)

func itoa(n int) string { return strconv.Itoa(n) }

// FuzzParse: any command line either parses into a consistent Spec or is a
// usage error; never a panic. Words are separated by NUL in the input.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"JOB=1:4\x00x.JOB.log\x00echo\x00JOB", "-tc\x004\x00--mem\x004G\x00x.log\x00true", "-pe\x00smp",
		"N=3\x00a.N.log\x00c", "--a=b\x00-V\x00JOB=1:2\x00l\x00c", "JOB=9999999999999999999:1\x00l\x00c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse("run.pl", strings.Split(in, "\x00"))
		if err != nil {
			return
		}
		if s.Start < 1 || s.End < s.Start || len(s.Words) == 0 {
			t.Fatalf("bad spec %+v", s)
		}
		if s.NumJobs() <= 1000 {
			if js := s.Jobs(); len(js) != s.NumJobs() {
				t.Fatalf("%d jobs for %d", len(js), s.NumJobs())
			}
		}
		_ = s.FailureMessage(1)
	})
}

// FuzzScanEndStatus: reading a log's status never panics, and a log ending
// in a footer reads as that footer's status.
func FuzzScanEndStatus(f *testing.F) {
	f.Add([]byte("# x\n# Ended (code 3; signal 9) at X, elapsed time 0 seconds\n"), 2)
	f.Add([]byte("# Ended (code 0) at"), 0)
	f.Fuzz(func(t *testing.T, log []byte, code int) {
		scanEndStatus(bytes.NewReader(log))
		if code < 0 {
			code = -code
		}
		code %= 256
		withFooter := append(append(append([]byte{}, log...), '\n'), Footer("code "+itoa(code), time0, 0, 1)...)
		st, err := scanEndStatus(bytes.NewReader(withFooter))
		if err != nil || !st.Found || st.Code != code || st.Signal != 0 {
			t.Fatalf("%+v %v for code %d", st, err, code)
		}
	})
}
