package workflows_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/methodfile"
	"github.com/jinjabox/jinjabox/workflows"
)

// The .mthds sample with every model-free pipe kind (PipeExtract,
// PipeFunc, PipeParallel, ...) runs as workflows with the pure runner's
// output, its bundle sent as JSON (what `jinjabox run` does with a
// .mthds file).
func TestMethodFileKindsAsWorkflows(t *testing.T) {
	registerKindsFuncs(t)
	dir := "../methodfile/testdata"
	m, err := methodfile.LoadFile(filepath.Join(dir, "kinds.mthds"))
	if err != nil {
		t.Fatal(err)
	}
	inputs, err := os.ReadFile(filepath.Join(dir, "kinds_inputs.json"))
	if err != nil {
		t.Fatal(err)
	}
	mem, err := method.LoadInputs(inputs)
	if err != nil {
		t.Fatal(err)
	}
	provider := method.LocalProvider{Files: os.DirFS(dir)}
	res, err := (&method.Runner{Library: m, Provider: provider}).Run(context.Background(), mem)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(res.Output)
	mj, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	env := newEnvWith(t, &workflows.Workflows{})
	activities.Register(env, &activities.Activities{Provider: provider})
	got, err := runMethod(t, env, mj, inputs)
	if err != nil {
		t.Fatal(err)
	}
	if g := outputJSON(t, got); g != string(want) {
		t.Fatalf("workflows: %s\nrunner:    %s", g, want)
	}
}

var kindsFuncs sync.Once

// registerKindsFuncs registers kinds.mthds' functions (as in
// methodfile's tests) in DefaultFuncs, which the validator, the runner
// and the workflows (Workflows.Funcs nil) all use.
func registerKindsFuncs(t *testing.T) {
	kindsFuncs.Do(func() {
		pagesText := func(call method.FuncCall) []string {
			var out []string
			for _, p := range call.Inputs["pages"].Content.([]any) {
				if v, err := method.WalkPath(p, "text_and_images.text.text"); err == nil {
					out = append(out, v.(string))
				}
			}
			return out
		}
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		must(method.RegisterFunc("word_stats", func(_ context.Context, call method.FuncCall) (any, error) {
			text := strings.Join(pagesText(call), "\n")
			words := strings.Fields(text)
			longest := ""
			for _, w := range words {
				if len(w) > len(longest) {
					longest = w
				}
			}
			level := "short"
			if len(words) > 20 {
				level = "medium"
			}
			return map[string]any{"words": int64(len(words)), "lines": int64(strings.Count(text, "\n") + 1), "longest": longest, "level": level, "long": len(words) > 100}, nil
		}))
		must(method.RegisterFunc("page_texts", func(_ context.Context, call method.FuncCall) (any, error) {
			return pagesText(call), nil
		}))
	})
}
