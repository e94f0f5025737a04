package jobs

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// ErrUsage marks a command line the runners cannot make sense of (too few
// arguments, a bad job range); the caller prints the usage and exits 1.
var ErrUsage = errors.New("usage error")

// usageError is a message that is ErrUsage without saying so.
type usageError string

func (e usageError) Error() string      { return string(e) }
func (usageError) Is(target error) bool { return target == ErrUsage }

func usagef(format string, a ...any) error { return usageError(fmt.Sprintf(format, a...)) }

// Option is one option as written before the job range: a long one
// (`--mem 4G`, Name "mem") or a queue option passed through as written
// (`-q all.q`, `-pe smp 5`, `-V`).
type Option struct {
	Name  string   // the long option's name with '-' read as '_' (Kaldi's cli_options keys); "" for a queue option
	Value string   // the long option's value
	Words []string // a queue option's words, switch first
}

// Spec is a parsed run.pl / slurm.pl / queue.pl command line.
type Spec struct {
	Prog       string   // "run.pl", for messages
	JobName    string   // the identifier in JOB=1:N; "" for a single job without one
	Start, End int      // the job range, inclusive; 1:1 without JOB=
	LogFile    string   // the log file, the identifier not yet replaced
	Words      []string // the command words as given
	Options    []Option // in command-line order
	Warnings   []string // what the scripts print as warnings while parsing
}

// NumJobs is the number of jobs in the range.
func (s *Spec) NumJobs() int { return s.End - s.Start + 1 }

// Long returns the last value of the long option name ('_' or '-' spelling)
// and whether it was given.
func (s *Spec) Long(name string) (string, bool) {
	name = strings.ReplaceAll(name, "-", "_")
	v, ok := "", false
	for _, o := range s.Options {
		if o.Name == name {
			v, ok = o.Value, true
		}
	}
	return v, ok
}

var (
	jobRangeRe  = regexp.MustCompile(`^([\w_][\w\d_]*)+=(\d+):(\d+)$`)
	jobSingleRe = regexp.MustCompile(`^([\w_][\w\d_]*)+=(\d+)$`)
	suspectRe   = regexp.MustCompile(`.+=.*:.*$`)
)

// Parse reads a run.pl-style command line as Kaldi's scripts do: options
// (any word starting with '-' while at least two words remain) may be
// interleaved with the job range; `-V` takes no value, `-pe` two, every
// other option one (the next word, even when it starts with '-', with a
// warning). `--opt=value` is also accepted as one word. Then come the log
// file and the command words.
func Parse(prog string, args []string) (*Spec, error) {
	s := &Spec{Prog: prog, Start: 1, End: 1}
	a := append([]string(nil), args...)
	for pass := 0; pass < 3; pass++ {
		for len(a) >= 2 && strings.HasPrefix(a[0], "-") {
			sw := a[0]
			a = a[1:]
			if sw == "-V" {
				s.Options = append(s.Options, Option{Words: []string{sw}})
				continue
			}
			if strings.HasPrefix(sw, "--") {
				if name, value, ok := strings.Cut(sw[2:], "="); ok {
					s.Options = append(s.Options, Option{Name: optName(name), Value: value})
					continue
				}
			}
			arg := a[0]
			a = a[1:]
			if strings.HasPrefix(arg, "--") {
				s.warn(fmt.Sprintf("%s: WARNING: suspicious argument '%s' to %s; starts with '-'", prog, arg, sw))
			}
			switch {
			case sw == "-pe":
				if len(a) == 0 {
					return nil, usagef("%s: -pe needs two values (e.g. -pe smp 4)", prog)
				}
				s.Options = append(s.Options, Option{Words: []string{sw, arg, a[0]}})
				a = a[1:]
			case strings.HasPrefix(sw, "--"):
				s.Options = append(s.Options, Option{Name: optName(sw[2:]), Value: arg})
			default:
				s.Options = append(s.Options, Option{Words: []string{sw, arg}})
			}
		}
		if len(a) == 0 {
			break
		}
		if m := jobRangeRe.FindStringSubmatch(a[0]); m != nil {
			start, err1 := strconv.Atoi(m[2])
			end, err2 := strconv.Atoi(m[3])
			if err1 != nil || err2 != nil || start > end {
				return nil, usagef("%s: invalid job range %s", prog, a[0])
			}
			if start <= 0 {
				return nil, usagef("%s: invalid job range %s, start must be strictly positive (this is required for GridEngine compatibility)", prog, a[0])
			}
			s.JobName, s.Start, s.End = m[1], start, end
			a = a[1:]
		} else if m := jobSingleRe.FindStringSubmatch(a[0]); m != nil {
			n, err := strconv.Atoi(m[2])
			if err != nil || n <= 0 {
				return nil, usagef("%s: invalid job range %s, start must be strictly positive (this is required for GridEngine compatibility)", prog, a[0])
			}
			s.JobName, s.Start, s.End = m[1], n, n
			a = a[1:]
		} else if suspectRe.MatchString(a[0]) {
			s.warn(fmt.Sprintf("%s: Warning: suspicious first argument to %s: %s", prog, prog, a[0]))
		}
	}
	if len(a) < 2 {
		return nil, usagef("%s: usage: %s [options] [JOB=1:n] <log-file> <command> ...", prog, prog)
	}
	s.LogFile, s.Words = a[0], a[1:]
	if s.JobName != "" && !strings.Contains(s.LogFile, s.JobName) && s.End > s.Start {
		return nil, usagef("%s: you are trying to run a parallel job but you are putting the output into just one log file (%s)", prog, s.LogFile)
	}
	return s, nil
}

