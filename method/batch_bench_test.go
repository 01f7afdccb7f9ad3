package method

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// sharedBatch is a PipeBatch of n items whose branch (a PipeCompose)
// reads, besides its item, two large stuffs of the shared memory: a
// 1 MB text and a 1,000-item list. The shared data is the same for every
// item, so what a batch costs beyond its n renders is the cost of giving
// each item that data.
func sharedBatch(tb testing.TB, n int) (*Library, *Memory) {
	tb.Helper()
	lib, err := LoadJSON([]byte(`{"main_pipe": "b", "pipes": {
		"b": {"type": "PipeBatch", "inputs": {"l": "Text[]", "doc": "Text", "glossary": "Text[]"}, "output": "Text[]",
			"branch_pipe_code": "c", "input_list_name": "l", "input_item_name": "it"},
		"c": {"type": "PipeCompose", "inputs": {"it": "Text", "doc": "Text", "glossary": "Text[]"}, "output": "Text",
			"template": "{{ it.text|upper }} {{ doc.text|length }} {{ glossary|length }} {{ glossary[3].text }}"}}}`))
	if err != nil {
		tb.Fatal(err)
	}
	items := make([]string, n)
	for i := range items {
		items[i] = "item " + strconv.Itoa(i)
	}
	gloss := make([]string, 1000)
	for i := range gloss {
		gloss[i] = "term " + strconv.Itoa(i)
	}
	in, err := json.Marshal(map[string]any{
		"l":        map[string]any{"concept": "Text[]", "content": items},
		"doc":      strings.Repeat("0123456789abcdef", 1<<16),
		"glossary": map[string]any{"concept": "Text[]", "content": gloss},
	})
	if err != nil {
		tb.Fatal(err)
	}
	mem, err := LoadInputs(in)
	if err != nil {
		tb.Fatal(err)
	}
	return lib, mem
}

// BenchmarkBatchSharedMemory runs a PipeBatch of 1,000 items over a
// shared memory holding a 1 MB text and a 1,000-item list (one op: the
// whole batch, a runner per op, as a fresh run parses its templates).
func BenchmarkBatchSharedMemory(b *testing.B) {
	lib, mem := sharedBatch(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		r := &Runner{Library: lib, Provider: LocalProvider{}}
		res, err := r.Run(context.Background(), mem)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Renders) != 1000 || res.Renders[999].Text != "ITEM 999 1048576 1000 term 3" {
			b.Fatalf("%d renders, last %q", len(res.Renders), res.Renders[len(res.Renders)-1].Text)
		}
	}
}
