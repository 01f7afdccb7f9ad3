package methodfile

import (
	"context"
	"slices"

	"github.com/jinjabox/jinjabox/method"
)

// DryRunResult is what a library's dry run found.
type DryRunResult struct {
	// Problems are the pipes whose dry run failed (method.CodeDryRun).
	Problems []*method.Problem
	// Ran are the pipes dry-run, Skipped those that cannot run here: a
	// PipeSignature, or a pipe reaching one or a method not installed
	// (Pipelex skips them the same way: "Skipped dry run for pipe ...").
	Ran, Skipped []string
}

// DryRun dry-runs every pipe of the target bundles (method.DryRunPipe),
// as `pipelex validate` does once the static checks pass. Call it on a
// valid library only.
func (ld *Loaded) DryRun(ctx context.Context, opts method.DryRunOptions) DryRunResult {
	var res DryRunResult
	cannot := ld.cannotRun()
	for _, b := range ld.Targets {
		codes := make([]string, 0, len(b.Pipes))
		for code := range b.Pipes {
			codes = append(codes, code)
		}
		slices.Sort(codes)
		for _, code := range codes {
			ref := method.RefOf("", b.Domain, code)
			e, ok := ld.Library.Pipe(ref)
			if !ok {
				continue
			}
			if ld.reaches(ref, cannot) {
				res.Skipped = append(res.Skipped, ref)
				continue
			}
			res.Ran = append(res.Ran, ref)
			if err := ld.Library.DryRunPipe(ctx, ref, opts); err != nil {
				res.Problems = append(res.Problems, method.DryRunProblem(e, err))
			}
		}
	}
	return res
}

// cannotRun are the pipes that cannot run here: the pipes the report
// skips for a method not installed, and the PipeSignatures.
func (ld *Loaded) cannotRun() map[string]bool {
	out := map[string]bool{}
	for _, p := range ld.Report.Warnings() {
		if p.Code == method.CodeMissingMethod {
			out[method.RefOf("", p.Domain, p.Pipe)] = true
		}
	}
	for _, s := range ld.Signatures() {
		out[s.Ref] = true
	}
	return out
}

// reaches reports whether a pipe is, or runs through its children at any
// depth, a pipe that cannot run.
func (ld *Loaded) reaches(ref string, cannot map[string]bool) bool {
	if cannot[ref] {
		return true
	}
	for _, c := range ld.Library.Subset([]string{ref}, nil).Pipes() {
		if cannot[c.Ref] || (c.Address == "" && c.Pipe.Type == "") {
			return true
		}
	}
	return false
}
