package workflows_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"reflect"
	"strings"
	"time"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	temporaltest "go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/workflows"
)

// Starting a worker: a client, a worker on the task queue, every pipe
// workflow and the activities registered on it. The worker is versioned
// as cmd/worker is (docs/temporal.md, "Versioning"): it polls as one
// build of the jinjabox Worker Deployment, and every run it starts is
// pinned to that build; WorkerStopTimeout outlasts a model call, so a
// stop drains. The lazy client dials at the worker's first poll, so this
// runs without a server: it prints what a worker registers. A host then
// calls w.Run(worker.InterruptCh()), which polls until SIGINT or SIGTERM.
// cmd/worker is the complete program, with TLS, API keys, the model
// provider and tracing from the environment.
func ExampleWorkflows_Register() {
	c, err := client.NewLazyClient(client.Options{HostPort: "127.0.0.1:7233", Namespace: "default"})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	w := worker.New(c, "jinjabox", worker.Options{
		WorkerStopTimeout:        workflows.DefaultActivityTimeout + 10*time.Second,
		DeadlockDetectionTimeout: workflows.DeadlockDetectionTimeout,
		DeploymentOptions: worker.DeploymentOptions{
			UseVersioning:             true,
			Version:                   worker.WorkerDeploymentVersion{DeploymentName: "jinjabox", BuildID: "v1.4.0"},
			DefaultVersioningBehavior: workflow.VersioningBehaviorPinned,
		},
	})
	r := &registrations{Worker: w}
	(&workflows.Workflows{}).Register(r)
	activities.Register(r, &activities.Activities{Provider: method.LocalProvider{}})
	fmt.Println(strings.Join(r.names, "\n"))
	// Output:
	// workflow PipeLLMWorkflow
	// workflow PipeComposeWorkflow
	// workflow PipeConditionWorkflow
	// workflow PipeBatchWorkflow
	// workflow PipeSequenceWorkflow
	// workflow PipeParallelWorkflow
	// workflow PipeJudgeWorkflow
	// workflow PipeImgGenWorkflow
	// workflow PipeSearchWorkflow
	// workflow PipeExtractWorkflow
	// workflow PipeFuncWorkflow
	// workflow RunMethodWorkflow
	// workflow BatchWorkflow
	// activity CompleteText
	// activity RenderTemplate
	// activity ValidateMethod
}

// registrations passes registrations on to a worker and lists them.
type registrations struct {
	worker.Worker
	names []string
}

func (r *registrations) RegisterWorkflowWithOptions(w any, o workflow.RegisterOptions) {
	r.Worker.RegisterWorkflowWithOptions(w, o)
	r.names = append(r.names, "workflow "+o.Name)
}

// RegisterActivity registers a's exported methods, each an activity of
// its name, as the SDK does.
func (r *registrations) RegisterActivity(a any) {
	r.Worker.RegisterActivity(a)
	t := reflect.TypeOf(a)
	for i := range t.NumMethod() {
		r.names = append(r.names, "activity "+t.Method(i).Name)
	}
}

// Starting a method and handling its failure. A starter sends a
// RunMethodInput to RunMethodWorkflow on the workers' task queue:
// c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue:
// "jinjabox", WorkflowExecutionTimeout: time.Hour},
// workflows.WorkflowRunMethod, in), then run.Get(ctx, &out); `jinjabox
// run` is the complete starter. Here the run is on the SDK's in-process
// test environment, so it needs no server. A template failure anywhere in
// the run is its innermost typed error, a final application error whose
// details name the pipe, the field and the batch item.
func ExampleRunMethodInput() {
	var suite temporaltest.WorkflowTestSuite
	suite.SetLogger(tlog.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	env := suite.NewTestWorkflowEnvironment()
	(&workflows.Workflows{}).Register(env)
	activities.Register(env, &activities.Activities{Provider: method.LocalProvider{}})

	bundle := []byte(`{
		"main_pipe": "all",
		"pipes": {
			"all": {"type": "PipeBatch", "inputs": {"xs": "Number[]"}, "output": "Text[]",
				"branch_pipe_code": "one", "input_list_name": "xs", "input_item_name": "x"},
			"one": {"type": "PipeCompose", "inputs": {"x": "Number"}, "output": "Text",
				"template": "{{ 100 // x.number }}"}
		}
	}`)
	in := workflows.RunMethodInput{
		Method:  bundle, // a JSON bundle, or a library (what jinjabox run sends)
		Inputs:  []byte(`{"xs": {"concept": "Number[]", "content": [{"number": 4}, {"number": 0}]}}`),
		Options: workflows.RunOptions{MaxAttempts: 3}, // model calls' attempts (no model call here)
	}
	env.ExecuteWorkflow(workflows.WorkflowRunMethod, in)
	var ae *temporal.ApplicationError
	if err := env.GetWorkflowError(); errors.As(err, &ae) {
		var d failure.Details
		if err := ae.Details(&d); err != nil {
			log.Fatal(err)
		}
		fmt.Println(ae.Type(), "final:", ae.NonRetryable())
		fmt.Printf("pipe %s, field %s, item %d, path %v\n", d.Pipe, d.Field, d.Item, d.Path)
	}
	// Output:
	// TemplateRenderError final: true
	// pipe one, field template, item 1, path [all one]
}

// The same registration, run for real in the Temporal SDK's in-process
// test environment (no server): RunMethodWorkflow validates the bundle
// and runs each pipe as a child workflow, rendering templates in workflow
// code.
func ExampleWorkflows_RunMethodWorkflow() {
	var suite temporaltest.WorkflowTestSuite
	suite.SetLogger(tlog.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	env := suite.NewTestWorkflowEnvironment()
	(&workflows.Workflows{}).Register(env)
	activities.Register(env, &activities.Activities{Provider: method.LocalProvider{}})

	bundle := []byte(`{
		"main_pipe": "greet",
		"pipes": {"greet": {
			"type": "PipeCompose", "inputs": {"name": "Text"}, "output": "Text",
			"template": {"category": "basic", "template": "Hello {{ name | title }}!"}
		}}
	}`)
	env.ExecuteWorkflow(workflows.WorkflowRunMethod, workflows.RunMethodInput{Method: bundle, Inputs: []byte(`{"name": "ada"}`)})
	if err := env.GetWorkflowError(); err != nil {
		log.Fatal(err)
	}
	var out workflows.PipeOutput
	if err := env.GetWorkflowResult(&out); err != nil {
		log.Fatal(err)
	}
	content, err := json.Marshal(out.Output.Content)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Output.Concept, string(content))
	// Output:
	// Text {"text":"Hello Ada!"}
}
