package value

import (
	"encoding/json"
	"errors"
	"strconv"
)

// Export returns v as plain Go data, the way back from a template's value
// (Template.RenderValue) to Go: nil, bool, int64, float64, string,
// []any for a list or tuple, and map[string]any for a dict whose keys
// are strings (the shapes encoding/json decodes to, with int64 for an
// int). A safe string (Markup) is its text. An undefined value, a dict
// with a key that is not a string, a callable or an object is an error
// naming where it is.
func (v Value) Export() (any, error) { return export(v, "<root>", 0) }

// Decode stores v in the Go value dst points to, as json.Unmarshal would
// store v's JSON (Export, then encoding/json's rules: struct tags,
// numbers into any numeric field).
func (v Value) Decode(dst any) error {
	x, err := v.Export()
	if err != nil {
		return err
	}
	b, err := json.Marshal(x)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, dst)
}

func export(v Value, at string, depth int) (any, error) {
	if depth > MaxDepth {
		return nil, errors.New("value: cannot export " + at + ": nested deeper than " + strconv.Itoa(MaxDepth) + " levels")
	}
	switch v.k {
	case None:
		return nil, nil
	case Bool:
		return v.Bool(), nil
	case Int:
		return v.Int(), nil
	case Float:
		return v.Float(), nil
	case String:
		return v.Str(), nil
	case List, Tuple:
		items := v.Items()
		//scratch:ok host side: Export copies a render's result out, after the render; the budget bounded that result
		out := make([]any, len(items))
		for i, it := range items {
			x, err := export(it, at+"["+strconv.Itoa(i)+"]", depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case Dict:
		d := v.DictData()
		//scratch:ok host side: Export copies a render's result out, after the render; the budget bounded that result
		out := make(map[string]any, d.Len())
		for i, k := range d.Keys() {
			if k.k != String {
				return nil, errors.New("value: cannot export " + at + ": a dict key of type " + k.k.String() + " (Go maps from templates have string keys)")
			}
			x, err := export(d.Values()[i], at+"."+k.s, depth+1)
			if err != nil {
				return nil, err
			}
			out[k.s] = x
		}
		return out, nil
	}
	return nil, errors.New("value: cannot export " + at + ": a value of type " + v.k.String() + " is not data")
}
