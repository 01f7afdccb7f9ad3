package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/cmd/internal/cli"
	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/syntax"
	"github.com/jinjabox/jinjabox/internal/dataformat"
)

// maxInput bounds what the CLI reads for a template or data file. The
// engine enforces its own source limit; this only keeps a mistaken
// argument (a device, a huge file) from being slurped whole.
const maxInput = 256 << 20

// renderHelp is the rest of render's help.
const renderHelp = `TEMPLATE is a file, or - for stdin (the default when neither TEMPLATE nor
--template is given). DATA is a JSON, YAML or TOML object, by extension or
--format, or - for stdin (JSON unless --format says otherwise); only one of
the two can be stdin. With --template, the positional is DATA. --define
sets names after the data file. The output ends in a newline
(--no-newline: none) and is written only when the render succeeds.

examples:
  jinjabox render hello.j2 hello.json
  jinjabox render -t 'Hello {{ name }}!' -D name=World
  jinjabox render -D 'items:=[1, 2]' -t '{{ items | sum }}'
  curl -s https://example.com/data.yaml | jinjabox render --format yaml page.j2 -
  jinjabox render --templates ./templates page.j2 data.toml -o page.html

With --pipelex CATEGORY the template renders as a Pipelex pipe's template
would (llm_prompt: a PipeLLM prompt; img_gen_prompt; basic, markdown, html,
mermaid: a PipeCompose template): $sigils and @sigils expand, the category
sets escaping and whitespace and adds its filters (tag, format,
with_images, markdown, ...), --tag-style and --text-format drive tag and
format, and DATA is an inputs file (JSON: name to {"concept", "content"}, a
bare string is Text), its concepts resolved in the domain of --method.

  jinjabox render --pipelex llm_prompt prompt.j2 inputs.json
  jinjabox render --pipelex llm_prompt --method support.mthds -t 'Reply to @ticket' inputs.json`

