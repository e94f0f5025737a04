package jobs

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// QueueConfig is a Kaldi queue configuration (conf/queue.conf,
// conf/slurm.conf): the submit command and how each long option becomes
// submit options. The syntax is Kaldi's:
//
//	command sbatch --export=PATH --ntasks-per-node=1
//	option mem=* --mem-per-cpu $0     # any value: $0 replaced by it
//	option mem=0                      # this value: nothing added
//	option gpu=0 -p shared            # this value: these options
//	default gpu=0                     # the value when the option is not given
type QueueConfig struct {
	Name     string               // where it came from, for messages
	Command  []string             // the submit command's words
	star     map[string]string    // option -> template with $0
	value    map[[2]string]string // (option, value) -> options
	defaults map[string]string
}

var (
	confCommandRe = regexp.MustCompile(`^command (.+)`)
	confStarRe    = regexp.MustCompile(`^option ([^=]+)=\* (.+)$`)
	confValueRe   = regexp.MustCompile(`^option ([^=]+)=(\S+)\s?(.*)$`)
	confDefaultRe = regexp.MustCompile(`^default (\S+)=(\S+)`)
	confCommentRe = regexp.MustCompile(`\s*#.*`)
)

// ParseQueueConfig reads a queue configuration; prog prefixes the messages.
func ParseQueueConfig(r io.Reader, name, prog string) (*QueueConfig, error) {
	c := &QueueConfig{Name: name, star: map[string]string{}, value: map[[2]string]string{}, defaults: map[string]string{}}
	sc := bufio.NewScanner(r)
	for lineNo := 1; sc.Scan(); lineNo++ {
		line := sc.Text()
		l := confCommentRe.ReplaceAllString(line, "")
		switch {
		case l == "":
		case confCommandRe.MatchString(l):
			c.Command = strings.Fields(confCommandRe.FindStringSubmatch(l)[1])
		case confStarRe.MatchString(l):
			m := confStarRe.FindStringSubmatch(l)
			if !strings.Contains(m[2], "$0") {
				return nil, fmt.Errorf("%s: unable to parse line '%s' in config file (%s:%d): an option=* line needs $0", prog, line, name, lineNo)
			}
			c.star[m[1]] = m[2]
		case confValueRe.MatchString(l):
			m := confValueRe.FindStringSubmatch(l)
			c.value[[2]string{m[1], m[2]}] = m[3]
		case confDefaultRe.MatchString(l):
			m := confDefaultRe.FindStringSubmatch(l)
			c.defaults[m[1]] = m[2]
		default:
			return nil, fmt.Errorf("%s: unable to parse line '%s' in config file (%s:%d)", prog, line, name, lineNo)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: reading config file %s: %w", prog, name, err)
	}
	if len(c.Command) == 0 {
		return nil, fmt.Errorf("%s: config file (%s) does not contain the line \"command .*\"", prog, name)
	}
	return c, nil
}

// SubmitOptions turns the long options of a command line into submit
// options as Kaldi's slurm.pl and queue.pl do: an option's exact value line
// wins, then its `=*` template, then (slurm.pl only, starAsValue) an
// `option name=* args` line without $0. Options are visited in name order
// (Kaldi visits a Perl hash, in no fixed order). "config" and the names in
// skip are left to the caller. An option the configuration does not
// describe is an error, as in Kaldi's scripts.
func (c *QueueConfig) SubmitOptions(opts map[string]string, skip map[string]bool, starAsValue bool, prog string) ([]string, error) {
	all := map[string]string{}
	for k, v := range c.defaults {
		all[k] = v
	}
	for k, v := range opts {
		all[k] = v
	}
	names := make([]string, 0, len(all))
	for k := range all {
		if k != "config" && !skip[k] {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	var out []string
	for _, name := range names {
		v := all[name]
		if args, ok := c.value[[2]string{name, v}]; ok {
			out = append(out, strings.Fields(args)...)
		} else if tmpl, ok := c.star[name]; ok {
			out = append(out, strings.Fields(strings.ReplaceAll(tmpl, "$0", v))...)
		} else if args, ok := c.value[[2]string{name, "*"}]; ok && starAsValue {
			out = append(out, strings.Fields(args)...)
		} else {
			return nil, fmt.Errorf("%s: Command line option %s not described in %s (or value '%s' not allowed)", prog, name, c.Name, v)
		}
	}
	return out, nil
}
