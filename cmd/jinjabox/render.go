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
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/errs"
	"github.com/jinjabox/jinjabox/engine/syntax"
	"github.com/jinjabox/jinjabox/internal/casecheck"
)

// maxInput bounds what the CLI reads for a template or data file. The
// engine enforces its own source limit; this only keeps a mistaken
// argument (a device, a huge file) from being slurped whole.
const maxInput = 256 << 20

func cmdRender(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		o          engine.Options
		l          budget.Limits
		delims     = fs.String("delimiters", "jinja", "delimiter set: jinja ({{ }}) or nunjitsu (${{ }})")
		name       = fs.String("name", "", "template name used in errors (default: the file name, or <stdin>)")
		tplDir     = fs.String("templates", "", "directory of trusted templates for include/import/extends, by relative path")
		showUnits  = fs.Bool("units", false, "print the work units spent to stderr")
		budgetFlag = fs.Int64("budget", 0, "work-unit budget for the render (0: default 134217728)")
	)
	fs.BoolVar(&o.Autoescape, "autoescape", false, "HTML-escape printed values")
	fs.BoolVar(&o.TrimBlocks, "trim-blocks", false, "remove the first newline after a block tag")
	fs.BoolVar(&o.LstripBlocks, "lstrip-blocks", false, "strip whitespace before a block tag on its line")
	fs.BoolVar(&o.KeepTrailingNewline, "keep-trailing-newline", false, "keep the template's final newline")
	fs.BoolVar(&o.StrictUndefined, "strict-undefined", false, "printing, iterating or testing undefined is an error")
	fs.Uint64Var(&o.Seed, "seed", 0, "seed of the deterministic generator behind random and lipsum")
	fs.Int64Var(&l.SourceBytes, "max-source-bytes", 0, "source size limit (0: default)")
	fs.Int64Var(&l.ASTNodes, "max-ast-nodes", 0, "syntax tree size limit (0: default)")
	fs.Int64Var(&l.NestingDepth, "max-nesting-depth", 0, "parse and render depth limit (0: default)")
	fs.Int64Var(&l.OutputBytes, "max-output-bytes", 0, "output size limit in UTF-8 bytes (0: default)")
	fs.Int64Var(&l.ScratchBytes, "max-scratch-bytes", 0, "scratch memory limit (0: default)")
	fs.Int64Var(&l.CapabilityCalls, "max-capability-calls", 0, "capability call limit (0: default)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, usageLine("render"))
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if len(pos) < 1 || len(pos) > 2 {
		fs.Usage()
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

	src, tname, err := readTemplate(pos[0], stdin)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	if *name != "" {
		tname = *name
	}
	data := map[string]any{}
	if len(pos) == 2 {
		raw, err := readFile(pos[1])
		if err != nil {
			fmt.Fprintln(stderr, "jinjabox:", err)
			return 2
		}
		if data, err = casecheck.DecodeObject(raw); err != nil {
			fmt.Fprintf(stderr, "jinjabox: %s: %v\n", pos[1], err)
			return 2
		}
	}
	if *tplDir != "" {
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
		return 1
	}
	if _, err := io.WriteString(stdout, res.Output); err != nil {
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

func readTemplate(arg string, stdin io.Reader) (src, name string, err error) {
	if arg == "-" {
		b, err := io.ReadAll(io.LimitReader(stdin, maxInput+1))
		if err != nil {
			return "", "", err
		}
		if len(b) > maxInput {
			return "", "", fmt.Errorf("stdin: more than %d bytes", maxInput)
		}
		return string(b), "<stdin>", nil
	}
	b, err := readFile(arg)
	return string(b), filepath.Base(arg), err
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
		fmt.Fprintf(w, "error: %s\n", sanitize(err.Error()))
		return
	}
	fmt.Fprintf(w, "error: %s\n", sanitize(e.Error()))
	line, col := e.Line, e.Col
	if line <= 0 && e.Offset >= 0 && e.Offset <= len(src) {
		line, col = errs.LineCol(src, e.Offset)
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
	text, ok := sourceLine(src, line)
	if !ok {
		return
	}
	fmt.Fprint(w, caret(name, line, col, text))
}

// sourceLine returns line n (1-based) of src without its terminator.
func sourceLine(src string, n int) (string, bool) {
	for i := 1; ; i++ {
		j := strings.IndexByte(src, '\n')
		if i == n {
			if j >= 0 {
				src = src[:j]
			}
			return strings.TrimSuffix(src, "\r"), true
		}
		if j < 0 {
			return "", false
		}
		src = src[j+1:]
	}
}

// excerptWidth bounds the excerpt: a minified template can have one huge
// line and the diagnostic must stay readable (and bounded).
const excerptWidth = 100

// caret renders the excerpt block. col counts code points, as errs.LineCol
// does; tabs are kept in the caret's padding so it lines up in a terminal.
func caret(name string, line, col int, text string) string {
	runes := []rune(text)
	if col < 1 {
		col = 1
	}
	if col > len(runes)+1 {
		col = len(runes) + 1
	}
	start, end := 0, len(runes)
	prefix, suffix := "", ""
	if len(runes) > excerptWidth {
		start = max(0, col-1-excerptWidth/2)
		end = min(len(runes), start+excerptWidth)
		if start > 0 {
			prefix = "..."
		}
		if end < len(runes) {
			suffix = "..."
		}
	}
	var pad strings.Builder
	pad.WriteString(strings.Repeat(" ", len(prefix)))
	for _, r := range runes[start : col-1] {
		if r == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
	}
	shown := prefix + sanitize(string(runes[start:end])) + suffix
	num := fmt.Sprint(line)
	gutter := strings.Repeat(" ", len(num))
	return fmt.Sprintf("%s--> %s:%d:%d\n%s |\n%s | %s\n%s | %s^\n",
		gutter+" ", name, line, col, gutter, num, shown, gutter, pad.String())
}

// sanitize replaces control characters (other than tab) so an untrusted
// template cannot drive the terminal through an error message.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' {
			return r
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError {
			return '?'
		}
		return r
	}, s)
}