// warn records a warning once (the parsing passes may meet it again).
func (s *Spec) warn(w string) {
	for _, old := range s.Warnings {
		if old == w {
			return
		}
	}
	s.Warnings = append(s.Warnings, w)
}

func optName(s string) string { return strings.ReplaceAll(s, "-", "_") }

// CommandLine joins command words as run.pl does: a word without white space
// as it is (so `\|` on the caller's command line becomes a pipe), a word with
// white space in double quotes, or in single quotes when it contains a
// double quote; each word followed by one space (run.pl's trailing space is
// kept: it shows in the log's first line). As in Kaldi, `$` inside a
// double-quoted word is expanded by the job's shell.
func CommandLine(words []string) string {
	var b strings.Builder
	for _, w := range words {
		switch {
		case w != "" && !strings.ContainsAny(w, " \t\n\r\f\v"):
			b.WriteString(w)
		case strings.Contains(w, `"`):
			b.WriteString("'" + w + "'")
		default:
			b.WriteString(`"` + w + `"`)
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// Job is one job of a Spec: its number, log file and command line with the
// job identifier replaced (everywhere, as run.pl's s/JOB/n/g).
type Job struct {
	ID      int
	LogFile string
	Command string
}

// Jobs lists the jobs of s in order.
func (s *Spec) Jobs() []Job {
	cmd := CommandLine(s.Words)
	var out []Job
	for id := s.Start; id <= s.End; id++ {
		j := Job{ID: id, LogFile: s.LogFile, Command: cmd}
		if s.JobName != "" {
			n := strconv.Itoa(id)
			j.LogFile = strings.ReplaceAll(j.LogFile, s.JobName, n)
			j.Command = strings.ReplaceAll(j.Command, s.JobName, n)
		}
		out = append(out, j)
	}
	return out
}

// FailureMessage is what run.pl prints when jobs failed: the single job's
// log, or the log pattern with the identifier as '*'.
func (s *Spec) FailureMessage(failed int) string {
	if s.NumJobs() == 1 {
		log := s.LogFile
		if s.JobName != "" {
			log = strings.Replace(log, s.JobName, strconv.Itoa(s.Start), 1)
		}
		msg := fmt.Sprintf("%s: job failed, log is in %s", s.Prog, log)
		if strings.Contains(log, "JOB") {
			msg += fmt.Sprintf("\n%s: probably you forgot to put JOB=1:$nj in your script.", s.Prog)
		}
		return msg
	}
	return fmt.Sprintf("%s: %d / %d failed, log is in %s", s.Prog, failed, s.NumJobs(), strings.ReplaceAll(s.LogFile, s.JobName, "*"))
}
