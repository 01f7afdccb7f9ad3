package engine

import (
	"io"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/internal/vops"

	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/policy"
)

// Prepared is render data copied in once (Environment.Prepare) and
// rendered from any number of times (Template.RenderPrepared), from any
// number of goroutines: a template rendered for every item of a batch
// pays the copy of the shared data once, not once per render.
//
// A Prepared is immutable. It holds its own copy of the data, so it never
// observes later changes to the caller's maps and slices; WithPath
// returns a new Prepared and leaves the receiver as it was; and nothing a
// render does changes it: templates cannot mutate containers, and every
// cache a render would fill lazily on a shared container is filled when
// the data is copied in (value.Seal), so concurrent renders only read it.
//
// The nil *Prepared is the empty context.
type Prepared struct {
	// data is the top-level dict, never seen by templates as a value (a
	// name is looked up in it), so only its values are sealed.
	data *value.DictData
	// entries is what copy-in counted for the whole graph, which
	// value.MaxGraphEntries bounds across updates too.
	entries int
	// bytes is the string bytes copy-in counted for the whole graph,
	// which value.MaxGraphBytes bounds across updates too.
	bytes int64
}

// MaxPathSegments bounds the path of Prepared.WithPath: a value deeper
// than that would pass the copy-in depth ceiling (value.MaxDepth).
const MaxPathSegments = value.MaxDepth

// Prepare copies data in, under the same ceilings as a render's copy-in
// (the one code path, copyData: value.MaxContainerEntries and
// value.MaxGraphEntries entries, value.MaxDepth levels), and returns it
// as a Prepared. Later changes to data have no effect on it. A refused
// copy is a type error naming the path, as a render's is.
//
// data is render data (Template.Execute): a map[string]any (godata.Map
// makes one of a struct), a *value.OrderedMap or nil.
func (e *Environment) Prepare(data any) (*Prepared, error) {
	p, err := e.prepare(data)
	return p, public(err)
}

func (e *Environment) prepare(data any) (*Prepared, error) {
	var c copied
	var err error
	if m, ok := data.(map[string]any); ok || data == nil {
		cp := copiers.Get().(*value.Copier)
		c, err = copyData(cp, nil, m, nil, nil)
		copiers.Put(cp)
	} else {
		_, c, err = copyAny(data)
	}
	if err != nil {
		return nil, err
	}
	for _, v := range c.d.Values() {
		value.Seal(v)
	}
	return &Prepared{data: c.d, entries: c.entries, bytes: c.bytes}, nil
}

// Len returns the number of top-level names the context binds.
func (c *Prepared) Len() int {
	if c == nil {
		return 0
	}
	return c.data.Len()
}

// CheckPath applies the rules of a data path outside templates to its
// segments: an empty path or segment is a syntax error, a segment that
// starts with an underscore is a security error (an underscore name is
// private: a template cannot read it, so no path may write it either).
func CheckPath(path []string) error { return public(checkPath(path)) }

func checkPath(path []string) error {
	if len(path) == 0 {
		return errs.New(errs.Syntax, "empty path")
	}
	for _, s := range path {
		if s == "" {
			return errs.New(errs.Syntax, "path "+errs.Quote(strings.Join(path, "."))+" has an empty segment")
		}
	}
	for _, s := range path {
		if policy.IsPrivateName(s) {
			return errs.New(errs.Security, "path segment "+errs.Quote(s)+" starts with an underscore: private names are not readable")
		}
	}
	return nil
}

// WithPath returns a new context in which the value at path is x (copied
// in), replaced or added, and everything else is shared with c: only the
// containers on the path are copied, so an update costs the copy of x,
// the length of each container it passes through and a walk of the
// top-level value it lands in (sealed again for concurrent renders),
// however large the rest of the data is. Binding one item per render at
// a top-level name (the batch case) costs the copy of the item and of
// the list of top-level names.
//
// path[0] is a top-level name; each later segment is a key of a dict, or
// the index of an item of a list (digits, within its length: a list
// never grows). Only the last segment may be missing (it is then added,
// last in its dict). The path follows CheckPath and has at most
// MaxPathSegments segments; x is copied under the copy-in ceilings, the
// entries of the whole context counted (those of the value it replaces
// taken out). A refused update returns an error and leaves c as it was:
// c is never changed.
func (c *Prepared) WithPath(path []string, x any) (*Prepared, error) {
	p, err := c.withPath(path, x)
	return p, public(err)
}

