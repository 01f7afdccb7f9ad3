package workflows_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"os"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	temporaltest "go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/workflows"
)

// Starting a worker: register every pipe workflow and the activities on a
// task queue, then run until SIGINT or SIGTERM. This example is compiled
// but not run by go test (it needs a Temporal server); cmd/worker is the
// complete program, with TLS, API keys, the model provider and tracing
// from the environment.
func ExampleWorkflows_Register() {
	c, err := client.Dial(client.Options{HostPort: "127.0.0.1:7233", Namespace: "default"})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	w := worker.New(c, "jinjabox", worker.Options{})
	(&workflows.Workflows{}).Register(w)
	activities.Register(w, &activities.Activities{Provider: workflows.LocalProvider{}})
	if err := w.Run(worker.InterruptCh()); err != nil {
		log.Fatal(err)
	}
}

// Starting a method on a worker's task queue from any process. Compiled,
// not run (it needs a server); `jinjabox run` is the complete starter.
func ExampleRunMethodInput() {
	c, err := client.Dial(client.Options{HostPort: "127.0.0.1:7233"})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	method, err := os.ReadFile("method.json")
	if err != nil {
		log.Fatal(err)
	}
	in := workflows.RunMethodInput{Method: method, Inputs: []byte(`{"name": "ada"}`)}
	run, err := c.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{TaskQueue: "jinjabox"}, workflows.WorkflowRunMethod, in)
	if err != nil {
		log.Fatal(err)
	}
	var out workflows.PipeOutput
	if err := run.Get(context.Background(), &out); err != nil {
		log.Fatal(err) // an InvalidMethod or Template*Error application error
	}
	fmt.Println(string(out.Output.Content)) // the output stuff's content as JSON
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
	activities.Register(env, &activities.Activities{Provider: workflows.LocalProvider{}})

	method := []byte(`{
		"main_pipe": "greet",
		"pipes": {"greet": {
			"type": "PipeCompose", "inputs": {"name": "Text"}, "output": "Text",
			"template": {"category": "basic", "template": "Hello {{ name | title }}!"}
		}}
	}`)
	env.ExecuteWorkflow(workflows.WorkflowRunMethod, workflows.RunMethodInput{Method: method, Inputs: []byte(`{"name": "ada"}`)})
	if err := env.GetWorkflowError(); err != nil {
		log.Fatal(err)
	}
	var out workflows.PipeOutput
	if err := env.GetWorkflowResult(&out); err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Output.Concept, string(out.Output.Content))
	// Output:
	// Text {"text":"Hello Ada!"}
}
