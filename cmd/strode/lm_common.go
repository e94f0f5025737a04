package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/strode-asr/strode/decoder/lm"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

// srilmOptions parses SRILM's command-line syntax (Opt_Parse): every
// option is a dash and its name ("-order 3", "-kndiscount"), the value in
// the next argument, booleans without one; a second dash is accepted too.
// There are no positional arguments. The options are defined on fs with
// the flag package's types. It returns help true for -help.
func srilmOptions(fs *flag.FlagSet, args []string) (help bool, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if !strings.HasPrefix(a, "-") || name == "" {
			return false, fmt.Errorf("%w: unexpected argument %q (options are written -name value)", kaldicmd.ErrUsage, a)
		}
		if name == "help" {
			return true, nil
		}
		f := fs.Lookup(name)
		if f == nil {
			return false, fmt.Errorf("%w: unknown option %s", kaldicmd.ErrUsage, a)
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			if err := f.Value.Set("true"); err != nil {
				return false, fmt.Errorf("%w: option %s: %v", kaldicmd.ErrUsage, a, err)
			}
			continue
		}
		if i+1 >= len(args) {
			return false, fmt.Errorf("%w: option %s needs a value", kaldicmd.ErrUsage, a)
		}
		i++
		if err := f.Value.Set(args[i]); err != nil {
			return false, fmt.Errorf("%w: option %s: bad value %q: %v", kaldicmd.ErrUsage, a, args[i], err)
		}
	}
	return false, nil
}

// writeSRILMUsage lists the options SRILM's way: "-name: help (default)".
func writeSRILMUsage(w io.Writer, description string, fs *flag.FlagSet) {
	fmt.Fprintf(w, "%s\nOptions:\n", strings.TrimSpace(description))
	var fl []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) { fl = append(fl, f) })
	sort.Slice(fl, func(i, j int) bool { return fl[i].Name < fl[j].Name })
	for _, f := range fl {
		def := ""
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			def = " (default " + f.DefValue + ")"
		}
		fmt.Fprintf(w, "  -%-18s %s%s\n", f.Name, f.Usage, def)
	}
}

// lmStreams are the command's standard streams, for the LM tools' "-".
func lmStreams(ctx *kaldicmd.Context) lm.Streams {
	return lm.Streams{Stdin: ctx.Stdin, Stdout: ctx.Stdout, Stderr: ctx.Stderr}
}
