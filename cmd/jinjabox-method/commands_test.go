package main

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
)

// dispatched returns the command names run's switch accepts, read from
// main.go's source so a command added there cannot escape the checks
// below. Flag-style aliases of help (-h, --help) are left out.
func dispatched(t *testing.T) []string {
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

// TestEveryCommandDocumented: the commands run accepts are exactly the
// listed ones, and each is in the usage text, in the package doc comment
// with its synopsis, and in the README; each prints its own usage line
// when called without arguments. jinjabox lists exec and run with the
// same synopses (cli.Exec, cli.Run; cmd/jinjabox's test of the same name).
func TestEveryCommandDocumented(t *testing.T) {
	var listed []string
	for _, c := range commands.Commands {
		listed = append(listed, c.Name)
	}
	slices.Sort(listed)
	if got := dispatched(t); !slices.Equal(got, listed) {
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
	for _, c := range commands.Commands {
		line := strings.TrimSpace("jinjabox " + c.Name + " " + c.Synopsis)
		if !strings.Contains(usage, line+"\n") {
			t.Errorf("usage text lacks %q", line)
		}
		if !strings.Contains(doc, "//\t"+line+"\n") {
			t.Errorf("package doc comment lacks %q", line)
		}
		if !regexp.MustCompile(`jinjabox ` + c.Name + `\b`).Match(readme) {
			t.Errorf("README.md never shows `jinjabox %s`", c.Name)
		}
		if c.Name == "help" {
			if code, out, _ := runCLI(t, "help"); code != 0 || out != usage {
				t.Errorf("help: code %d, output %q", code, out)
			}
			continue
		}
		if c.Name == "version" {
			if code, out, _ := runCLI(t, "--version"); code != 0 || !strings.HasPrefix(out, "jinjabox-method ") {
				t.Errorf("--version: code %d, output %q", code, out)
			}
			continue
		}
		// -h, --help and help CMD: the command's help on stdout, exit 0
		for _, args := range [][]string{{c.Name, "-h"}, {c.Name, "--help"}, {"help", c.Name}} {
			code, out, _ := runCLI(t, args...)
			if code != 0 || !strings.HasPrefix(out, commands.UsageLine(c.Name)+"\n") || strings.Contains(out, "\n  -budget") {
				t.Errorf("%v: code %d, stdout %.200q; want 0 and %q first, double-dash flags", args, code, out, commands.UsageLine(c.Name))
			}
		}
		// an unknown flag: three short lines, exit 2
		code, _, errOut := runCLI(t, c.Name, "--no-such-flag")
		if lines := strings.Count(errOut, "\n"); code != 2 || lines != 3 ||
			!strings.HasPrefix(errOut, "jinjabox "+c.Name+": unknown flag: --no-such-flag\n"+commands.UsageLine(c.Name)+"\n") {
			t.Errorf("%s --no-such-flag: code %d, stderr %q", c.Name, code, errOut)
		}
	}
}
