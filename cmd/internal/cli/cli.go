// Package cli is what the two executables of the jinjabox CLI share:
// cmd/jinjabox (render, check, validate, inputs, serve) and its companion
// cmd/jinjabox-method (exec, run), which jinjabox runs for those two
// commands. The companion is separate so that jinjabox links no Temporal,
// gRPC, AWS or OpenAI package, whose inits cost every process tens of
// milliseconds of CPU (docs/COSTS.md); the command table, the flag
// parsing, the help and the method flags live here once, so the two
// answer alike.
//
// This package must stay as lean as cmd/jinjabox: it imports neither
// activities, workflows nor failure (testsuite.TestLeanCLIDependencies).
package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// Command is one command of a CLI: its name, its synopsis (the usage
// line after "jinjabox NAME"), what it does, and (More) the rest of its
// help, before its flags.
type Command struct{ Name, Synopsis, Summary, More string }

// CLI is an executable's command table. Its usage text is built from
// Commands, each command's help (-h, --help, help CMD) starts with its
// entry, and each prints its synopsis from it on a usage error. A command
// adds its flags to its own flag set (NewFlagSet); the help lists them.
type CLI struct {
	// Prog is the name usage lines give: "jinjabox" for both
	// executables, as users call exec and run through jinjabox.
	Prog string
	// Intro starts the usage text; Outro ends it.
	Intro, Outro string
	Commands     []Command
}

// Usage is the help text: each command's line and what it does.
func (c *CLI) Usage() string {
	var sb strings.Builder
	sb.WriteString(c.Intro + "\n\nusage:\n")
	for _, cmd := range c.Commands {
		fmt.Fprintf(&sb, "  %s\n      %s\n", strings.TrimSpace(c.Prog+" "+cmd.Name+" "+cmd.Synopsis), cmd.Summary)
	}
	sb.WriteString("\n" + c.Outro)
	return sb.String()
}

// Lookup returns the command name names, if it is one of Commands.
func (c *CLI) Lookup(name string) (Command, bool) {
	for _, cmd := range c.Commands {
		if cmd.Name == name {
			return cmd, true
		}
	}
	return Command{}, false
}

// UsageLine is one command's usage line, for its usage errors and the
// first line of its help. It panics on a name that is no command: that
// is a bug of the caller.
func (c *CLI) UsageLine(name string) string {
	cmd, ok := c.Lookup(name)
	if !ok {
		panic("no command " + name)
	}
	return strings.TrimSpace("usage: " + c.Prog + " " + cmd.Name + " " + cmd.Synopsis)
}

// NewFlagSet returns the flag set of a command: its parse errors are
// reported by ParseFlags in two lines (the flag package's own report
// prints every flag, 36 lines for render), its help by CommandHelp.
func NewFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// ParseFlags parses a command's arguments, flags anywhere among the
// positionals (ParseInterspersed). It returns the positionals and ok;
// when not ok the command returns status: 0 after -h/--help (the help on
// stdout), 2 after a usage error (two lines on stderr: the error and
// where the help is).
func (c *CLI) ParseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (pos []string, status int, ok bool) {
	pos, err := ParseInterspersed(fs, args)
	if err == nil {
		return pos, 0, true
	}
	if errors.Is(err, flag.ErrHelp) {
		c.CommandHelp(stdout, fs)
		return nil, 0, false
	}
	c.UsageError(stderr, fs.Name(), err.Error())
	return nil, 2, false
}

// UsageError reports a command's usage error: what is wrong, its
// synopsis, and where its help is.
func (c *CLI) UsageError(w io.Writer, cmd, msg string) {
	msg = strings.Replace(msg, "flag provided but not defined: -", "unknown flag: --", 1)
	fmt.Fprintf(w, "%s %s: %s\n%s\nRun '%s help %s' for the flags.\n", c.Prog, cmd, msg, c.UsageLine(cmd), c.Prog, cmd)
}

// CommandHelp writes a command's help: its synopsis, what it does, and
// its flags (fs's), each with its double-dash name (single-letter flags
// with one dash), its value's type and its default.
func (c *CLI) CommandHelp(w io.Writer, fs *flag.FlagSet) {
	c.CommandSummary(w, fs.Name())
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return
	}
	fmt.Fprintln(w, "\nflags:")
	fs.VisitAll(func(f *flag.Flag) {
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		typ, usage := flag.UnquoteUsage(f)
		line := "  " + dash + f.Name
		if typ != "" {
			line += " " + typ
		}
		fmt.Fprintln(w, line)
		fmt.Fprintf(w, "      %s", strings.ReplaceAll(usage, "\n", "\n      "))
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" && f.DefValue != "0s" {
			fmt.Fprintf(w, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
}

// CommandSummary writes the start of a command's help, what CommandHelp
// writes before the flags: its usage line, what it does and the rest.
func (c *CLI) CommandSummary(w io.Writer, name string) {
	fmt.Fprintln(w, c.UsageLine(name))
	cmd, _ := c.Lookup(name)
	fmt.Fprintf(w, "\n%s\n", cmd.Summary)
	if cmd.More != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(cmd.More))
	}
}

// ParseInterspersed parses flags that may come before, between or after
// the positional arguments (as minijinja-cli allows), which the flag
// package alone does not: it stops at the first positional. A lone "-"
// is a positional (stdin); "--" ends flag parsing.
func ParseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// fs.Parse consumed a "--" terminator if it saw one: then
		// everything left is positional.
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// Version is the module's version and VCS revision as the build recorded
// them (debug.ReadBuildInfo), after prog: "(devel)" and the commit for a
// build from a clone.
func Version(prog string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return prog + " (unknown version)"
	}
	v := prog + " " + bi.Main.Version
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev != "" {
		v += " " + rev[:min(12, len(rev))] + dirty
	}
	return v + " " + bi.GoVersion
}

// MarshalNoEscape is json.Marshal without HTML escaping: the CLI's
// reports print <, > and & as themselves.
func MarshalNoEscape(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	err := enc.Encode(v)
	return buf.Bytes(), err
}

// WriteFileAtomic writes s to path through a temporary file in the same
// directory renamed over it: a reader never sees half an output, and a
// failed write leaves what was there.
func WriteFileAtomic(path, s string) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = io.WriteString(f, s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
