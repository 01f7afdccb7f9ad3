package syntax

import (
	"errors"
	"fmt"
	"testing"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
)

// fuzzSeeds adds the corpus templates (and the golden cases) as seeds.
func fuzzSeeds(f *testing.F) {
	for _, c := range loadCorpusQuiet() {
		if len(c.Template) < 4096 {
			f.Add(c.Template, uint8(0))
		}
	}
	for i, g := range goldenCases {
		f.Add(g.src, uint8(i))
	}
}

// fuzzOpts derives lexer options from a fuzzed byte.
func fuzzOpts(b uint8) Options {
	o := Options{TrimBlocks: b&1 != 0, LstripBlocks: b&2 != 0, KeepTrailingNewline: b&4 != 0}
	if b&8 != 0 {
		o.Delimiters.LineStatementPrefix = "#"
	}
	if b&16 != 0 {
		o.Delimiters.LineCommentPrefix = "##"
	}
	if b&32 != 0 {
		o.Delimiters = NunjitsuDelimiters
	}
	return o
}

// FuzzLex checks that the lexer never panics except with its own error
// and always makes progress.
func FuzzLex(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, src string, ob uint8) {
		toks, lerr := lexAll(src, fuzzOpts(ob))
		if lerr != nil && lerr.msg == "" {
			t.Fatal("empty lex error message")
		}
		if len(toks) > 2*len(src)+2 {
			t.Fatalf("%d tokens for %d bytes", len(toks), len(src))
		}
		// the search of one opener byte with IndexByte (oneFirst) finds
		// what the test of every byte finds
		slow, serr := lexAllWith(src, fuzzOpts(ob), func(lx *lexer) { lx.oneFirst = false })
		if fmt.Sprint(toks, lerr) != fmt.Sprint(slow, serr) {
			t.Fatalf("fast search %v %v, byte by byte %v %v", toks, lerr, slow, serr)
		}
	})
}

// FuzzParse checks that Parse returns a template or an *errs.Error of
// kind Syntax or Budget (or a compile-time SyntaxError of Python's),
// never panics, and is deterministic.
func FuzzParse(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, src string, ob uint8) {
		m := budget.NewMeter(budget.Limits{NestingDepth: 64, ASTNodes: 20000})
		tree, err := Parse("fuzz", src, fuzzOpts(ob), m)
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) {
				t.Fatalf("not *errs.Error: %T", err)
			}
			// a keyword repeated is Python's compile-time SyntaxError, a
			// render error's kind (checkDupKwargs)
			if e.Kind != errs.Syntax && e.Kind != errs.Budget && e.PyError != "SyntaxError" {
				t.Fatalf("kind %v", e.Kind)
			}
			if e.Line < 1 || e.Offset < 0 || e.Offset > len(src) {
				t.Fatalf("bad position %d:%d @%d", e.Line, e.Col, e.Offset)
			}
			return
		}
		if tree.Nodes < 1 {
			t.Fatal("no nodes")
		}
		_ = dumpTree(tree)
	})
}