func cmdRender(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := cli.NewFlagSet("render")
	var (
		o          engine.Options
		l          budget.Limits
		defines    defineFlag
		inline     string
		outPath    string
		format     string
		noNewline  bool
		delims     = fs.String("delimiters", "jinja", "delimiter set: jinja ({{ }}) or nunjitsu (${{ }})")
		name       = fs.String("name", "", "template name used in errors (default: the file name, <stdin> or <string>)")
		tplDir     = fs.String("templates", "", "directory of trusted templates for include/import/extends, by relative path")
		showUnits  = fs.Bool("units", false, "print the work units spent to stderr")
		budgetFlag = fs.Int64("budget", 0, "work-unit budget for the render (0: default 134217728)")
		px         pipelexFlags
	)
	px.register(fs)
	fs.StringVar(&inline, "t", "", "render this template string (same as --template)")
	fs.StringVar(&inline, "template", "", "render this template string instead of a file")
	fs.Var(&defines, "D", "define a name: KEY=VALUE (a string) or KEY:=JSON (same as --define; repeatable)")
	fs.Var(&defines, "define", "define a name: KEY=VALUE (a string) or KEY:=JSON (repeatable)")
	fs.StringVar(&format, "format", "auto", "the data's format: auto (by extension), json, yaml or toml")
	fs.StringVar(&format, "f", "auto", "same as --format")
	fs.StringVar(&outPath, "o", "", "same as --output")
	fs.StringVar(&outPath, "output", "", "write the output to `FILE` (only when the render succeeds) instead of stdout")
	fs.BoolVar(&noNewline, "n", false, "same as --no-newline")
	fs.BoolVar(&noNewline, "no-newline", false, "do not end the output with a newline")
	fs.BoolVar(&o.Autoescape, "autoescape", false, "HTML-escape printed values")
	fs.BoolVar(&o.TrimBlocks, "trim-blocks", false, "remove the first newline after a block tag")
	fs.BoolVar(&o.LstripBlocks, "lstrip-blocks", false, "strip whitespace before a block tag on its line")
	fs.BoolVar(&o.KeepTrailingNewline, "keep-trailing-newline", false, "keep the template's final newline")
	fs.BoolVar(&o.StrictUndefined, "strict-undefined", false, "printing, iterating or testing undefined is an error")
	fs.BoolVar(&o.Regex, "regex", false, "enable regex_search, regex_replace, regex_findall and regex_escape (RE2 syntax)")
	fs.Uint64Var(&o.Seed, "seed", 0, "seed of the deterministic generator behind random and lipsum")
	fs.Int64Var(&l.SourceBytes, "max-source-bytes", 0, "source size limit (0: default)")
	fs.Int64Var(&l.ASTNodes, "max-ast-nodes", 0, "syntax tree size limit (0: default)")
	fs.Int64Var(&l.NestingDepth, "max-nesting-depth", 0, "parse and render depth limit (0: default)")
	fs.Int64Var(&l.OutputBytes, "max-output-bytes", 0, "output size limit in UTF-8 bytes (0: default)")
	fs.Int64Var(&l.ScratchBytes, "max-scratch-bytes", 0, "scratch memory limit (0: default)")
	fs.Int64Var(&l.CapabilityCalls, "max-capability-calls", 0, "capability call limit (0: default)")
	pos, status, ok := commands.ParseFlags(fs, args, stdout, stderr)
	if !ok {
		return status
	}
	inlineSet := false
	fs.Visit(func(f *flag.Flag) { inlineSet = inlineSet || f.Name == "t" || f.Name == "template" })
	tplArg, dataArg := "-", ""
	switch {
	case inlineSet && len(pos) <= 1:
		tplArg = ""
		if len(pos) == 1 {
			dataArg = pos[0]
		}
	case !inlineSet && len(pos) <= 2:
		if len(pos) >= 1 {
			tplArg = pos[0]
		}
		if len(pos) == 2 {
			dataArg = pos[1]
		}
	default:
		commands.UsageError(stderr, "render", "too many arguments")
		return 2
	}
	if tplArg == "-" && dataArg == "-" {
		commands.UsageError(stderr, "render", "the template and the data cannot both be read from stdin")
		return 2
	}
	l.WorkUnits = *budgetFlag
	if err := checkLimits(l); err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	switch *delims {
	case "jinja":
		o.Delimiters = syntax.DefaultDelimiters
	case "nunjitsu":
		o.Delimiters = syntax.NunjitsuDelimiters
	default:
		fmt.Fprintf(stderr, "jinjabox: unknown --delimiters %q (want jinja or nunjitsu)\n", *delims)
		return 2
	}
	// The limits apply to the whole render (parse included) through the
	// environment defaults; RenderString charges both to one meter.
	o.Limits = l

	src, tname := inline, "<string>"
	if !inlineSet {
		var err error
		if src, tname, err = readTemplate(tplArg, stdin); err != nil {
			fmt.Fprintln(stderr, "jinjabox:", err)
			return 2
		}
	}
	if *name != "" {
		tname = *name
	}
	if px.category != "" {
		if len(defines) > 0 || *tplDir != "" {
			commands.UsageError(stderr, "render", "--pipelex takes its inputs from DATA: --define and --templates do not apply")
			return 2
		}
		return px.render(src, dataArg, stdin, stdout, stderr, outPath, noNewline)
	}
	data := map[string]any{}
	if dataArg != "" {
		f, err := dataformat.FormatOf(format, dataArg)
		if err != nil {
			fmt.Fprintln(stderr, "jinjabox:", err)
			return 2
		}
		raw, err := readData(dataArg, stdin)
		if err != nil {
			fmt.Fprintln(stderr, "jinjabox:", err)
			return 2
		}
		if data, err = dataformat.Decode(raw, f); err != nil {
			fmt.Fprintf(stderr, "jinjabox: %s (%s): %v\n", dataArg, f, err)
			return 2
		}
	} else if format != "auto" {
		if _, err := dataformat.FormatOf(format, "-"); err != nil {
			fmt.Fprintln(stderr, "jinjabox:", err)
			return 2
		}
	}
	if err := defines.apply(data); err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	if *tplDir != "" {
		var err error
		if o.Templates, err = loadTemplates(*tplDir); err != nil {
			fmt.Fprintln(stderr, "jinjabox:", err)
			return 2
		}
	}
	env, err := engine.NewEnvironment(o)
	if err != nil {
		printError(stderr, err, tname, src, o.Templates)
		return 1
	}
	res, err := env.RenderString(tname, src, data, engine.RenderOptions{Limits: l})
	if err != nil {
		// Never print partial output: a refusal yields nothing.
		printError(stderr, err, tname, src, o.Templates)
		if *tplDir == "" && strings.Contains(err.Error(), "template not found") {
			fmt.Fprintln(stderr, "hint: include, import and extends read the trusted templates of --templates DIR; none were given")
		}
		return 1
	}
	out := res.Output
	if !noNewline {
		out += "\n"
	}
	if outPath != "" {
		err = cli.WriteFileAtomic(outPath, out)
	} else {
		_, err = io.WriteString(stdout, out)
	}
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	if *showUnits {
		fmt.Fprintf(stderr, "units: %d\n", res.Units)
	}
	return 0
}

