package method

import (
	"errors"
	"strconv"

	"github.com/jinjabox/jinjabox/engine/value"
)

// PipeFunc: a Go function the application registers (funcs.go) computes
// the output from the pipe's inputs.

// FuncFields are PipeFunc's own fields.
type FuncFields struct {
	// FunctionName names a function registered in a FuncRegistry.
	FunctionName string `json:"function_name,omitempty"`
}

var kindFunc = &Kind{
	Name: KindFunc,
	Keys: []string{"function_name"},
	fields: func(p *Pipe) []string {
		var s set
		s.add("function_name", p.FunctionName != "")
		return s
	},
	check: checkFunc,
	// The function receives the working memory (FuncCall.Memory), as in
	// Pipelex: it may read any stuff.
	reads: func(c *readCtx) { c.s.all = true },
	run:   runFunc,
}

// checkFunc: function_name is required (PipeFuncBlueprint), and names a
// registered function (PipeFunc.validate_function_name, run when Pipelex
// builds the pipe) when the validation is given the registry.
func checkFunc(c *pipeCheck) {
	name := c.p.FunctionName
	switch {
	case name == "":
		c.add("function_name", CodeInvalidPipe, "function_name is required")
	case c.v.opts.Funcs != nil:
		if _, ok := c.v.opts.Funcs.Lookup(name); !ok {
			c.add("function_name", CodeInvalidPipe, "function "+strconv.Quote(name)+" is not registered")
		}
	}
}

// funcPipe calls the registered function with the pipe's inputs.
func runFunc(x *invocation) (*Stuff, []Stuff, error) {
	p := x.p
	reg := x.s.r.Funcs
	if reg == nil {
		reg = DefaultFuncs
	}
	f, ok := reg.Lookup(p.FunctionName)
	if !ok {
		return nil, nil, x.fail("function_name", &UnavailableError{What: "function", Name: p.FunctionName})
	}
	call := FuncCall{Pipe: x.code(), Inputs: map[string]Stuff{}, Memory: x.mem, Output: p.outputOr(ConceptAnything)}
	for _, in := range p.InputNames() {
		if st, ok := x.mem.Get(in); ok {
			call.Inputs[in] = st
		}
	}
	res, err := f(x.s.ctx, call)
	if err != nil {
		return nil, nil, x.fail("function_name", &FuncError{Func: p.FunctionName, Err: err})
	}
	content, err := plainContent(res)
	if err != nil {
		return nil, nil, x.fail("function_name", &FuncError{Func: p.FunctionName, Err: err})
	}
	content = x.concepts().Normalize(call.Output, content)
	if err := x.checkCount(call.Output, content); err != nil {
		return nil, nil, err
	}
	return x.stuff(call.Output, content), nil, nil
}

// FuncError is a registered function's failure.
// UnavailableError is a run that needs what the process running it does
// not have: a method that is not installed (What "method", Name its
// address) or a function that is not registered (What "function"). It is
// its own failure type on Temporal (failure.ErrTypeMissingMethod,
// ErrTypeMissingFunction), never a template's render error.
type UnavailableError struct {
	What string
	Name string
}

func (e *UnavailableError) Error() string {
	if e.What == "method" {
		return "method " + strconv.Quote(e.Name) + " is not installed"
	}
	return "function " + strconv.Quote(e.Name) + " is not registered on this worker"
}

// FuncError is a registered function's own failure.
type FuncError struct {
	Func string
	Err  error
}

func (e *FuncError) Error() string { return "function " + strconv.Quote(e.Func) + ": " + e.Err.Error() }

// Unwrap returns the function's error.
func (e *FuncError) Unwrap() error { return e.Err }

// plainContent turns a function result into memory content: ordered maps
// stay, Go maps become ordered maps in key order (determinism), and
// anything that is not JSON-shaped is refused.
func plainContent(x any) (any, error) {
	switch t := x.(type) {
	case nil, string, bool, int64, float64:
		return t, nil
	case int:
		return int64(t), nil
	case *value.OrderedMap:
		out := &value.OrderedMap{Keys: t.Keys, Values: make([]any, len(t.Values))}
		for i, v := range t.Values {
			c, err := plainContent(v)
			if err != nil {
				return nil, err
			}
			out.Values[i] = c
		}
		return out, nil
	case map[string]any:
		out := &value.OrderedMap{}
		for _, k := range sortedKeys(t) {
			c, err := plainContent(t[k])
			if err != nil {
				return nil, err
			}
			out.Keys = append(out.Keys, k)
			out.Values = append(out.Values, c)
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, v := range t {
			c, err := plainContent(v)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case []string:
		out := make([]any, len(t))
		for i, v := range t {
			out[i] = v
		}
		return out, nil
	}
	return nil, errors.New("result is not JSON-shaped data")
}
