package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"

	"github.com/jinjabox/jinjabox/internal/benchtemporal"
	"github.com/jinjabox/jinjabox/workflows"
)

// scenario is one run of the replay corpus: every workflow of it is
// recorded. fails says the run is expected to fail (a failure history).
type scenario struct {
	name   string
	method []byte
	inputs []byte
	opts   workflows.RunOptions
	fails  bool
}

// smallBounds give a batch of a dozen items pages and ranges.
var smallBounds = &workflows.Bounds{PageItems: 3, RangeChildren: 2}

func textList(n int) []byte {
	xs := make([]string, n)
	for i := range xs {
		xs[i] = fmt.Sprintf("item %d", i)
	}
	b, _ := json.Marshal(map[string]any{"xs": map[string]any{"concept": "Text[]", "content": xs}})
	return b
}

// replayScenarios are the runs the replay corpus holds: each controller
// kind, a batch with pages and ranges, renders spread over workflow tasks
// and one in the RenderTemplate activity, hashed child IDs, and failures
// (a template error at a batch item, a condition's fail outcome, a
// payload too large).
func replayScenarios(t *testing.T) []scenario {
	cond := []byte(`{"main_pipe": "route", "pipes": {
		"route": {"type": "PipeCondition", "inputs": {"x": "Text"}, "expression": "x.text", "outcomes": {"go": "echo", "skip": "continue", "stop": "fail"}, "default_outcome": "echo", "add_alias_from_expression_to": "why", "output": "Text?"},
		"echo": {"type": "PipeCompose", "inputs": {"x": "Text", "why": "Text"}, "output": "Text", "template": "{{ x }} because {{ why }}"}}}`)
	text := func(s string) []byte { return []byte(`{"x": "` + s + `"}`) }
	batch := []byte(`{"main_pipe": "all", "pipes": {
		"all": {"type": "PipeBatch", "inputs": {"xs": "Text[]"}, "output": "Text[]", "branch_pipe_code": "one", "input_list_name": "xs", "input_item_name": "x", "max_concurrency": 4},
		"one": {"type": "PipeCompose", "inputs": {"x": "Text"}, "output": "Text", "template": "{{ x|upper }}"}}}`)
	failing := []byte(strings.Replace(string(batch), `{{ x|upper }}`, `{{ x|upper }}{% if x.text == 'item 7' %}{{ 1 // 0 }}{% endif %}`, 1))
	seqPar := []byte(`{"main_pipe": "main", "pipes": {
		"main": {"type": "PipeSequence", "inputs": {"xs": "Text[]"}, "output": "Composite", "steps": [
			{"pipe": "shout", "batch_over": "xs", "batch_as": "x", "result": "loud"},
			{"pipe": "both", "result": "both"}]},
		"shout": {"type": "PipeLLM", "inputs": {"x": "Text"}, "output": "Text", "prompt": "Shout $x"},
		"both": {"type": "PipeParallel", "inputs": {"xs": "Text[]", "loud": "Text[]"}, "output": "Composite", "add_each_output": true, "branches": [
			{"pipe": "count", "result": "count"},
			{"pipe": "quiet", "batch_over": "loud", "batch_as": "l", "result": "quiet"}]},
		"count": {"type": "PipeCompose", "inputs": {"xs": "Text[]"}, "output": "Text", "template": "{{ xs|length }} items"},
		"quiet": {"type": "PipeCompose", "inputs": {"l": "Text"}, "output": "Text", "template": "{{ l|lower }}"}}}`)
	// Twelve fields of about 4.4 Mi units each (two a task) and one of
	// about 88 Mi (more than a task: the activity).
	fields := map[string]any{}
	for i := range 12 {
		fields[fmt.Sprintf("f%02d", i)] = map[string]string{"template": loopTemplate(4, i)}
	}
	fields["heavy"] = map[string]string{"template": loopTemplate(80, 0)}
	fields["echo"] = map[string]string{"template": "{{ x }}"}
	wide, _ := json.Marshal(map[string]any{"main_pipe": "wide", "pipes": map[string]any{
		"wide": map[string]any{"type": "PipeCompose", "inputs": map[string]string{"x": "Text"}, "output": "Anything", "construct": fields}}})
	deep := map[string]any{}
	code := func(i int) string { return fmt.Sprintf("level_%d_%s", i, strings.Repeat("d", 70)) }
	for i := range 5 {
		deep[code(i)] = map[string]any{"type": "PipeSequence", "inputs": map[string]string{"x": "Text"}, "output": "Text", "steps": []map[string]string{{"pipe": code(i + 1)}}}
	}
	deep[code(5)] = map[string]any{"type": "PipeCompose", "inputs": map[string]string{"x": "Text"}, "output": "Text", "template": "deep {{ x }}"}
	deepLib, _ := json.Marshal(map[string]any{"main_pipe": code(0), "pipes": deep})
	big := []byte(`{"main_pipe": "big", "pipes": {"big": {"type": "PipeCompose", "inputs": {"x": "Text"}, "output": "Text", "template": "{{ 'x' * 1700000 }}"}}}`)
	return []scenario{
		{name: "sample", method: readFile(t, "../method/testdata/sample_method.json"), inputs: readFile(t, "../method/testdata/sample_inputs.json")},
		{name: "condition-pipe", method: cond, inputs: text("go")},
		{name: "condition-continue", method: cond, inputs: text("skip")},
		{name: "condition-fail", method: cond, inputs: text("stop"), fails: true},
		{name: "batch-pages", method: batch, inputs: textList(12), opts: workflows.RunOptions{Bounds: smallBounds}},
		{name: "sequence-parallel-batches", method: seqPar, inputs: textList(5), opts: workflows.RunOptions{Bounds: smallBounds}},
		{name: "render-tasks-activity", method: wide, inputs: text("w")},
		{name: "deep-hashed-ids", method: deepLib, inputs: text("d")},
		{name: "fail-batch-item", method: failing, inputs: textList(12), opts: workflows.RunOptions{Bounds: smallBounds}, fails: true},
		{name: "fail-payload-limit", method: big, inputs: text("b"), fails: true},
	}
}

