package workflows

import "go.temporal.io/sdk/workflow"

// WorkflowRegistry is the part of a Temporal worker (or test environment)
// that registers workflows.
type WorkflowRegistry interface {
	RegisterWorkflowWithOptions(w any, options workflow.RegisterOptions)
}

// Register registers every pipe workflow under its type name.
func (w *Workflows) Register(r WorkflowRegistry) {
	for _, wf := range []struct {
		name string
		fn   any
	}{
		{WorkflowPipeLLM, w.PipeLLMWorkflow},
		{WorkflowPipeCompose, w.PipeComposeWorkflow},
		{WorkflowPipeCondition, w.PipeConditionWorkflow},
		{WorkflowPipeBatch, w.PipeBatchWorkflow},
		{WorkflowPipeSequence, w.PipeSequenceWorkflow},
		{WorkflowRunMethod, w.RunMethodWorkflow},
	} {
		r.RegisterWorkflowWithOptions(wf.fn, workflow.RegisterOptions{Name: wf.name})
	}
}
