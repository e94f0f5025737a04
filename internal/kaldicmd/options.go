package kaldicmd

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
)

// ErrUsage marks a command line that does not fit the command: an unknown
// option, a malformed value, or the wrong number of positional arguments.
// Commands that fail this way print their usage, as Kaldi binaries do.
var ErrUsage = errors.New("usage error")

// standardOptions are registered on every command, as Kaldi registers them on
// every ParseOptions.
type standardOptions struct {
	config    stringList
	help      bool
	printArgs bool
	verbose   int
}

func (s *standardOptions) register(fs *flag.FlagSet) {
	fs.Var(&s.config, "config", "Configuration file to read (this option may be repeated)")
	fs.BoolVar(&s.help, "help", false, "Print out usage message")
	fs.BoolVar(&s.printArgs, "print-args", true, "Print the command line arguments (to stderr)")
	fs.IntVar(&s.verbose, "verbose", 0, "Verbose level (higher->more logging)")
}

func isStandard(name string) bool {
	switch name {
	case "config", "help", "print-args", "verbose":
		return true
	}
	return false
}

// stringList is a repeatable string option (--config may be given many times).
type stringList []string

func (l *stringList) String() string {
	if l == nil {
		return ""
	}
	return strings.Join(*l, ",")
}
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }
func (l *stringList) Get() any           { return []string(*l) }

// normalizeName reads option names as Kaldi's NormalizeArgName does:
// lower-case, with '_' meaning '-'.
func normalizeName(name string) string {
	return strings.ReplaceAll(strings.ToLower(name), "_", "-")
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// option is one named option as written on the command line or in a config file.
type option struct {
	name, value string
	hasValue    bool
	origin      string // "command line" or "FILE:LINE", for error messages
}

// splitOptions separates the named options from the positional arguments the
// way Kaldi's ParseOptions::Read does: options are the leading arguments that
// start with "--"; the first other argument, or a lone "--", ends them.
// A non-boolean option written without '=' takes the next argument as its value.
func splitOptions(fs *flag.FlagSet, args []string) (opts []option, positional []string, err error) {
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "--") {
			break
		}
		name, value, hasValue := strings.Cut(a[2:], "=")
		name = normalizeName(name)
		if name == "" {
			return nil, nil, fmt.Errorf("%w: invalid option %q", ErrUsage, a)
		}
		f := fs.Lookup(name)
		if f == nil {
			return nil, nil, fmt.Errorf("%w: invalid option %s", ErrUsage, a)
		}
		if !hasValue && !isBoolFlag(f) {
			if i+1 >= len(args) {
				return nil, nil, fmt.Errorf("%w: option --%s needs a value", ErrUsage, name)
			}
			i++
			value, hasValue = args[i], true
		}
		opts = append(opts, option{name: name, value: value, hasValue: hasValue, origin: "command line"})
	}
	positional = append(positional, args[i:]...)
	return opts, positional, nil
}

// readConfig reads a Kaldi-style config file: each non-blank line, after
// stripping '#' comments, is one "--opt=value" (or a bare boolean "--opt").
func readConfig(fs *flag.FlagSet, path string) ([]option, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open config file: %w", err)
	}
	defer f.Close()
	var opts []option
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for lineNo := 1; sc.Scan(); lineNo++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		where := fmt.Sprintf("%s:%d", path, lineNo)
		if !strings.HasPrefix(line, "--") {
			return nil, fmt.Errorf("%w: %s: config lines must look like --opt=value, got %q", ErrUsage, where, line)
		}
		name, value, hasValue := strings.Cut(line[2:], "=")
		name = normalizeName(strings.TrimSpace(name))
		value = strings.TrimSpace(value)
		fl := fs.Lookup(name)
		if fl == nil {
			return nil, fmt.Errorf("%w: %s: invalid option --%s", ErrUsage, where, name)
		}
		if !hasValue && !isBoolFlag(fl) {
			return nil, fmt.Errorf("%w: %s: option --%s needs a value", ErrUsage, where, name)
		}
		opts = append(opts, option{name: name, value: value, hasValue: hasValue, origin: where})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading config file %s: %w", path, err)
	}
	return opts, nil
}

// parse applies config files first (in the order given, nested --config
// included) and then the command line, so the command line wins, as in Kaldi.
// It returns the positional arguments.
func parse(fs *flag.FlagSet, std *standardOptions, args []string) ([]string, error) {
	cmdOpts, positional, err := splitOptions(fs, args)
	if err != nil {
		return nil, err
	}
	var all []option
	seen := map[string]bool{}
	var addConfig func(path string, depth int) error
	addConfig = func(path string, depth int) error {
		if depth > 8 || seen[path] {
			return fmt.Errorf("%w: config file %s includes itself", ErrUsage, path)
		}
		seen[path] = true
		opts, err := readConfig(fs, path)
		if err != nil {
			return err
		}
		for _, o := range opts {
			if o.name == "config" {
				if err := addConfig(o.value, depth+1); err != nil {
					return err
				}
				continue
			}
			all = append(all, o)
		}
		return nil
	}
	for _, o := range cmdOpts {
		if o.name == "config" {
			if err := addConfig(o.value, 0); err != nil {
				return nil, err
			}
		}
	}
	for _, o := range cmdOpts {
		if o.name != "config" {
			all = append(all, o)
		}
	}
	for _, o := range all {
		v := o.value
		if !o.hasValue {
			v = "true"
		}
		if err := fs.Set(o.name, v); err != nil {
			return nil, fmt.Errorf("%w: %s: bad value %q for option --%s: %v", ErrUsage, o.origin, o.value, o.name, unwrapFlagErr(err))
		}
	}
	_ = std
	return positional, nil
}

// unwrapFlagErr keeps the strconv message short ("invalid syntax").
func unwrapFlagErr(err error) error {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err
		}
		err = u
	}
}

// ReadConfigFile applies a Kaldi-style config file to fs, as Kaldi's
// online2 binaries read the files their --fbank-config, --mfcc-config and
// --cmvn-config name into the options of one component: every line is
// --opt=value for an option of fs (a nested --config is read in place; fs
// gains the standard options, --config among them, if it lacks them).
func ReadConfigFile(fs *flag.FlagSet, path string) error {
	std := &standardOptions{}
	if fs.Lookup("config") == nil {
		std.register(fs)
	}
	_, err := parse(fs, std, []string{"--config=" + path})
	return err
}
