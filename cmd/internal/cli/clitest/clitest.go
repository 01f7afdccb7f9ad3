// Package clitest holds the checks both executables of the CLI
// (cmd/jinjabox, cmd/jinjabox-method) run on their command tables, once
// for both: every command documented, and each answering -h, --help,
// help CMD and an unknown flag alike.
package clitest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/cmd/internal/cli"
)

// Run drives an executable in process: its exit status, stdout and
// stderr for args.
type Run func(args ...string) (code int, stdout, stderr string)

// Dispatched returns the command names the function run of the package's
// main.go accepts in its switch, read from the source so that a command
// added there cannot escape EveryCommandDocumented. Flag-style aliases
// of help (-h, --help) are left out.
func Dispatched(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "run" {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			cc, ok := n.(*ast.CaseClause)
			if !ok {
				return true
			}
			for _, e := range cc.List {
				lit, ok := e.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				s, _ := strconv.Unquote(lit.Value)
				if !strings.HasPrefix(s, "-") {
					names = append(names, s)
				}
			}
			return true
		})
	}
	if len(names) == 0 {
		t.Fatal("no command cases found in run")
	}
	slices.Sort(names)
	return names
}

// EveryCommandDocumented checks, from the package directory of a main
// package: the commands its run accepts are exactly c's, and each is in
// the usage text, in the package doc comment with its synopsis, and in
// the README; help prints the usage, --version starts with version; and
// each other command prints its own help (usage line first) for -h,
// --help and help CMD, and three short lines, exit 2, for an unknown
// flag. Commands in elsewhere are run by another executable: only their
// listing and their help's first line are checked here.
func EveryCommandDocumented(t *testing.T, c *cli.CLI, run Run, version string, elsewhere ...string) {
	t.Helper()
	var listed []string
	for _, cmd := range c.Commands {
		listed = append(listed, cmd.Name)
	}
	slices.Sort(listed)
	if got := Dispatched(t); !slices.Equal(got, listed) {
		t.Fatalf("run accepts %v, the commands list has %v", got, listed)
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, _, _ := strings.Cut(string(src), "\npackage main")
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	usage := c.Usage()
	for _, cmd := range c.Commands {
		line := strings.TrimSpace(c.Prog + " " + cmd.Name + " " + cmd.Synopsis)
		if !strings.Contains(usage, line+"\n") {
			t.Errorf("usage text lacks %q", line)
		}
		if !strings.Contains(doc, "//\t"+line+"\n") {
			t.Errorf("package doc comment lacks %q", line)
		}
		if !regexp.MustCompile(`jinjabox ` + cmd.Name + `\b`).Match(readme) {
			t.Errorf("README.md never shows `jinjabox %s`", cmd.Name)
		}
		switch cmd.Name {
		case "help":
			if code, out, _ := run("help"); code != 0 || out != usage {
				t.Errorf("help: code %d, output %q", code, out)
			}
			continue
		case "version":
			if code, out, _ := run("--version"); code != 0 || !strings.HasPrefix(out, version+" ") {
				t.Errorf("--version: code %d, output %q", code, out)
			}
			continue
		}
		// -h, --help and help CMD: the command's help on stdout, exit 0
		for _, args := range [][]string{{cmd.Name, "-h"}, {cmd.Name, "--help"}, {"help", cmd.Name}} {
			code, out, _ := run(args...)
			if code != 0 || !strings.HasPrefix(out, c.UsageLine(cmd.Name)+"\n") || strings.Contains(out, "\n  -budget") {
				t.Errorf("%v: code %d, stdout %.200q; want 0 and %q first, double-dash flags", args, code, out, c.UsageLine(cmd.Name))
			}
		}
		if slices.Contains(elsewhere, cmd.Name) {
			continue
		}
		// an unknown flag: three short lines, exit 2
		code, _, errOut := run(cmd.Name, "--no-such-flag")
		if lines := strings.Count(errOut, "\n"); code != 2 || lines != 3 ||
			!strings.HasPrefix(errOut, c.Prog+" "+cmd.Name+": unknown flag: --no-such-flag\n"+c.UsageLine(cmd.Name)+"\n") {
			t.Errorf("%s --no-such-flag: code %d, stderr %q", cmd.Name, code, errOut)
		}
	}
}
