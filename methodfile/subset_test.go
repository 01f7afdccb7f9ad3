package methodfile

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/method/templating"
)

// subsetChildren runs every child the way the Temporal layer sends it to
// a child workflow, without Temporal: a fresh runner over the part of
// the library the child needs (method.Library.Subset of its pipe and its
// memory's concepts) and its memory, both through JSON (the payload).
// A run through it must give the plain runner's result: the subset and
// the memory a child gets are all it reads.
type subsetChildren struct {
	t    *testing.T
	lib  *method.Library
	base method.Runner
}

func (c *subsetChildren) child(ch method.Child) (method.ChildResult, error) {
	sub := c.lib.Subset([]string{ch.Pipe}, ch.Memory.StuffConcepts())
	var lib method.Library
	var mem method.Memory
	roundTrip(c.t, sub, &lib)
	roundTrip(c.t, ch.Memory, &mem)
	r := c.base
	r.Library = &lib
	r.Children = &subsetChildren{t: c.t, lib: &lib, base: c.base}
	res, err := r.Invoke(context.Background(), ch.Pipe, &mem, ch.Depth, ch.Output)
	if err != nil {
		return method.ChildResult{}, err
	}
	return method.ChildResult{Output: res.Output, Added: res.Added}, nil
}

func (c *subsetChildren) Run(n int, child func(i int) method.Child, _ int) ([]method.ChildResult, error) {
	out := make([]method.ChildResult, n)
	for i := range n {
		res, err := c.child(child(i))
		if err != nil {
			return nil, err
		}
		out[i] = res
	}
	return out, nil
}

func (c *subsetChildren) Batch(b *method.Batch) ([]method.ChildResult, error) {
	var rt method.Batch
	roundTrip(c.t, b, &rt)
	return c.Run(len(rt.Items), rt.Child, rt.Window)
}

func roundTrip(t *testing.T, v, into any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, into); err != nil {
		t.Fatal(err)
	}
}

// requestRenderer renders every template the way the RenderTemplate
// activity renders a render too big for a workflow task: the job as a
// RenderRequest, through JSON, rendered on its own.
type requestRenderer struct{ t *testing.T }

func (r requestRenderer) Render(j *method.RenderJob) (templating.Rendered, error) {
	q, err := j.Request()
	if err != nil {
		return templating.Rendered{}, err
	}
	var rt method.RenderRequest
	roundTrip(r.t, q, &rt)
	out, err := rt.Render(context.Background(), nil)
	if err == nil {
		for _, img := range out.Images {
			j.Images.Register(img)
		}
	}
	return out, err
}

// runBothWays runs a pipe with the plain runner and with every child on
// its subset (subsetChildren) and every render as a request
// (requestRenderer), and fails unless both give the same output (or the
// same error).
func runBothWays(t *testing.T, r *method.Runner, pipe string, mem *method.Memory) (*method.Result, error) {
	t.Helper()
	plain, err := r.RunPipe(context.Background(), pipe, mem)
	s := *r
	s.Renderer = requestRenderer{t}
	s.Children = &subsetChildren{t: t, lib: r.Library, base: s}
	sub, serr := s.RunPipe(context.Background(), pipe, mem)
	if (err == nil) != (serr == nil) || (err != nil && err.Error() != serr.Error()) {
		t.Fatalf("%s: the plain run fails with %v, the subset run with %v", pipe, err, serr)
	}
	if err != nil {
		return plain, err
	}
	a, _ := json.Marshal(plain.Output)
	b, _ := json.Marshal(sub.Output)
	if string(a) != string(b) {
		t.Fatalf("%s: plain run %s\nsubset run %s", pipe, a, b)
	}
	return plain, nil
}
