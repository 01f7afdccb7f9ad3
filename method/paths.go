package method

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/internal/msgtext"
	"github.com/jinjabox/jinjabox/method/templating"
)

// Paths outside templates (a construct's from and list_to_dict_keyed_by,
// a batch list, image references) are dotted names walked one segment at
// a time over plain data. They obey the template policy: a segment
// starting with "_" is refused, both when the bundle is validated
// (ParsePath) and again when the path is walked, even where a plain dict
// holds that key. Error kinds: syntax (not a dotted path), security
// (underscore segment), undefined (a segment the data lacks), render (a
// list was needed).

// ParsePath splits a dotted path and checks every segment: empty path or
// segment is syntax, an underscore segment is security.
func ParsePath(path string) ([]string, error) {
	if path == "" {
		return nil, engine.NewError(engine.KindSyntax, "empty path")
	}
	segs := strings.Split(path, ".")
	// the engine's path rules (a prepared context's updates follow them)
	if err := engine.CheckPath(segs); err != nil {
		return nil, err
	}
	return segs, nil
}

// WalkPath reads the dotted path over root: plain JSON-shaped data
// (map[string]any, *value.OrderedMap, []any with digit segments) or the
// declared fields of a typed input (an image's url and caption).
func WalkPath(root any, path string) (any, error) {
	segs, err := ParsePath(path)
	if err != nil {
		return nil, err
	}
	cur := root
	for i, s := range segs {
		next, ok := step(cur, s)
		if !ok {
			return nil, engine.NewError(engine.KindUndefined, "path "+msgtext.Quote(path)+": "+msgtext.Quote(strings.Join(segs[:i], "."))+" has no "+msgtext.Quote(s))
		}
		cur = next
	}
	return cur, nil
}

// step reads one segment; the underscore rule has already run.
func step(cur any, seg string) (any, bool) {
	switch t := cur.(type) {
	case map[string]any:
		v, ok := t[seg]
		return v, ok
	case *value.OrderedMap:
		for i, k := range t.Keys {
			if k == seg {
				return t.Values[i], true
			}
		}
	case []any:
		if seg != "" && strings.Trim(seg, "0123456789") == "" && len(seg) < 10 {
			n := 0
			for _, d := range seg {
				n = n*10 + int(d-'0')
			}
			if n < len(t) {
				return t[n], true
			}
		}
	case *templating.ImageContent:
		switch seg {
		case "url":
			return t.URL, true
		case "caption":
			return t.Caption, true
		}
	}
	return nil, false
}

// WalkList walks a path that must lead to a list (a batch list).
func WalkList(root any, path string) ([]any, error) {
	v, err := WalkPath(root, path)
	if err != nil {
		return nil, err
	}
	l, ok := v.([]any)
	if !ok {
		return nil, engine.NewError(engine.KindRender, "path "+msgtext.Quote(path)+" does not lead to a list")
	}
	return l, nil
}

// ListToDictKeyedBy walks path to a list and returns an ordered dict of
// its items keyed by the text of the dotted key path read on each item.
// A later item with the same key replaces the earlier value in place.
func ListToDictKeyedBy(root any, path, key string) (*value.OrderedMap, error) {
	if _, err := ParsePath(key); err != nil {
		return nil, err
	}
	items, err := WalkList(root, path)
	if err != nil {
		return nil, err
	}
	out := &value.OrderedMap{}
	index := map[string]int{}
	for _, it := range items {
		k, err := WalkPath(it, key)
		if err != nil {
			return nil, err
		}
		ks, err := keyText(k)
		if err != nil {
			return nil, err
		}
		if j, ok := index[ks]; ok {
			out.Values[j] = it
			continue
		}
		index[ks] = len(out.Keys)
		out.Keys = append(out.Keys, ks)
		out.Values = append(out.Values, it)
	}
	return out, nil
}

// keyText is a key's text as a template would print it (Python's str).
func keyText(k any) (string, error) {
	switch t := k.(type) {
	case string:
		return t, nil
	case json.Number:
		return t.String(), nil
	}
	v, err := engine.ToValue(k)
	if err != nil {
		return "", err
	}
	return value.ToString(v), nil
}

// errKind returns the engine error kind of err, or 0.
func errKind(err error) engine.ErrorKind {
	var e *engine.Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}
