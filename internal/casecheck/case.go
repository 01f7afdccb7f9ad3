// Package casecheck loads the JSONL case files (the format of
// testsuite/testdata/shared/conformance/README.md: template, context,
// options, expected output or error kind) and checks each case against the
// engine. `jinjabox check` and the go tests (testsuite, engine/internal/builtins,
// workflows) all use it, so a case means the same thing wherever it runs.
// It is internal: the case format is the project's test format, not an
// API.
package casecheck

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/internal/casecheck/fixtures"
	"github.com/jinjabox/jinjabox/method/templating"
)

// Case is one line of a corpus file. The same struct holds template cases
// (Template set) and the dotted-path cases of hostile/paths.jsonl (Field
// and Path set, no template); Type tells them apart.
type Case struct {
	ID       string          `json:"id"`
	Template *string         `json:"template"`
	Context  json.RawMessage `json:"context"`
	Options  CaseOptions     `json:"options"`
	Expect   Expect          `json:"expect"`
	// Needs names the Go fixture a typed case requires (typed-cases.jsonl).
	Needs string `json:"needs"`
	// Field, Path and Key are set on paths.jsonl cases.
	Field string `json:"field"`
	Path  string `json:"path"`
	Key   string `json:"key"`
	Note  string `json:"note"`

	// File and Line locate the case for messages; not part of the JSON.
	File string `json:"-"`
	Line int    `json:"-"`
}

// CaseOptions are the render options a case may set. Pointer fields tell
// "absent" from an explicit zero, which matters for limits (an explicit
// work_units of 0 is a real, tiny budget, not "use the default").
type CaseOptions struct {
	Autoescape          bool              `json:"autoescape"`
	TrimBlocks          bool              `json:"trim_blocks"`
	LstripBlocks        bool              `json:"lstrip_blocks"`
	KeepTrailingNewline bool              `json:"keep_trailing_newline"`
	BudgetUnits         *int64            `json:"budget_units"`
	Limits              map[string]*int64 `json:"limits"`
	Templates           map[string]string `json:"templates"`
}

// Expect is the required outcome: exactly one of Output, Error (a kind
// name) or, for path cases, Value.
type Expect struct {
	Output      *string         `json:"output"`
	Error       string          `json:"error"`
	PythonError string          `json:"python_error"`
	Value       json.RawMessage `json:"value"`
	// AnyOutput is set by `"output": null`: the render must succeed, its
	// text is not checked (a typed case that only bounds the work).
	AnyOutput bool `json:"-"`
}

// UnmarshalJSON tells `"output": null` (any successful render) from an
// absent output, which encoding/json alone maps to the same nil pointer.
func (e *Expect) UnmarshalJSON(b []byte) error {
	type plain Expect
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		return err
	}
	if raw, ok := keys["output"]; ok && string(bytes.TrimSpace(raw)) == "null" {
		p.AnyOutput = true
	}
	*e = Expect(p)
	return nil
}

// Type classifies a case by how the harness treats it.
type Type int

// Case types.
const (
	// TemplateCase is rendered and compared.
	TemplateCase Type = iota
	// TypedCase needs a Go fixture for a non-JSON input type; it is skipped
	// unless Fixtures has one for its Needs.
	TypedCase
	// PathCase is a dotted data path (hostile/paths.jsonl); the harness has
	// no path walker yet, so it is skipped.
	PathCase
)

// Type reports how the harness treats c.
func (c *Case) Type() Type {
	switch {
	case c.Template == nil:
		return PathCase
	case c.Needs != "":
		return TypedCase
	}
	return TemplateCase
}

// Source returns the template source ("" for path cases).
func (c *Case) Source() string {
	if c.Template == nil {
		return ""
	}
	return *c.Template
}

// LoadFile reads a JSONL corpus file.
func LoadFile(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cases, err := Load(f, path)
	if err != nil {
		return nil, err
	}
	return cases, nil
}

// maxLine bounds one JSONL line; the largest shared case is well under
// this, and a bound keeps a corrupt file from exhausting memory.
const maxLine = 64 << 20

