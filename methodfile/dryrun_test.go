package methodfile

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/method"
)

// TestRealBundlesDryRun: every bundle Pipelex calls valid passed its
// validate, which dry-runs each pipe on mock inputs; so each must pass
// jinjabox's dry run too, and at least one pipe of the corpus must run.
func TestRealBundlesDryRun(t *testing.T) {
	ran := 0
	for _, e := range realEntries(t) {
		if e.Pipelex.Verdict != "valid" {
			continue
		}
		t.Run(e.Path, func(t *testing.T) {
			ld := loadReal(t, e, Options{})
			if err := ld.Report.Err(); err != nil {
				t.Fatal(err)
			}
			res := ld.DryRun(context.Background(), method.DryRunOptions{})
			for _, p := range res.Problems {
				t.Error(p)
			}
			ran += len(res.Ran)
			t.Logf("%d pipes ran, %d skipped", len(res.Ran), len(res.Skipped))
		})
	}
	if ran == 0 {
		t.Fatal("no pipe was dry-run")
	}
}

// TestDryRunFindsWhatOnlyDataShows: a template that parses and names
// declared inputs, but fails on data of the declared shape, passes the
// static checks and fails the dry run, naming the pipe; a sound pipe
// beside it passes, and a PipeFunc is mocked, not called.
func TestDryRunFindsWhatOnlyDataShows(t *testing.T) {
	src := `domain = "d"
description = "x"

[concept.Deal]
description = "a deal"
[concept.Deal.structure]
amount = { type = "number", description = "a" }
tags = { type = "list", item_type = "text", description = "t" }

[pipe.bad]
type = "PipeCompose"
description = "adds a number to a list"
inputs = { deal = "Deal" }
output = "Text"
template = "{{ deal.amount + deal.tags }}"

[pipe.good]
type = "PipeCompose"
description = "fine"
inputs = { deal = "Deal" }
output = "Text"
template = "{{ deal.amount }} {{ deal.tags|join(', ') }}"

[pipe.score]
type = "PipeFunc"
description = "a registered function"
inputs = { deal = "Deal" }
output = "Deal"
function_name = "score_deal"

[pipe.flow]
type = "PipeSequence"
description = "func then compose"
inputs = { deal = "Deal" }
output = "Text"
steps = [{ pipe = "score", result = "deal" }, { pipe = "good" }]
`
	ld := loadString(t, "d.mthds", src)
	res := ld.DryRun(context.Background(), method.DryRunOptions{})
	if len(res.Ran) != 4 {
		t.Errorf("ran %v, want the 4 pipes", res.Ran)
	}
	if len(res.Problems) != 1 || res.Problems[0].Pipe != "bad" || res.Problems[0].Code != method.CodeDryRun ||
		!strings.Contains(res.Problems[0].Message, "unsupported operand") {
		t.Fatalf("problems %v, want one dry_run_failed on bad", res.Problems)
	}
}

// loadString loads one method file's text as LoadLibrary loads a path,
// and requires it valid.
func loadString(t *testing.T, name, src string) *Loaded {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ld, err := LoadLibrary([]string{p}, Options{MethodsDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := ld.Report.Err(); err != nil {
		for _, p := range ld.Report.Problems {
			t.Error(p)
		}
		t.Fatal(err)
	}
	return ld
}
