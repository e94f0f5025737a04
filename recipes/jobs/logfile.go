package jobs

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"time"
)

// DateLayout is the output of `date` in the C locale ("Thu Mar  7 10:00:00
// UTC 2024"), which run.pl copies into the log's "Started at" and "Ended"
// lines.
const DateLayout = "Mon Jan _2 15:04:05 MST 2006"

// Header is run.pl's log header: the command line, the start date and a
// lone '#'. Extra lines (e.g. "Slurm job id: 12") go before the lone '#',
// each prefixed with "# ".
func Header(cmd string, started time.Time, extra ...string) string {
	h := "# " + cmd + "\n# Started at " + started.Format(DateLayout) + "\n"
	for _, e := range extra {
		h += "# " + e + "\n"
	}
	return h + "#\n"
}

// Footer is run.pl's log footer. status is "code N" or, when the shell
// itself was killed, "code N; signal S" (run.pl's wording for $? with low
// bits set); elapsed is the difference of the whole-second clocks at start
// and end, as run.pl's `date +%s`.
func Footer(status string, ended time.Time, elapsed int64, threads int) string {
	return fmt.Sprintf("# Accounting: time=%d threads=%d\n# Ended (%s) at %s, elapsed time %d seconds\n",
		elapsed, threads, status, ended.Format(DateLayout), elapsed)
}

var endedRe = regexp.MustCompile(`^# Ended \(code (\d+)(; signal (\d+))?\)`)

// EndStatus is how a job ended according to its log.
type EndStatus struct {
	Found  bool // the log has a "# Ended (code ...)" line
	Code   int  // its exit code
	Signal int  // its signal, 0 if none
}

// OK reports a job that ended with code 0 and no signal.
func (e EndStatus) OK() bool { return e.Found && e.Code == 0 && e.Signal == 0 }

// ReadEndStatus reads the last "# Ended (code N)" line of a log, as run.pl's
// --pick does. A missing file is an error satisfying os.IsNotExist.
func ReadEndStatus(path string) (EndStatus, error) {
	f, err := os.Open(path)
	if err != nil {
		return EndStatus{}, err
	}
	defer f.Close()
	return scanEndStatus(f)
}

// readTailEndStatus is ReadEndStatus on the last 64 KiB of a log, where the
// footer its job writes last is: cheap enough to poll while jobs run.
func readTailEndStatus(path string) (EndStatus, error) {
	f, err := os.Open(path)
	if err != nil {
		return EndStatus{}, err
	}
	defer f.Close()
	const tail = 64 << 10
	if fi, err := f.Stat(); err == nil && fi.Size() > tail {
		if _, err := f.Seek(fi.Size()-tail, io.SeekStart); err != nil {
			return EndStatus{}, err
		}
		br := bufio.NewReader(f)
		br.ReadString('\n') // skip the partial line
		return scanEndStatus(br)
	}
	return scanEndStatus(f)
}

func scanEndStatus(r io.Reader) (EndStatus, error) {
	var st EndStatus
	br := bufio.NewReader(r)
	atStart := true // lines longer than the buffer come in pieces; only a line's start can match
	for {
		piece, isPrefix, err := br.ReadLine()
		if err == io.EOF {
			return st, nil
		}
		if err != nil {
			return st, err
		}
		if atStart {
			if m := endedRe.FindSubmatch(piece); m != nil {
				code, err1 := strconv.Atoi(string(m[1]))
				sig := 0
				if len(m[3]) > 0 {
					sig, _ = strconv.Atoi(string(m[3]))
				}
				if err1 == nil {
					st = EndStatus{Found: true, Code: code, Signal: sig}
				}
			}
		}
		atStart = !isPrefix
	}
}
