package kaldicmd

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// typeName names an option's type as Kaldi's usage text does.
func typeName(f *flag.Flag) string {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return "string"
	}
	switch g.Get().(type) {
	case bool:
		return "bool"
	case int, int32, int64:
		return "int"
	case uint, uint32, uint64:
		return "uint"
	case float32, float64:
		// Kaldi's BaseFloat options print as "float".
		return "float"
	default:
		return "string"
	}
}

func defaultText(f *flag.Flag) string {
	if typeName(f) == "string" {
		return fmt.Sprintf("%q", f.DefValue)
	}
	return f.DefValue
}

// writeOption prints one option line exactly as Kaldi's PrintUsage:
// "  --" + name padded to 25 + " : " + doc + " (type, default = value)".
func writeOption(w io.Writer, f *flag.Flag) {
	fmt.Fprintf(w, "  --%-25s : %s (%s, default = %s)\n", f.Name, f.Usage, typeName(f), defaultText(f))
}

// WriteUsage prints the command's usage in Kaldi's layout: the usage text,
// then its options sorted by name, then the standard options.
func (c *Command) WriteUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "\n%s\n", strings.TrimRight(c.usageText(), "\n"))
	var own, std []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if isStandard(f.Name) {
			std = append(std, f)
		} else {
			own = append(own, f)
		}
	})
	byName := func(s []*flag.Flag) {
		sort.Slice(s, func(i, j int) bool { return s[i].Name < s[j].Name })
	}
	byName(own)
	byName(std)
	if len(own) > 0 {
		fmt.Fprintln(w, "Options:")
		for _, f := range own {
			writeOption(w, f)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Standard options:")
	for _, f := range std {
		writeOption(w, f)
	}
	fmt.Fprintln(w)
}

// usageText is the Kaldi-style head of the usage message:
// what the command does, then "Usage: strode <cmd> [options] <args>", then examples.
func (c *Command) usageText() string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(c.Description))
	b.WriteString("\n")
	fmt.Fprintf(&b, "Usage: strode %s [options]", c.Name)
	if c.ArgsUsage != "" {
		b.WriteString(" " + c.ArgsUsage)
	}
	b.WriteString("\n")
	for _, e := range c.Examples {
		fmt.Fprintf(&b, "e.g.: %s\n", e)
	}
	return b.String()
}
