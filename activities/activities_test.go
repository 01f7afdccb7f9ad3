package activities_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"strings"
	"testing"

	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	temporaltest "go.temporal.io/sdk/testsuite"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/method/templating"
)

func quietLogger() log.Logger {
	return log.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 4})))
}

func activityEnv(a *activities.Activities) *temporaltest.TestActivityEnvironment {
	var s temporaltest.WorkflowTestSuite
	s.SetLogger(quietLogger())
	env := s.NewTestActivityEnvironment()
	activities.Register(env, a)
	return env
}

func TestRenderTemplate(t *testing.T) {
	a := &activities.Activities{}
	env := activityEnv(a)
	v, err := env.ExecuteActivity(a.RenderTemplate, activities.RenderInput{
		Source: "Hi {{ user.name }}", Category: templating.LLMPrompt,
		Data: json.RawMessage(`{"user":{"name":"Ada"}}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	var out activities.RenderOutput
	if err := v.Get(&out); err != nil {
		t.Fatal(err)
	}
	if out.Text != "Hi Ada" || out.Units <= 0 {
		t.Fatalf("got %+v", out)
	}
}

// Each engine error kind becomes its non-retryable application error
// type with the position in the details.
func TestRenderTemplateErrorTypes(t *testing.T) {
	for _, tc := range []struct{ src, typ string }{
		{"{% if %}", failure.ErrTypeSyntax},
		{"{{ x.__class__ }}", failure.ErrTypeSecurity},
		{"{{ 'x' * 100000 }}", failure.ErrTypeBudget},
		{"{{ nope }}", failure.ErrTypeUndefined},
		{"{{ 1 / 0 }}", failure.ErrTypeRender},
	} {
		a := &activities.Activities{}
		_, err := activityEnv(a).ExecuteActivity(a.RenderTemplate, activities.RenderInput{
			Name: "t", Source: tc.src, Strict: true, Limits: budget.Limits{WorkUnits: 10000}})
		var ae *temporal.ApplicationError
		if !errors.As(err, &ae) {
			t.Fatalf("%s: want an application error, got %v", tc.src, err)
		}
		var d failure.Details
		if ae.Type() != tc.typ || !ae.NonRetryable() || ae.Details(&d) != nil || d.Template != "t" || d.Line != 1 {
			t.Errorf("%s: type %s nonretryable %v details %+v, want %s", tc.src, ae.Type(), ae.NonRetryable(), d, tc.typ)
		}
	}
}

// A cancelled activity stops its render at the next charge point and
// returns the context's error, not a non-retryable template failure
// (the attempt timed out or the worker stopped; the template is fine).
func TestRenderTemplateCancelled(t *testing.T) {
	a := &activities.Activities{}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := a.RenderTemplate(ctx, activities.RenderInput{
		Name: "t", Source: "{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}",
		Limits: budget.Limits{WorkUnits: 1 << 60}})
	var ae *temporal.ApplicationError
	if !errors.Is(err, context.Canceled) || errors.As(err, &ae) {
		t.Fatalf("want the context's error, got %v", err)
	}
}

func TestValidateMethod(t *testing.T) {
	a := &activities.Activities{}
	env := activityEnv(a)
	good, _ := os.ReadFile("../method/testdata/sample_method.json")
	if _, err := env.ExecuteActivity(a.ValidateMethod, json.RawMessage(good)); err != nil {
		t.Fatal(err)
	}
	bad, _ := os.ReadFile("../method/testdata/broken_method.json")
	_, err := env.ExecuteActivity(a.ValidateMethod, json.RawMessage(bad))
	var ae *temporal.ApplicationError
	var problems []string
	if !errors.As(err, &ae) || ae.Type() != failure.ErrTypeInvalidMethod || ae.Details(&problems) != nil || len(problems) < 2 {
		t.Fatalf("got %v (%d problems)", err, len(problems))
	}
}

// CompleteText with the default (local) provider is the runner's answer,
// and a structured answer keeps its field order through the payload.
func TestCompleteTextLocal(t *testing.T) {
	a := &activities.Activities{}
	req := method.CompletionRequest{Kind: method.RequestLLM, Pipe: "p", Prompt: "hi", Output: "Card",
		Fields: []method.Field{{Name: "zeta", Type: "text"}, {Name: "alpha", Type: "integer"}}}
	v, err := activityEnv(a).ExecuteActivity(a.CompleteText, activities.ModelCall{CompletionRequest: req, Attempts: 5})
	if err != nil {
		t.Fatal(err)
	}
	var got method.CompletionResponse
	if err := v.Get(&got); err != nil {
		t.Fatal(err)
	}
	want, _ := method.LocalProvider{}.CompleteText(t.Context(), req)
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if string(gb) != string(wb) {
		t.Fatalf("got %s want %s", gb, wb)
	}
}

// A bare request's payload, as histories from before ModelCall hold,
// decodes as a ModelCall of that request with no budget, and a
// ModelCall's payload is the request's with one field more.
func TestModelCallPayload(t *testing.T) {
	req := method.CompletionRequest{Kind: method.RequestLLM, Pipe: "p", Prompt: "hi", RequestExt: method.RequestExt{Model: "m"}}
	dc := converter.GetDefaultDataConverter()
	p, err := dc.ToPayload(req)
	if err != nil {
		t.Fatal(err)
	}
	var mc activities.ModelCall
	if err := dc.FromPayload(p, &mc); err != nil || mc.Attempts != 0 || mc.Prompt != "hi" || mc.Model != "m" {
		t.Fatalf("%+v, %v", mc, err)
	}
	q, _ := dc.ToPayload(activities.ModelCall{CompletionRequest: req, Attempts: 5})
	if want := strings.TrimSuffix(string(p.Data), "}") + `,"attempts":5}`; string(q.Data) != want {
		t.Fatalf("payload %s, want %s", q.Data, want)
	}
}
