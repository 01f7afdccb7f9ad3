package method

import (
	"context"
	"fmt"
	"maps"
	"sync"
)

// PipeFunc runs a Go function the application registers, by name: trusted
// code, like a registered filter. A method names it (function_name) and
// cannot reach anything else. An unregistered name is a validation error
// when the validation is given the registry (ValidateOptions.Funcs), and
// fails the run otherwise.

// FuncCall is what a registered function receives.
type FuncCall struct {
	// Pipe is the calling pipe's code.
	Pipe string
	// Inputs are the pipe's declared inputs present in memory, by name.
	Inputs map[string]Stuff
	// Memory is the whole working memory (read-only: Memory is a
	// persistent value).
	Memory *Memory
	// Output is the pipe's output concept spec.
	Output string
}

// Func computes a pipe's output content: plain JSON-shaped data
// (*value.OrderedMap, map[string]any, []any, string, numbers, bools);
// a string for a Text output. Under Temporal it runs where the runner
// runs, so it must be deterministic there (or be wrapped as an activity).
type Func func(ctx context.Context, call FuncCall) (any, error)

// FuncRegistry maps function names to functions. It is safe for
// concurrent use.
type FuncRegistry struct {
	mu    sync.RWMutex
	funcs map[string]Func
}

// NewFuncRegistry returns an empty registry.
func NewFuncRegistry() *FuncRegistry { return &FuncRegistry{funcs: map[string]Func{}} }

// DefaultFuncs is the registry a Runner without Funcs uses.
var DefaultFuncs = NewFuncRegistry()

// Register adds a function; a name is registered once.
func (r *FuncRegistry) Register(name string, f Func) error {
	if name == "" || f == nil {
		return fmt.Errorf("register func: a name and a function are required")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.funcs[name]; dup {
		return fmt.Errorf("register func: %q is already registered", name)
	}
	r.funcs[name] = f
	return nil
}

// Clone returns a registry with r's functions, to which more can be
// registered without changing r.
func (r *FuncRegistry) Clone() *FuncRegistry {
	c := NewFuncRegistry()
	if r == nil {
		return c
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	//workflowcheck:ignore a copy into a map is the same map in any order
	maps.Copy(c.funcs, r.funcs)
	return c
}

// Lookup returns the named function.
func (r *FuncRegistry) Lookup(name string) (Func, bool) {
	if r == nil {
		return nil, false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	f, ok := r.funcs[name]
	return f, ok
}

// RegisterFunc registers f in DefaultFuncs.
func RegisterFunc(name string, f Func) error { return DefaultFuncs.Register(name, f) }
