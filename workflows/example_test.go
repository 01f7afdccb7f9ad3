package workflows_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jinjabox/jinjabox/workflows"
)

// ValidateMethod checks a whole bundle before anything runs, every
// template and data path included, and reports every problem at once,
// each naming the pipe and field.
func ExampleValidateMethod() {
	m, err := workflows.LoadMethod([]byte(`{
		"main_pipe": "reply",
		"pipes": {
			"reply": {
				"type": "PipeCompose",
				"inputs": {"ticket": "Text"},
				"output": "Text",
				"template": {"category": "basic", "template": "Re: {{ ticket.__class__ }} {{ customer }}"}
			},
			"digest": {
				"type": "PipeCompose",
				"inputs": {"tickets": "Text[]"},
				"output": "Anything",
				"construct": {"first": {"from": "tickets._private"}}
			}
		}
	}`))
	if err != nil {
		panic(err) // not a bundle at all (JSON shape)
	}
	for _, p := range workflows.Problems(workflows.ValidateMethod(m)) {
		fmt.Println(p)
	}
	// Output:
	// pipe "digest", construct field 'first': template_private_name: path segment "_private" starts with an underscore: private names are not readable
	// pipe "reply", template (line 1, col 14): template_private_name: private name "__class__" is not readable by templates
	// pipe "reply", template (line 1, col 31): undeclared_input: variable "customer" is not a declared input
}

// A Runner executes a validated method in process, deterministically: here
// a PipeFunc (a Go function the application registers by name) feeds a
// PipeCompose. Templates render under the sandbox and a fresh budget each;
// model calls go to the Provider (LocalProvider is offline and
// deterministic). Under Temporal the same method runs as workflows.
func ExampleRunner() {
	funcs := workflows.NewFuncRegistry()
	err := funcs.Register("letter_count", func(_ context.Context, call workflows.FuncCall) (any, error) {
		name, err := workflows.WalkPath(call.Inputs["name"].Content, "text") // a Text stuff is {"text": ...}
		if err != nil {
			return nil, err
		}
		s, _ := name.(string)
		return map[string]any{"letters": len(strings.ReplaceAll(s, " ", ""))}, nil
	})
	if err != nil {
		panic(err)
	}
	m, err := workflows.LoadMethod([]byte(`{
		"main_pipe": "welcome",
		"pipes": {
			"welcome": {
				"type": "PipeSequence",
				"inputs": {"name": "Text"},
				"output": "Text",
				"steps": [{"pipe": "count", "result": "stats"}, {"pipe": "compose", "result": "message"}]
			},
			"count": {"type": "PipeFunc", "inputs": {"name": "Text"}, "output": "Anything", "function_name": "letter_count"},
			"compose": {
				"type": "PipeCompose",
				"inputs": {"name": "Text", "stats": "Anything"},
				"output": "Text",
				"template": {"category": "basic", "template": "Welcome, {{ name | title }} ({{ stats.letters }} letters)!"}
			}
		}
	}`))
	if err != nil {
		panic(err)
	}
	if err := workflows.ValidateMethodWith(m, workflows.ValidateOptions{Funcs: funcs}); err != nil {
		panic(err) // every problem, one per line
	}
	inputs, err := workflows.LoadInputs([]byte(`{"name": "ada lovelace"}`))
	if err != nil {
		panic(err)
	}
	r := &workflows.Runner{Method: m, Provider: workflows.LocalProvider{}, Funcs: funcs}
	res, err := r.Run(context.Background(), inputs)
	if err != nil {
		panic(err) // a *workflows.RunError naming the pipe and field
	}
	out, err := json.Marshal(res.Output)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	// Output:
	// {"name":"welcome","concept":"Text","code":"message","content":{"text":"Welcome, Ada Lovelace (11 letters)!"}}
}
