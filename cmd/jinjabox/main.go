// Command jinjabox renders Jinja2 templates with the jinjabox engine and
// runs the shared case corpora against it.
//
//	jinjabox render [flags] TEMPLATE|- [DATA.json]
//	jinjabox check [--json] [--verbose] FILE.jsonl...
//	jinjabox validate [flags] PATH...
//	jinjabox exec [flags] METHOD INPUTS.json
//	jinjabox run [flags] METHOD INPUTS.json
//
// Exit status: 0 on success, 1 when a render, a case or a validation
// fails, 2 on a usage or I/O error or a method path that names no bundle.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

const usage = `usage:
  jinjabox render [flags] TEMPLATE|- [DATA.json]   render a template (- reads stdin)
  jinjabox check [--json] [--verbose] FILE.jsonl... run corpus cases
  jinjabox validate [-L DIR]... [--json] PATH...   validate a method library (files or directories)
  jinjabox exec [-L DIR]... METHOD INPUTS.json     run a method in process (local model)
  jinjabox run [-L DIR]... METHOD INPUTS.json      run a method on Temporal (RunMethodWorkflow)
  jinjabox help                                    show this help

run "jinjabox render -h" or "jinjabox check -h" for the flags.
`

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