// Load reads JSONL cases from r; name is used in messages and Case.File.
// Blank lines are ignored; any malformed line is an error, since silently
// dropping a case would inflate the pass rate.
func Load(r io.Reader, name string) ([]Case, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), maxLine)
	var cases []Case
	seen := map[string]int{}
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var c Case
		if err := json.Unmarshal(line, &c); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		if c.ID == "" {
			return nil, fmt.Errorf("%s:%d: case without id", name, n)
		}
		if prev, dup := seen[c.ID]; dup {
			return nil, fmt.Errorf("%s:%d: duplicate id %q (first at line %d)", name, n, c.ID, prev)
		}
		seen[c.ID] = n
		if c.Template != nil && c.Expect.Output == nil && !c.Expect.AnyOutput && c.Expect.Error == "" {
			return nil, fmt.Errorf("%s:%d: case %s expects neither output nor error", name, n, c.ID)
		}
		c.File, c.Line = name, n
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return cases, nil
}

// Fixtures maps a typed case's `needs` name to a function that rewrites
// the decoded context into the host values the case is about (a datetime,
// a set, ...). A typed case whose fixture is missing is skipped.
var Fixtures = map[string]func(ctx map[string]any) (map[string]any, error){}

func init() { fixtures.Install(Fixtures) }

// DecodeObject decodes a JSON context object keeping the key order of
// nested objects (a template iterating a dict sees Python's order) and
// numbers exact, then turns {"$stuff": {...}} markers into the engine's
// StuffArtefact surface (P12). Empty input is an empty map.
func DecodeObject(raw []byte) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return map[string]any{}, nil
	}
	v, err := value.DecodeJSON(raw)
	if err != nil {
		return nil, err
	}
	om, ok := v.(*value.OrderedMap)
	if !ok {
		return nil, fmt.Errorf("the context must be a JSON object, not %s", jsonType(v))
	}
	m := make(map[string]any, len(om.Keys))
	for i, k := range om.Keys {
		c, err := convertStuff(om.Values[i])
		if err != nil {
			return nil, err
		}
		m[k] = c
	}
	return m, nil
}

func jsonType(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// convertStuff walks v and replaces every {"$stuff": {...}} object by the
// engine's artefact (see stuffFromMarker).
func convertStuff(v any) (any, error) {
	switch x := v.(type) {
	case *value.OrderedMap:
		if len(x.Keys) == 1 && x.Keys[0] == "$stuff" {
			return stuffFromMarker(x.Values[0])
		}
		for i := range x.Values {
			c, err := convertStuff(x.Values[i])
			if err != nil {
				return nil, err
			}
			x.Values[i] = c
		}
		return x, nil
	case []any:
		for i := range x {
			c, err := convertStuff(x[i])
			if err != nil {
				return nil, err
			}
			x[i] = c
		}
		return x, nil
	}
	return v, nil
}

// stuffFromMarker builds the artefact a case context's marker
// {"$stuff": {"name", "concept", "content_class", "code", "content"}}
// stands for (the hostile README's P12 cases), through the engine's public
// constructor.
func stuffFromMarker(raw any) (*templating.StuffArtefact, error) {
	om, ok := raw.(*value.OrderedMap)
	if !ok {
		return nil, fmt.Errorf("$stuff marker must hold an object, not %s", jsonType(raw))
	}
	str := func(k string) string {
		for i, key := range om.Keys {
			if key == k {
				s, _ := om.Values[i].(string)
				return s
			}
		}
		return ""
	}
	var content any
	for i, key := range om.Keys {
		if key == "content" {
			content = om.Values[i]
		}
	}
	return templating.NewStuffArtefact(str("name"), str("concept"), str("content_class"), str("code"), content)
}

// Bound shortens s to about n bytes for a one-line report, quoting it so
// control characters and trailing spaces stay visible.
func Bound(s string, n int) string {
	if len(s) > n {
		cut := n
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		return fmt.Sprintf("%q... (%d bytes)", s[:cut], len(s))
	}
	return fmt.Sprintf("%q", s)
}

// KindsMatch applies the corpus matching rule: kinds must be equal, except
// that "type" and "render" match each other.
func KindsMatch(want, got string) bool {
	norm := func(k string) string {
		k = strings.ToLower(k)
		if k == "type" {
			return "render"
		}
		return k
	}
	return norm(want) == norm(got)
}
