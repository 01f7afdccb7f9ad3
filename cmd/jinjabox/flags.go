package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// newFlagSet returns the flag set of a command: its parse errors are
// reported by parseFlags in two lines (the flag package's own report
// prints every flag, 36 lines for render), its help by commandHelp.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses a command's arguments, flags anywhere among the
// positionals (parseInterspersed). It returns the positionals and ok;
// when not ok the command returns status: 0 after -h/--help (the help on
// stdout), 2 after a usage error (two lines on stderr: the error and
// where the help is).
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (pos []string, status int, ok bool) {
	pos, err := parseInterspersed(fs, args)
	if err == nil {
		return pos, 0, true
	}
	if errors.Is(err, flag.ErrHelp) {
		commandHelp(stdout, fs)
		return nil, 0, false
	}
	usageError(stderr, fs.Name(), err.Error())
	return nil, 2, false
}

// usageError reports a command's usage error: what is wrong, its
// synopsis, and where its help is.
func usageError(w io.Writer, cmd, msg string) {
	msg = strings.Replace(msg, "flag provided but not defined: -", "unknown flag: --", 1)
	fmt.Fprintf(w, "jinjabox %s: %s\n%s\nRun 'jinjabox help %s' for the flags.\n", cmd, msg, usageLine(cmd), cmd)
}

// commandHelp writes a command's help: its synopsis, what it does, and
// its flags, each with its double-dash name (single-letter flags with
// one dash), its value's type and its default.
func commandHelp(w io.Writer, fs *flag.FlagSet) {
	name := fs.Name()
	fmt.Fprintln(w, usageLine(name))
	for _, c := range commands {
		if c.name == name {
			fmt.Fprintf(w, "\n%s\n", c.summary)
			if c.more != "" {
				fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.more))
			}
		}
	}
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

// version is the module's version and VCS revision as the build recorded
// them (debug.ReadBuildInfo): "(devel)" and the commit for a build from a
// clone.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "jinjabox (unknown version)"
	}
	v := "jinjabox " + bi.Main.Version
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
