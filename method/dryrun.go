package method

import (
	"context"
	"errors"

	"github.com/jinjabox/jinjabox/budget"
)

// A dry run runs a pipe for real on mock inputs with every model call,
// document read and function answered by a mock: templates render,
// conditions evaluate, controllers run their children, outputs are
// checked against their concepts. It is what `pipelex validate` does
// after its static checks (BundleValidator._validate_pipes_for_caller
// dry-runs each pipe; PipeLLM and the other operators answer through
// ContentGeneratorDry; PipeFunc._dry_run_operator_pipe does not call the
// function but makes a mock of its output concept), so a template that
// fails only on data of the right shape is found before a real run.

// CodeDryRun is the problem of a pipe whose dry run failed.
const CodeDryRun = "dry_run_failed"

// DryProvider answers every request without I/O: the local provider's
// deterministic answers, simulated image generation and search, and mock
// pages for a document (whatever its URL).
type DryProvider struct{}

// CompleteText implements Provider.
func (DryProvider) CompleteText(ctx context.Context, req CompletionRequest) (CompletionResponse, error) {
	if req.Kind == RequestExtract {
		page := func(n string) any {
			tai := orderedOf("text", orderedOf("text", "mock page "+n))
			tai.Keys, tai.Values = append(tai.Keys, "images"), append(tai.Values, []any{})
			return orderedOf("text_and_images", tai)
		}
		if spec := ParseConceptSpec(req.Output); req.Output != "" && (spec.Name == ConceptText || !spec.List) {
			return CompletionResponse{Text: "mock page 1\n\nmock page 2"}, nil
		}
		return CompletionResponse{Object: []any{page("1"), page("2")}}, nil
	}
	return LocalProvider{Simulate: true}.CompleteText(ctx, req)
}

// DryRunOptions are the settings of a dry run.
type DryRunOptions struct {
	// Models resolves model references, as a real run would.
	Models *ModelConfig
	// Limits are the per-render limits (zero: the defaults).
	Limits budget.Limits
}

// DryRunPipe dry-runs one pipe, named as EntryPipe names it, on its mock
// inputs (MockInputs). A nil error means the pipe ran to its output.
func (l *Library) DryRunPipe(ctx context.Context, ref string, opts DryRunOptions) error {
	mem, err := l.MockInputs(ref)
	if err != nil {
		return err
	}
	r := &Runner{Library: l, Provider: DryProvider{}, Funcs: l.mockFuncs(), Models: opts.Models, Limits: opts.Limits, Dry: true}
	_, err = r.RunPipe(ctx, ref, mem)
	return err
}

// mockFuncs registers every function the library's PipeFuncs name as a
// mock of the calling pipe's output concept.
func (l *Library) mockFuncs() *FuncRegistry {
	reg := NewFuncRegistry()
	for _, e := range l.Pipes() {
		name := e.Pipe.FunctionName
		if name == "" {
			continue
		}
		if _, ok := reg.Lookup(name); ok {
			continue
		}
		_ = reg.Register(name, func(_ context.Context, call FuncCall) (any, error) {
			return l.concepts.mockSpec(ParseConceptSpec(call.Output)), nil
		})
	}
	return reg
}

// DryRunProblem words a dry run's failure as a problem of the pipe.
func DryRunProblem(e *PipeEntry, err error) *Problem {
	p := &Problem{File: e.Bundle.Source, Domain: e.Domain, Pipe: e.Code, Code: CodeDryRun, Message: "dry run on mock inputs: " + err.Error()}
	var re *RunError
	if errors.As(err, &re) && re.Field != "" && re.Pipe == e.Code {
		p.Field = re.Field
	}
	return p
}
