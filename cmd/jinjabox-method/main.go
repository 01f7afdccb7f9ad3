// Command jinjabox-method runs methods for jinjabox: in process (exec) or
// on Temporal (run). It is jinjabox's companion executable: jinjabox runs
// it for `jinjabox exec` and `jinjabox run`, git- or cargo-style, so that
// jinjabox itself links no Temporal, gRPC, AWS or OpenAI package, whose
// package inits cost every render and check process tens of milliseconds
// of CPU (docs/COSTS.md). Install it beside jinjabox (make build), or
// with go install github.com/jinjabox/jinjabox/cmd/jinjabox-method@latest.
//
//	jinjabox exec [-L DIR]... [--models M.json] [--pipe PIPE] [--docs DIR] [--simulate] METHOD INPUTS.json
//	jinjabox run [-L DIR]... [--models M.json] [--pipe PIPE] [--id ID] [--execution-timeout D] [--timeout D] [activity options] METHOD INPUTS.json
//	jinjabox version
//	jinjabox help [COMMAND]
//
// jinjabox-method answers the same commands run directly (jinjabox-method
// exec ...). METHOD is a JSON bundle, a Pipelex .mthds/.plx file, or a
// directory holding bundle.mthds or a single .mthds. Exit status: 0 on
// success, 1 when the method fails, 2 on a usage or I/O error or a
// method path that names no bundle.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/jinjabox/jinjabox/cmd/internal/cli"
)

// commands are the commands run accepts. Usage lines name jinjabox, as
// users call exec and run through it.
var commands = &cli.CLI{
	Prog:  "jinjabox",
	Intro: "jinjabox-method runs methods for jinjabox (jinjabox exec, jinjabox run).",
	Outro: cli.MethodHelp + "\nRun \"jinjabox help COMMAND\" (or \"jinjabox COMMAND --help\") for a command's flags.\n",
	Commands: []cli.Command{
		cli.Exec,
		cli.Run,
		{Name: "version", Summary: "print the version"},
		{Name: "help", Synopsis: "[COMMAND]", Summary: "show this help, or a command's"},
	},
}

// usage is the help text: each command's line and what it does.
var usage = commands.Usage()

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status so tests
// can drive the command in-process. exec and run read no stdin.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "exec":
		return cmdExec(args[1:], stdout, stderr)
	case "run": // Temporal starter (run.go)
		return cmdRun(args[1:], stdout, stderr)
	case "version", "-V", "--version", "-version":
		fmt.Fprintln(stdout, cli.Version(cli.Companion))
		return 0
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[0] == "help" {
			if _, ok := commands.Lookup(args[1]); !ok || args[1] == "help" || args[1] == "version" {
				if !ok {
					fmt.Fprintf(stderr, "%s: unknown command %q\n%s", cli.Companion, args[1], usage)
					return 2
				}
				fmt.Fprint(stdout, usage)
				return 0
			}
			// a command's help is what its --help prints
			return run([]string{args[1], "--help"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "%s: unknown command %q\nRun 'jinjabox help' for the commands.\n", cli.Companion, args[0])
	return 2
}
