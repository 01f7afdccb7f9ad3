package benchtemporal

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/method"
)

// Scenario is one benchmark case: a method and the inputs of each run,
// every run started at once.
type Scenario struct {
	Name   string
	Method []byte
	Inputs [][]byte
	// Note describes the scenario in the table's caption.
	Note string
	// Items is the items of one run (a batch's size) the per-item figures
	// divide by; 0: one a run.
	Items int
	// StoreAbove, when set, runs the scenario through a payload store
	// (a directory) with that threshold: its own client and worker.
	StoreAbove int64
}

// SampleMethod is the sample method of the repository (JSON twin of
// methodfile/testdata/sample_method.mthds).
const SampleMethod = "method/testdata/sample_method.json"

// SampleInputs are the sample method's inputs with n tickets (priorities
// cycling 4, 1, 3, 2: half urgent, half routine).
func SampleInputs(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"brand": {"concept": "native.Text", "content": {"text": "Acme"}},
"logo": {"concept": "native.Image", "content": {"url": "https://cdn.example.com/acme.png"}},
"tickets": [`)
	prio := []int{4, 1, 3, 2}
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"concept": "support.Ticket", "content": {"subject": "Ticket %d", "body": "Something about case %d went wrong.", "priority": %d}}`, i, i, prio[i%len(prio)])
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// BatchMethod is the batch benchmark's method: a PipeBatch over items
// whose branch is one PipeLLM (the local provider: about 60 bytes of
// output an item, so 10,000 outputs fit one 1.5 MiB payload), at most
// window items running at once.
func BatchMethod(window int) []byte {
	return []byte(`{"domain": "bench", "main_pipe": "all",
"concepts": {"Item": {"description": "a work item", "fields": [
  {"name": "id", "type": "integer", "required": true}, {"name": "text", "type": "text", "required": true}]}},
"pipes": {
  "all": {"type": "PipeBatch", "inputs": {"items": "Item[]"}, "output": "Text[]",
          "branch_pipe_code": "classify", "input_list_name": "items", "input_item_name": "item", "max_concurrency": ` + strconv.Itoa(window) + `},
  "classify": {"type": "PipeLLM", "inputs": {"item": "Item"}, "output": "Text", "prompt": "Classify $item.text"}
}}`)
}

// BatchScenario is one run of BatchMethod(window) over n items.
func BatchScenario(name string, n, window int) *Scenario {
	return &Scenario{Name: name, Method: BatchMethod(window), Inputs: [][]byte{BatchInputs(n)}, Items: n,
		Note: fmt.Sprintf("one PipeBatch of %d items, max_concurrency %d, each item a PipeLLM on the local provider", n, window)}
}

// OutputsMethod is a PipeBatch whose items are PipeComposes of about
// size bytes of output each, at most window at once: outputs of a size a
// model gives, rendered in the page workflows (no activity).
func OutputsMethod(window, size int) []byte {
	return []byte(`{"domain": "bench", "main_pipe": "all",
"concepts": {"Item": {"description": "a work item", "fields": [
  {"name": "id", "type": "integer", "required": true}, {"name": "text", "type": "text", "required": true}]}},
"pipes": {
  "all": {"type": "PipeBatch", "inputs": {"items": "Item[]"}, "output": "Text[]",
          "branch_pipe_code": "answer", "input_list_name": "items", "input_item_name": "item", "max_concurrency": ` + strconv.Itoa(window) + `},
  "answer": {"type": "PipeCompose", "inputs": {"item": "Item"}, "output": "Text",
             "template": "Answer to {{ item.text }}: {{ ('lorem ipsum ' * ` + strconv.Itoa(size/12) + `)|trim }}"}
}}`)
}

// OutputsScenario is one run of OutputsMethod(window, 2,000) over n
// items through a directory payload store (threshold 256 KiB): 10,000
// items are 20 MB of outputs, far past one payload's 1.5 MiB.
func OutputsScenario(name string, n, window int) *Scenario {
	return &Scenario{Name: name, Method: OutputsMethod(window, 2000), Inputs: [][]byte{BatchInputs(n)}, Items: n, StoreAbove: 256 << 10,
		Note: fmt.Sprintf("one PipeBatch of %d items, max_concurrency %d, each item a PipeCompose of 2 kB, through a directory payload store", n, window)}
}

// BatchInputs are n items.
func BatchInputs(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"items": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"concept": "bench.Item", "content": {"id": %d, "text": "item %d"}}`, i, i)
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// PureOutput is what `jinjabox exec` gives for a method and inputs: the
// output stuff as JSON.
func PureOutput(lib, inputs []byte) (string, error) {
	m, err := method.ValidateJSON(lib, method.ValidateOptions{})
	if err != nil {
		return "", err
	}
	mem, err := method.LoadInputs(inputs)
	if err != nil {
		return "", err
	}
	res, err := (&method.Runner{Library: m, Provider: method.LocalProvider{}}).Run(context.Background(), mem)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(res.Output)
	return string(b), err
}