func (c *Prepared) withPath(path []string, x any) (*Prepared, error) {
	if len(path) > MaxPathSegments {
		return nil, errs.New(errs.Type, "cannot copy data at a path of "+strconv.Itoa(len(path))+" segments: a path has at most "+strconv.Itoa(MaxPathSegments))
	}
	if err := checkPath(path); err != nil {
		return nil, err
	}
	var root *value.DictData
	entries, nbytes := 0, int64(0)
	if c != nil {
		root, entries, nbytes = c.data, c.entries, c.bytes
	}
	if root == nil {
		// the nil (or zero) context is the empty one
		root = value.NewDict(0)
	}
	// Walk first: the containers on the path, and what is replaced.
	chain := vmem.Fresh(make([]value.Value, 0, len(path)))
	cur := value.FromDict(root)
	var old value.Value
	found := false
	for i, seg := range path {
		chain = append(chain, cur)
		var ok bool
		switch cur.Kind() {
		case value.Dict:
			old, ok = cur.DictData().GetStr(seg)
		case value.List:
			var j int
			if j, ok = listIndex(seg, len(cur.Items())); ok {
				old = cur.Items()[j]
			}
			if !ok && i == len(path)-1 {
				return nil, errs.New(errs.Undefined, "path "+errs.Quote(strings.Join(path, "."))+": "+errs.Quote(strings.Join(path[:i], "."))+" has no item "+errs.Quote(seg)+" (a list never grows)")
			}
		default:
			return nil, errs.New(errs.Type, "path "+errs.Quote(strings.Join(path, "."))+": "+errs.Quote(strings.Join(path[:i], "."))+" is a "+cur.TypeName()+", not a dict or a list")
		}
		if !ok && i < len(path)-1 {
			return nil, errs.New(errs.Undefined, "path "+errs.Quote(strings.Join(path, "."))+": "+errs.Quote(strings.Join(path[:i+1], "."))+" is not defined")
		}
		found = ok
		cur = old
	}
	// The graph's entries: the replaced value's out; a key added below
	// the top level is one more entry of its dict (the top-level dict's
	// own keys are not counted, as in a render's copy-in).
	base, baseBytes := entries, nbytes
	if found {
		base = max(0, base-vops.GraphEntries(old))
		baseBytes = max(0, baseBytes-vops.GraphBytes(old))
	} else {
		if len(path) > 1 {
			base++
		}
		baseBytes += int64(len(path[len(path)-1]))
	}
	if !found && len(path) == 1 && root.Len() >= value.MaxContainerEntries {
		return nil, errs.New(errs.Type, "cannot copy data at "+errs.Quote(path[0])+": the top-level mapping has "+strconv.Itoa(value.MaxContainerEntries)+" entries, its most")
	}
	var cp value.Copier
	cp.Join(base)
	if err := cp.JoinBytes(baseBytes); err != nil {
		return nil, err
	}
	nv, err := cp.CopyPath(path, x)
	if err != nil {
		return nil, err
	}
	// Rebuild the path bottom-up: each container on it is copied with
	// one slot changed; everything else is shared.
	for i := len(path) - 1; i >= 0; i-- {
		nv = withSlot(chain[i], path[i], nv)
	}
	d := nv.DictData()
	top, _ := d.GetStr(path[0])
	value.Seal(top)
	return &Prepared{data: d, entries: cp.Entries(), bytes: cp.Bytes()}, nil
}

// listIndex parses a list index segment: digits, below n.
func listIndex(seg string, n int) (int, bool) {
	if !allDigits(seg) || len(seg) > 9 {
		return 0, false
	}
	j, err := strconv.Atoi(seg)
	if err != nil || j >= n {
		return 0, false
	}
	return j, true
}

// withSlot returns a copy of the container c (a dict, or a list whose
// index seg is valid) with seg set to v.
func withSlot(c value.Value, seg string, v value.Value) value.Value {
	if c.Kind() == value.List {
		j, _ := listIndex(seg, len(c.Items()))
		items := vmem.Append([]value.Value(nil), c.Items()...)
		items[j] = v
		return value.NewList(items)
	}
	src := c.DictData()
	d := value.NewDict(src.Len() + 1)
	d.Update(src)
	d.SetStr(seg, v)
	return value.FromDict(d)
}

// RenderPrepared renders the template from a prepared context with
// per-render options and reports the units spent: the same output, error
// and units as RenderResult with the data the context holds, without the
// copy.
func (t *Template) RenderPrepared(c *Prepared, ro RenderOptions) (Result, error) {
	if c == nil {
		c = &Prepared{}
	}
	res, err := t.render(c, nil, &ro, nil)
	return res, public(err)
}

// RenderTo renders the template from a prepared context and writes the
// output to w, returning the units spent. The render is fail-stop as
// every render is: the output is buffered and written only once the
// render has succeeded, so on a refused render w sees nothing and the
// error is the render's. A small output is one Write; a large one is one
// Write per chunk of the buffer (a 3 MB output about 15), never joined
// into one more copy first: a writer that needs the output whole should
// buffer it (or use RenderPrepared, which returns one string). An error from w is returned as
// it is, with the units spent. Static text is copied once, into the
// buffer, which the engine recycles: a render to a writer allocates no
// output of its own (w must not keep the slice it is given, as
// io.Writer says). The nil context is the empty one.
func (t *Template) RenderTo(w io.Writer, c *Prepared, ro RenderOptions) (units int64, err error) {
	if c == nil {
		c = &Prepared{}
	}
	// a refused render returns no units (Result{}); a writer's error
	// comes with the render's
	res, err := t.render(c, nil, &ro, w)
	return res.Units, public(err)
}
