package kaldicmd

import (
	"fmt"
	"sort"

	"github.com/urfave/cli/v2"
)

// App is the `strode` binary: a set of Kaldi-style subcommands dispatched by
// urfave/cli. Each subcommand parses its own options (Kaldi's rules, not Go's).
type App struct {
	Name     string
	Usage    string
	Version  string
	commands []*Command
}

// Add registers subcommands; names must be unique.
func (a *App) Add(cmds ...*Command) {
	for _, c := range cmds {
		for _, old := range a.commands {
			if old.Name == c.Name {
				panic("kaldicmd: command registered twice: " + c.Name)
			}
		}
		a.commands = append(a.commands, c)
	}
}

// Commands returns the registered subcommands sorted by name.
func (a *App) Commands() []*Command {
	out := append([]*Command(nil), a.commands...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Run runs the binary with args (args[0] is the program name) and returns
// the exit status.
func (a *App) Run(args []string, s Streams) int {
	status := 0
	app := &cli.App{
		Name:            a.Name,
		Usage:           a.Usage,
		Version:         a.Version,
		UsageText:       a.Name + " <command> [options] <args>\n(run `" + a.Name + " <command> --help` for a command's options)",
		Reader:          s.Stdin,
		Writer:          s.Stdout,
		ErrWriter:       s.Stderr,
		HideHelpCommand: true,
		ExitErrHandler:  func(*cli.Context, error) {},
		CommandNotFound: func(c *cli.Context, name string) {
			fmt.Fprintf(s.Stderr, "ERROR (%s) unknown command %q; `%s --help` lists the commands\n", a.Name, name, a.Name)
			status = 1
		},
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			fmt.Fprintf(s.Stderr, "ERROR (%s) %v; `%s --help` lists the commands and options\n", a.Name, err, a.Name)
			status = 1
			return nil
		},
	}
	for _, c := range a.Commands() {
		c := c
		app.Commands = append(app.Commands, &cli.Command{
			Name:            c.Name,
			Usage:           c.Summary,
			SkipFlagParsing: true, // Kaldi's option rules, applied by Execute
			HideHelp:        true,
			Action: func(ctx *cli.Context) error {
				status = c.Execute(ctx.Args().Slice(), s)
				return nil
			},
		})
	}
	app.Action = func(ctx *cli.Context) error {
		if ctx.NArg() > 0 {
			app.CommandNotFound(ctx, ctx.Args().First())
			return nil
		}
		return cli.ShowAppHelp(ctx)
	}
	if err := app.Run(args); err != nil {
		fmt.Fprintf(s.Stderr, "ERROR (%s) %v\n", a.Name, err)
		if status == 0 {
			status = 1
		}
	}
	return status
}