// loopTemplate spends about n Mi work units (n x 1,000 iterations of
// about 1 Ki units each) and prints a number.
func loopTemplate(n, salt int) string {
	return fmt.Sprintf("{%% set ns = namespace(s=%d) %%}{%% for i in range(%d) %%}{%% for j in range(1000) %%}{%% set ns.s = ns.s + j %%}{%% endfor %%}{%% endfor %%}{{ ns.s }}", salt, n)
}

// TestRecordHistories records the replay corpus
// (workflows.TestReplayRecordedHistories replays it): every workflow of
// each replayScenarios run, as JSON, under
// JINJABOX_RECORD_HISTORIES=DIR/<scenario>/. It runs only when that is
// set (make record-histories RELEASE=...), which writes a new release's
// directory and never rewrites an old one.
func TestRecordHistories(t *testing.T) {
	dir := os.Getenv("JINJABOX_RECORD_HISTORIES")
	if dir == "" {
		t.Skip("JINJABOX_RECORD_HISTORIES not set")
	}
	c := needServer(t)
	startWorker(t, c, "it-record")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for _, sc := range replayScenarios(t) {
		root := "replay-" + sc.name
		in := workflows.RunMethodInput{Method: sc.method, Inputs: sc.inputs, Options: sc.opts}
		_, err := runMethod(ctx, c, "it-record", root, in)
		if (err != nil) != sc.fails {
			t.Fatalf("%s: error %v, want failure %v", sc.name, err, sc.fails)
		}
		out := filepath.Join(dir, sc.name)
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		ws, err := benchtemporal.ListRoot(ctx, c, root)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range ws {
			hist := &historypb.History{}
			it := c.GetWorkflowHistory(ctx, w.ID, w.RunID, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
			for it.HasNext() {
				ev, err := it.Next()
				if err != nil {
					t.Fatal(err)
				}
				hist.Events = append(hist.Events, ev)
			}
			b, err := temporalproto.CustomJSONMarshalOptions{Indent: " "}.Marshal(hist)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(out, url.PathEscape(w.ID)+".json"), append(b, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: %d workflows recorded", sc.name, len(ws))
	}
}
