// Command jinjabox renders Jinja2 templates with the jinjabox engine, runs
// case corpora against it, and validates and runs methods, in process or
// on Temporal.
//
//	jinjabox render [flags] TEMPLATE|- [DATA.json]
//	jinjabox check [--json] [--verbose] [--timeout D] FILE.jsonl...
//	jinjabox validate [--json] [--allow-signatures] [-L DIR]... [--models M.json] [--pipe PIPE] PATH...
//	jinjabox exec [-L DIR]... [--models M.json] [--pipe PIPE] [--docs DIR] [--simulate] METHOD INPUTS.json
//	jinjabox run [-L DIR]... [--models M.json] [--pipe PIPE] [--id ID] [--execution-timeout D] [--timeout D] [activity options] METHOD INPUTS.json
//	jinjabox help
//
// METHOD and PATH are a JSON bundle, a Pipelex .mthds/.plx file, or a
// directory holding bundle.mthds or a single .mthds. Exit status: 0 on
// success, 1 when a render, a case or a method fails, 2 on a usage or
// I/O error or a method path that names no bundle.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// commands are the commands run accepts, with their synopsis and what
// they do: the usage text is built from this list, and each command
// prints its own line from it on a usage error.
var commands = []struct{ name, synopsis, summary string }{
	{"render", "[flags] TEMPLATE|- [DATA.json]", "render a template (- reads stdin)"},
	{"check", "[--json] [--verbose] [--timeout D] FILE.jsonl...", "run corpus cases"},
	{"validate", "[--json] [--allow-signatures] [-L DIR]... [--models M.json] [--pipe PIPE] PATH...", "validate a method library: every pipe of the bundles PATH names and of the -L directories"},
	{"exec", "[-L DIR]... [--models M.json] [--pipe PIPE] [--docs DIR] [--simulate] METHOD INPUTS.json", "run a method in process (local model by default)"},
	{"run", "[-L DIR]... [--models M.json] [--pipe PIPE] [--id ID] [--execution-timeout D] [--timeout D] [activity options] METHOD INPUTS.json", "run a method on Temporal (RunMethodWorkflow)"},
	{"help", "", "show this help"},
}

// usage is the help text: each command's line and what it does.
var usage = func() string {
	var sb strings.Builder
	sb.WriteString("usage:\n")
	for _, c := range commands {
		fmt.Fprintf(&sb, "  %s\n      %s\n", strings.TrimSpace("jinjabox "+c.name+" "+c.synopsis), c.summary)
	}
	sb.WriteString("\nMETHOD and PATH are a JSON bundle, a Pipelex .mthds/.plx file, or a directory\nholding bundle.mthds or a single .mthds.\n")
	sb.WriteString("Run \"jinjabox COMMAND -h\" for a command's flags.\n")
	return sb.String()
}()

// usageLine is one command's usage line, for its usage errors.
func usageLine(name string) string {
	for _, c := range commands {
		if c.name == name {
			return strings.TrimSpace("usage: jinjabox " + c.name + " " + c.synopsis)
		}
	}
	panic("no command " + name)
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status so tests
// can drive the command in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "render":
		return cmdRender(args[1:], stdin, stdout, stderr)
	case "check":
		return cmdCheck(args[1:], stdout, stderr)
	case "validate":
		return cmdValidate(args[1:], stdout, stderr)
	case "exec":
		return cmdExec(args[1:], stdout, stderr)
	case "run": // Temporal starter (run.go)
		return cmdRun(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "jinjabox: unknown command %q\n%s", args[0], usage)
	return 2
}

// parseInterspersed parses flags that may come before, between or after
// the positional arguments (as minijinja-cli allows), which the flag
// package alone does not: it stops at the first positional. A lone "-"
// is a positional (stdin); "--" ends flag parsing.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
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
