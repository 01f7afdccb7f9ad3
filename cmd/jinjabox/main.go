// Command jinjabox renders Jinja2 templates with the jinjabox engine, runs
// case corpora against it, and validates methods; it runs methods, in
// process or on Temporal, through its companion jinjabox-method.
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
// exec and run are commands of the companion executable jinjabox-method
// (cmd/jinjabox-method), git- or cargo-style: jinjabox runs the
// jinjabox-method next to its own executable, else the one on PATH, with
// the same arguments. jinjabox itself links no Temporal, gRPC, AWS or
// OpenAI package, whose package inits would cost every render and check
// process tens of milliseconds of CPU (docs/COSTS.md).
//
// METHOD and PATH are a JSON bundle, a Pipelex .mthds/.plx file, or a
// directory holding bundle.mthds or a single .mthds. Exit status: 0 on
// success, 1 when a render, a case or a method fails, 2 on a usage or
// I/O error, a method path that names no bundle, or exec or run without
// jinjabox-method installed.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/jinjabox/jinjabox/cmd/internal/cli"
)

// commands are the commands run accepts; exec and run (cli.Exec, cli.Run)
// are the companion's, listed here with the synopsis it parses.
var commands = &cli.CLI{
	Prog:  "jinjabox",
	Intro: "jinjabox renders untrusted Jinja2 templates under a work budget, and runs methods.",
	Outro: cli.MethodHelp + "\nexec and run are run by " + cli.Companion + ", installed beside jinjabox.\n" +
		"Run \"jinjabox help COMMAND\" (or \"jinjabox COMMAND --help\") for a command's flags.\n",
	Commands: []cli.Command{
		{Name: "render", Synopsis: "[flags] [TEMPLATE|-] [DATA|-]", Summary: "render a template to stdout (or --output FILE)", More: renderHelp},
		{Name: "check", Synopsis: "[--json] [--verbose] [--timeout D] FILE.jsonl...", Summary: "run corpus cases"},
		{Name: "validate", Synopsis: "[--json] [--allow-signatures] [--dry-run] [-L DIR]... [--models M.json] [--pipe PIPE] PATH...",
			Summary: "validate a method library: every pipe of the bundles PATH names and of the -L directories", More: cli.MethodHelp},
		{Name: "inputs", Synopsis: "[-L DIR]... [--pipe PIPE] [-o FILE] METHOD",
			Summary: "write an inputs file for a pipe, every input with example content (pipelex build inputs --explicit)", More: cli.MethodHelp},
		cli.Exec,
		cli.Run,
		{Name: "serve", Synopsis: "[--addr HOST:PORT] [service limits]",
			Summary: "serve the playground page and the JSON render API (POST /render, POST /check)", More: serveHelp},
		{Name: "version", Summary: "print the version"},
		{Name: "help", Synopsis: "[COMMAND]", Summary: "show this help, or a command's"},
	},
}

// usage is the help text: each command's line and what it does.
var usage = commands.Usage()

func main() {
	// Only the real process hands itself over to the companion:
	// run called in process (tests) starts it as a child instead.
	replaceProcess = true
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
	case "exec", "run": // jinjabox-method's (companion.go)
		return runCompanion(args, stdin, stdout, stderr)
	case "serve":
		return cmdServe(args[1:], stdout, stderr)
	case "version", "-V", "--version", "-version":
		fmt.Fprintln(stdout, cli.Version("jinjabox"))
		return 0
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[0] == "help" {
			if _, ok := commands.Lookup(args[1]); !ok || args[1] == "help" || args[1] == "version" {
				if !ok {
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