func checkLimits(l budget.Limits) error {
	for _, v := range []int64{l.WorkUnits, l.SourceBytes, l.ASTNodes, l.NestingDepth, l.OutputBytes, l.ScratchBytes, l.CapabilityCalls} {
		if v < 0 {
			return errors.New("limits must not be negative")
		}
	}
	return nil
}

// readData reads a data file, or stdin for "-".
func readData(arg string, stdin io.Reader) ([]byte, error) {
	if arg == "-" {
		return readStdin(stdin)
	}
	return readFile(arg)
}

func readTemplate(arg string, stdin io.Reader) (src, name string, err error) {
	if arg == "-" {
		b, err := readStdin(stdin)
		return string(b), "<stdin>", err
	}
	b, err := readFile(arg)
	return string(b), filepath.Base(arg), err
}

func readStdin(stdin io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(stdin, maxInput+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxInput {
		return nil, fmt.Errorf("stdin: more than %d bytes", maxInput)
	}
	return b, nil
}

func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxInput+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxInput {
		return nil, fmt.Errorf("%s: more than %d bytes", path, maxInput)
	}
	return b, nil
}

// loadTemplates reads every regular file under dir into a name -> source
// map keyed by slash-separated relative path, as include names are.
func loadTemplates(dir string) (map[string]string, error) {
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		b, err := readFile(p)
		if err != nil {
			return err
		}
		m[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	return m, err
}

// printError writes an engine error as kind, position, message and a
// caret excerpt of the source line, like a compiler diagnostic:
//
//	error: syntax error in t.j2:1:8: unexpected end of template
//	  --> t.j2:1:8
//	   |
//	 1 | {{ a + }}
//	   |        ^
func printError(w io.Writer, err error, name, src string, templates map[string]string) {
	var e *engine.Error
	if !errors.As(err, &e) {
		fmt.Fprintf(w, "error: %s\n", engine.Sanitize(err.Error()))
		return
	}
	fmt.Fprintf(w, "error: %s\n", engine.Sanitize(e.Error()))
	line, col := e.Line, e.Col
	if line <= 0 && e.Offset >= 0 && e.Offset <= len(src) {
		line, col = engine.LineCol(src, e.Offset)
	}
	// An error inside an included template carries that template's name:
	// excerpt its source, or print only the position when it is unknown.
	if e.Name != "" && e.Name != name {
		other, ok := templates[e.Name]
		if !ok {
			return
		}
		name, src = e.Name, other
		if e.Line <= 0 {
			return // the offset refers to the other source; no line known
		}
	}
	if line <= 0 {
		return
	}
	fmt.Fprint(w, engine.Excerpt(name, src, line, col))
}
