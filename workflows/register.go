package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/method"
)

// WorkflowRegistry is the part of a Temporal worker (or test environment)
// that registers workflows.
type WorkflowRegistry interface {
	RegisterWorkflowWithOptions(w any, options workflow.RegisterOptions)
}

// Register registers PipeWorkflow under every kind's workflow type (from
// method.Kinds, the one table of kinds), RunMethodWorkflow and
// BatchWorkflow.
func (w *Workflows) Register(r WorkflowRegistry) {
	for _, k := range method.Kinds() {
		r.RegisterWorkflowWithOptions(w.PipeWorkflow, workflow.RegisterOptions{Name: WorkflowFor(k.Name)})
	}
	r.RegisterWorkflowWithOptions(w.RunMethodWorkflow, workflow.RegisterOptions{Name: WorkflowRunMethod})
	r.RegisterWorkflowWithOptions(w.BatchWorkflow, workflow.RegisterOptions{Name: WorkflowBatch})
}
