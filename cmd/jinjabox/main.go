// Command jinjabox renders Jinja2 templates with the jinjabox engine, runs
// case corpora against it, and validates and runs methods, in process or
// on Temporal.
//
//	jinjabox render [flags] [TEMPLATE|-] [DATA|-]
//	jinjabox render -t 'Hello {{ name }}' -D name=World
//	jinjabox check [--json] [--verbose] [--timeout D] FILE.jsonl...
//	jinjabox validate [--json] [--allow-signatures] [--dry-run] [-L DIR]... [--models M.json] [--pipe PIPE] PATH...
//	jinjabox inputs [-L DIR]... [--pipe PIPE] [-o FILE] METHOD
//	jinjabox exec [-L DIR]... [--models M.json] [--pipe PIPE] [--docs DIR] [--simulate] METHOD INPUTS.json
//	jinjabox run [-L DIR]... [--models M.json] [--pipe PIPE] [--id ID] [--execution-timeout D] [--timeout D] [activity options] METHOD INPUTS.json
//	jinjabox serve [--addr HOST:PORT] [service limits]
//	jinjabox version
//	jinjabox help [COMMAND]
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

// commands are the commands run accepts, with their synopsis, what they
// do and (more) the rest of their help: the usage text is built from this
// list, each command's help (-h, --help, help CMD) starts with its entry,
// and each prints its synopsis from it on a usage error. A command adds
// its flags to its own flag set (newFlagSet); the help lists them.
var commands = []struct{ name, synopsis, summary, more string }{
	{"render", "[flags] [TEMPLATE|-] [DATA|-]", "render a template to stdout (or --output FILE)", renderHelp},
	{"check", "[--json] [--verbose] [--timeout D] FILE.jsonl...", "run corpus cases", ""},
	{"validate", "[--json] [--allow-signatures] [--dry-run] [-L DIR]... [--models M.json] [--pipe PIPE] PATH...", "validate a method library: every pipe of the bundles PATH names and of the -L directories", methodHelp},
	{"inputs", "[-L DIR]... [--pipe PIPE] [-o FILE] METHOD", "write an inputs file for a pipe, every input with example content (pipelex build inputs --explicit)", methodHelp},
	{"exec", "[-L DIR]... [--models M.json] [--pipe PIPE] [--docs DIR] [--simulate] METHOD INPUTS.json", "run a method in process (local model by default)", methodHelp},
	{"run", "[-L DIR]... [--models M.json] [--pipe PIPE] [--id ID] [--execution-timeout D] [--timeout D] [activity options] METHOD INPUTS.json", "run a method on Temporal (RunMethodWorkflow)", methodHelp},
	{"serve", "[--addr HOST:PORT] [service limits]", "serve the playground page and the JSON render API (POST /render, POST /check)", serveHelp},
	{"version", "", "print the version", ""},
	{"help", "[COMMAND]", "show this help, or a command's", ""},
}

// methodHelp is the help validate, exec and run share.
const methodHelp = `METHOD and PATH are a JSON bundle, a Pipelex .mthds/.plx file, or a directory
holding bundle.mthds or a single .mthds.`

// usage is the help text: each command's line and what it does.
var usage = func() string {
	var sb strings.Builder
	sb.WriteString("jinjabox renders untrusted Jinja2 templates under a work budget, and runs methods.\n\nusage:\n")
	for _, c := range commands {
		fmt.Fprintf(&sb, "  %s\n      %s\n", strings.TrimSpace("jinjabox "+c.name+" "+c.synopsis), c.summary)
	}
	sb.WriteString("\n" + methodHelp + "\n")
	sb.WriteString("Run \"jinjabox help COMMAND\" (or \"jinjabox COMMAND --help\") for a command's flags.\n")
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
	case "inputs":
		return cmdInputs(args[1:], stdout, stderr)
	case "exec":
		return cmdExec(args[1:], stdout, stderr)
	case "run": // Temporal starter (run.go)
		return cmdRun(args[1:], stdout, stderr)
	case "serve":
		return cmdServe(args[1:], stdout, stderr)
	case "version", "-V", "--version", "-version":
		fmt.Fprintln(stdout, version())
		return 0
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[0] == "help" {
			if !isCommand(args[1]) || args[1] == "help" || args[1] == "version" {
				if !isCommand(args[1]) {
					fmt.Fprintf(stderr, "jinjabox: unknown command %q\n%s", args[1], usage)
					return 2
				}
				fmt.Fprint(stdout, usage)
				return 0
			}
			// a command's help is what its --help prints
			return run([]string{args[1], "--help"}, stdin, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "jinjabox: unknown command %q\nRun 'jinjabox help' for the commands.\n", args[0])
	return 2
}

// isCommand reports whether name is one of commands.
func isCommand(name string) bool {
	for _, c := range commands {
		if c.name == name {
			return true
		}
	}
	return false
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
