// Package dataformat decodes the data of a render from the formats the
// CLI and the playground read: JSON, YAML and TOML, each an object whose
// keys are the template's names. It is the host side of the boundary:
// what it returns, the engine copies in under its ceilings.
package dataformat

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/godata"
	"github.com/jinjabox/jinjabox/internal/casecheck"
	toml "github.com/pelletier/go-toml/v2"
	"go.yaml.in/yaml/v3"
)

// Formats are the formats of a render's data file (--format), as
// minijinja-cli names them; auto picks one by the file's extension.
var Formats = []string{"auto", "json", "yaml", "toml"}

// FormatOf resolves --format for the data file at path: auto picks by
// extension (.json, .yaml/.yml, .toml). Data on stdin ("-") has no
// extension: minijinja-cli then requires --format, jinjabox reads JSON
// (a choice: JSON is what the rest of jinjabox reads).
func FormatOf(format, path string) (string, error) {
	switch format {
	case "json", "yaml", "toml":
		return format, nil
	case "", "auto":
	default:
		return "", fmt.Errorf("unknown --format %q (want one of %s)", format, strings.Join(Formats, ", "))
	}
	if path == "-" {
		return "json", nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		return "json", nil
	case ".yaml", ".yml":
		return "yaml", nil
	case ".toml":
		return "toml", nil
	}
	return "", fmt.Errorf("%s: cannot tell the data format from the extension; name it with --format json, yaml or toml", path)
}

// Decode decodes a render's data in format: an object (a mapping, a
// table) whose keys are the template's names. Object keys keep their
// order for JSON and YAML (a Python dict's insertion order, as json.load
// and yaml.safe_load give it); a TOML table's keys are sorted (the TOML
// decoder keeps no order).
func Decode(raw []byte, format string) (map[string]any, error) {
	switch format {
	case "json":
		return casecheck.DecodeObject(raw)
	case "yaml":
		return decodeYAML(raw)
	case "toml":
		var m map[string]any
		if err := toml.Unmarshal(raw, &m); err != nil {
			return nil, err
		}
		// dates and times become their TOML text (godata: their
		// TextMarshaler), integers int64
		return godata.Map(m)
	}
	return nil, fmt.Errorf("unknown data format %q", format)
}

// decodeYAML decodes one YAML document into ordered data. Aliases are
// expanded as the document is walked, counted against the engine's
// copy-in entry ceiling, so an alias bomb ("billion laughs") is refused
// after value.MaxGraphEntries entries, not expanded.
func decodeYAML(raw []byte) (map[string]any, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) { // an empty document
			return map[string]any{}, nil
		}
		return nil, err
	}
	y := yamlWalker{}
	v, err := y.node(&doc, 0)
	if err != nil {
		return nil, err
	}
	switch t := v.(type) {
	case nil:
		return map[string]any{}, nil
	case *value.OrderedMap:
		m := make(map[string]any, len(t.Keys))
		for i, k := range t.Keys {
			m[k] = t.Values[i]
		}
		return m, nil
	}
	return nil, errors.New("the data must be a YAML mapping at the top")
}

type yamlWalker struct{ entries int }

func (y *yamlWalker) node(n *yaml.Node, depth int) (any, error) {
	if depth > value.MaxDepth {
		return nil, fmt.Errorf("yaml: line %d: nested deeper than %d levels (or a cyclic alias)", n.Line, value.MaxDepth)
	}
	y.entries++
	if y.entries > value.MaxGraphEntries {
		return nil, fmt.Errorf("yaml: line %d: data has more than %d entries (aliases expanded)", n.Line, value.MaxGraphEntries)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return y.node(n.Content[0], depth)
	case yaml.AliasNode:
		return y.node(n.Alias, depth+1)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := y.node(c, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		om := &value.OrderedMap{}
		idx := map[string]int{}
		set := func(k string, v any, override bool) {
			if i, ok := idx[k]; ok {
				if override {
					om.Values[i] = v
				}
				return
			}
			idx[k] = len(om.Keys)
			om.Keys = append(om.Keys, k)
			om.Values = append(om.Values, v)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, vn := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
				// a merge key (<<): the merged mappings' keys, those
				// the mapping sets itself winning
				merged, err := y.node(vn, depth+1)
				if err != nil {
					return nil, err
				}
				for _, m := range mergeList(merged) {
					for j, mk := range m.Keys {
						set(mk, m.Values[j], false)
					}
				}
				continue
			}
			if k.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("yaml: line %d: a mapping key must be a scalar", k.Line)
			}
			v, err := y.node(vn, depth+1)
			if err != nil {
				return nil, err
			}
			// a key is its text: 1 and "1" are one name
			set(k.Value, v, true)
		}
		return om, nil
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return nil, nil
		case "!!bool", "!!int", "!!float":
			var v any
			if err := n.Decode(&v); err != nil {
				return nil, err
			}
			if u, ok := v.(uint64); ok {
				return strconv.FormatUint(u, 10), nil // wider than int64: its text
			}
			return v, nil
		case "!!timestamp":
			var t time.Time
			if err := n.Decode(&t); err == nil {
				return n.Value, nil // its text: the engine has no datetime
			}
		}
		return n.Value, nil
	}
	return nil, fmt.Errorf("yaml: line %d: unsupported node", n.Line)
}

// mergeList is the mappings a merge key names: one, or a list of them.
func mergeList(v any) []*value.OrderedMap {
	switch t := v.(type) {
	case *value.OrderedMap:
		return []*value.OrderedMap{t}
	case []any:
		var out []*value.OrderedMap
		for _, e := range t {
			if m, ok := e.(*value.OrderedMap); ok {
				out = append(out, m)
			}
		}
		return out
	}
	return nil
}
