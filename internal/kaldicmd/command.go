package kaldicmd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// RunFunc does a command's work once its options are parsed.
type RunFunc func(ctx *Context) error

// Command describes one strode subcommand the way a Kaldi binary describes itself.
type Command struct {
	Name        string   // Kaldi's binary name, e.g. "copy-feats"
	Summary     string   // one line for `strode --help`
	Description string   // what it does, first lines of the usage message
	ArgsUsage   string   // e.g. "<feature-rspecifier> <feature-wspecifier>"
	Examples    []string // printed as "e.g.: ..." lines
	MinArgs     int      // fewest positional arguments
	MaxArgs     int      // most positional arguments; < 0 means no limit

	// RawArgs hands every argument after the command name to the run
	// function untouched (Context.Args), with no option parsing at all: no
	// --config, --verbose or --print-args, and options may follow positional
	// arguments. It is for commands that stand in for Kaldi's scripts with
	// their own argument conventions (run.pl's `-tc 4 JOB=1:4 --mem 4G`),
	// which parse their arguments themselves. `--help` as the only argument
	// still prints the usage text; MinArgs and MaxArgs still apply.
	RawArgs bool

	// Setup registers the command's options on fs (with Kaldi's names and
	// defaults) and returns the function that runs it. It is called afresh for
	// every invocation, so option values never leak between runs.
	Setup func(fs *flag.FlagSet) RunFunc
}

// Context is what a running command sees: its positional arguments, the
// standard streams and Kaldi-style logging.
type Context struct {
	Name    string
	Verbose int
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	args    []string
}

// Args returns the positional arguments.
func (c *Context) Args() []string { return c.args }

// Arg returns positional argument i, or "" when there are fewer.
func (c *Context) Arg(i int) string {
	if i < len(c.args) {
		return c.args[i]
	}
	return ""
}

// Log prints a Kaldi-style LOG line to stderr.
func (c *Context) Log(format string, a ...any) { c.line("LOG", format, a...) }

// Warn prints a Kaldi-style WARNING line to stderr.
func (c *Context) Warn(format string, a ...any) { c.line("WARNING", format, a...) }

// Vlog prints a VLOG[level] line when --verbose is at least level.
func (c *Context) Vlog(level int, format string, a ...any) {
	if c.Verbose >= level {
		c.line(fmt.Sprintf("VLOG[%d]", level), format, a...)
	}
}

func (c *Context) line(kind, format string, a ...any) {
	fmt.Fprintf(c.Stderr, "%s (strode %s) %s\n", kind, c.Name, fmt.Sprintf(format, a...))
}

// ExitError carries a specific exit status out of a command.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil { // the command printed its own message
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}
func (e *ExitError) Unwrap() error { return e.Err }

// Exit returns an error that makes the command exit with code after printing err.
func Exit(code int, err error) error { return &ExitError{Code: code, Err: err} }

// Streams are the standard streams a command runs with.
type Streams struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// StdStreams are the process's own standard streams.
func StdStreams() Streams { return Streams{os.Stdin, os.Stdout, os.Stderr} }

// Execute parses args (everything after the subcommand name) and runs the
// command, returning the process exit status. It prints usage for --help (0)
// and for usage errors (1), and `ERROR (strode <cmd>) ...` for failures.
func (c *Command) Execute(args []string, s Streams) int {
	if c.RawArgs {
		return c.executeRaw(args, s)
	}
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var std standardOptions
	std.register(fs)
	var run RunFunc
	if c.Setup != nil {
		run = c.Setup(fs)
	}
	errorf := func(err error) {
		fmt.Fprintf(s.Stderr, "ERROR (strode %s) %v\n", c.Name, err)
	}
	positional, err := parse(fs, &std, args)
	if err == nil && std.help {
		c.WriteUsage(s.Stdout, fs)
		return 0
	}
	if err == nil && (len(positional) < c.MinArgs || (c.MaxArgs >= 0 && len(positional) > c.MaxArgs)) {
		err = fmt.Errorf("%w: expected %s, got %d argument(s)", ErrUsage, argCount(c.MinArgs, c.MaxArgs), len(positional))
	}
	if err != nil {
		c.WriteUsage(s.Stderr, fs)
		errorf(err)
		return 1
	}
	if std.printArgs {
		fmt.Fprintln(s.Stderr, "strode "+c.Name+" "+quoteArgs(args))
	}
	ctx := &Context{Name: c.Name, Verbose: std.verbose, Stdin: s.Stdin, Stdout: s.Stdout, Stderr: s.Stderr, args: positional}
	if run == nil {
		errorf(errors.New("command has no implementation"))
		return 1
	}
	return c.finish(run(ctx), s, fs)
}

// executeRaw is Execute for a RawArgs command: the arguments go to the run
// function as they are.
func (c *Command) executeRaw(args []string, s Streams) int {
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var run RunFunc
	if c.Setup != nil {
		run = c.Setup(fs)
	}
	if len(args) == 1 && args[0] == "--help" {
		fmt.Fprintf(s.Stdout, "\n%s\n", strings.TrimRight(c.usageText(), "\n"))
		return 0
	}
	if len(args) < c.MinArgs || (c.MaxArgs >= 0 && len(args) > c.MaxArgs) {
		fmt.Fprintf(s.Stderr, "\n%s\n", strings.TrimRight(c.usageText(), "\n"))
		fmt.Fprintf(s.Stderr, "ERROR (strode %s) %v: expected %s, got %d argument(s)\n", c.Name, ErrUsage, argCount(c.MinArgs, c.MaxArgs), len(args))
		return 1
	}
	if run == nil {
		fmt.Fprintf(s.Stderr, "ERROR (strode %s) command has no implementation\n", c.Name)
		return 1
	}
	ctx := &Context{Name: c.Name, Stdin: s.Stdin, Stdout: s.Stdout, Stderr: s.Stderr, args: append([]string(nil), args...)}
	return c.finish(run(ctx), s, fs)
}

// finish turns the run function's error into the exit status, printing it
// Kaldi's way.
func (c *Command) finish(err error, s Streams, fs *flag.FlagSet) int {
	if err == nil {
		return 0
	}
	errorf := func(err error) {
		fmt.Fprintf(s.Stderr, "ERROR (strode %s) %v\n", c.Name, err)
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.Err != nil {
			errorf(ee.Err)
		}
		return ee.Code
	}
	if errors.Is(err, ErrUsage) {
		if c.RawArgs {
			fmt.Fprintf(s.Stderr, "\n%s\n", strings.TrimRight(c.usageText(), "\n"))
		} else {
			c.WriteUsage(s.Stderr, fs)
		}
		errorf(err)
		return 1
	}
	errorf(err)
	return FailureStatus
}

// FailureStatus is the exit status of a command whose run fails: 255, as a
// Kaldi binary's main returns -1 after catching the KALDI_ERR exception.
// Usage errors exit 1, as Kaldi's PrintUsage-then-exit(1).
const FailureStatus = 255

func argCount(min, max int) string {
	switch {
	case max < 0:
		return fmt.Sprintf("at least %d argument(s)", min)
	case min == max:
		return fmt.Sprintf("%d argument(s)", min)
	default:
		return fmt.Sprintf("%d to %d arguments", min, max)
	}
}

// quoteArgs echoes the command line as Kaldi's --print-args does, quoting
// arguments that the shell would split.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"|;&<>()$`\\*?[]") {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		} else {
			q[i] = a
		}
	}
	return strings.Join(q, " ")
}
