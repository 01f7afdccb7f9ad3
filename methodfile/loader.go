// Package methodfile loads Pipelex method files (.mthds, and the older
// .plx) and assembles them into a library as Pipelex does: files or
// directories on the command line, library directories (-L), domains that
// merge across files, and installed methods reached by address
// (library.go, installed.go). Each file is converted to a method.Bundle;
// the library is validated by package method, and every problem names
// the file, the line (and column), the pipe and the field, also for
// problems inside a template. One load reports all of them.
//
// The TOML library is github.com/pelletier/go-toml/v2: its decoder
// checks TOML 1.0 and reports the position of a syntax error, and its
// parser AST (package unstable) keeps the source range of every key and
// value and their order, which the loader needs to put a line on every
// problem and to keep a construct's or a structure's fields in order.
package methodfile

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/method/templating"
)

// parseBundle converts the TOML method file data (name is its path, in
// problems) into a bundle, without validating its meaning: the problems
// are the file's shape only (TOML syntax, unknown keys, wrong types,
// malformed names). It returns nil when the file is not TOML.
func parseBundle(name string, data []byte) (*method.Bundle, *loader) {
	l := &loader{file: name, at: map[string]fieldPos{}, legacy: isLegacy(name)}
	if l.legacy {
		l.probs = append(l.probs, legacyNotice(name))
	}
	root, err := parseDoc(data)
	if err != nil {
		se := err.(*SyntaxError)
		l.probs = append(l.probs, &method.Problem{File: name, Line: se.Line, Col: se.Col, Code: method.CodeTOML, Message: se.Message})
		return nil, l
	}
	l.method(root)
	return l.m, l
}

// isLegacy reports whether a file is in the older .plx format.
func isLegacy(name string) bool { return strings.EqualFold(filepath.Ext(name), ".plx") }

// legacyNotice is the warning every .plx file gets. The newest Pipelex
// recognises .mthds files only (mthds_parsing/helpers.py,
// is_pipelex_file: suffix == MTHDS_EXTENSION), so a .plx file it is
// given is no method at all to it, and its library scans pass over one.
// jinjabox still loads them, with the older key names, and says so.
func legacyNotice(name string) *method.Problem {
	return &method.Problem{File: name, Severity: method.SeverityWarning, Code: method.CodeLegacyFormat,
		Message: "legacy .plx file: the newest Pipelex loads .mthds files only; rename it " +
			strings.TrimSuffix(filepath.Base(name), filepath.Ext(name)) + ".mthds (a .mthds file says description, not definition, and prompt, not prompt_template)"}
}

// fieldPos is where a field is: its key, and for a string its text.
type fieldPos struct {
	key      pos
	content  pos
	isString bool
}

// loader converts the document tree, collecting problems.
type loader struct {
	file  string
	m     *method.Bundle
	probs []*method.Problem
	// at locates (pipe, field) pairs, in the field names validation uses.
	at map[string]fieldPos
	// legacy is a .plx file: the older key names are accepted.
	legacy bool
}

func (l *loader) problem(at pos, pipe, field, code, msg string) {
	domain := ""
	if l.m != nil {
		domain = l.m.Domain
	}
	l.probs = append(l.probs, &method.Problem{File: l.file, Line: at.line, Col: at.col, Domain: domain, Pipe: pipe, Field: field, Code: code, Message: msg})
}

// mark records where (pipe, field) is.
func (l *loader) mark(pipe, field string, n *tnode) {
	if n == nil {
		return
	}
	l.at[pipe+"\x00"+field] = fieldPos{key: n.at, content: n.content, isString: n.kind == kString}
}

// place gives a validation problem of this file its file position: the
// field's, and inside a template the template's line and column mapped
// to the file.
func (l *loader) place(p *method.Problem) {
	tl, tc := p.Line, p.Col
	p.Line, p.Col = 0, 0
	fp, ok := l.lookup(p.Pipe, p.Field)
	if !ok {
		return
	}
	p.Line, p.Col = fp.key.line, fp.key.col
	if tl > 0 && fp.isString {
		p.Line = fp.content.line + tl - 1
		p.Col = tc
		if tl == 1 {
			p.Col = fp.content.col + tc - 1
		}
	}
}

// lookup finds a field's position, falling back to shorter field names
// ("steps[1]" -> "steps", "concept X field y" -> "concept X") and then
// to the pipe's table.
func (l *loader) lookup(pipe, field string) (fieldPos, bool) {
	for f := field; ; {
		if fp, ok := l.at[pipe+"\x00"+f]; ok {
			return fp, true
		}
		i := strings.LastIndexAny(f, " [.")
		if i <= 0 {
			break
		}
		f = f[:i]
	}
	fp, ok := l.at[pipe+"\x00"]
	return fp, ok
}

// Typed readers: each reports a wrong type with the field's position.

func (l *loader) str(n *tnode, pipe, field string) (string, bool) {
	if n == nil {
		return "", false
	}
	if n.kind != kString {
		l.problem(n.at, pipe, field, method.CodeType, field+" must be a string, not "+n.kind.String())
		return "", false
	}
	return n.val.(string), true
}

func (l *loader) boolean(n *tnode, pipe, field string) bool {
	if n == nil {
		return false
	}
	if n.kind != kBool {
		l.problem(n.at, pipe, field, method.CodeType, field+" must be a boolean, not "+n.kind.String())
		return false
	}
	return n.val.(bool)
}

func (l *loader) integer(n *tnode, pipe, field string) int {
	if n == nil {
		return 0
	}
	if n.kind != kInteger {
		l.problem(n.at, pipe, field, method.CodeType, field+" must be an integer, not "+n.kind.String())
		return 0
	}
	v := n.val.(int64)
	if v > 1<<31 || v < -(1<<31) {
		l.problem(n.at, pipe, field, method.CodeType, field+" is out of range")
		return 0
	}
	return int(v)
}

func (l *loader) number(n *tnode, pipe, field string) float64 {
	if n == nil {
		return 0
	}
	switch n.kind {
	case kFloat:
		return n.val.(float64)
	case kInteger:
		return float64(n.val.(int64))
	}
	l.problem(n.at, pipe, field, method.CodeType, field+" must be a number, not "+n.kind.String())
	return 0
}

func (l *loader) table(n *tnode, pipe, field string) *tnode {
	if n == nil {
		return nil
	}
	if n.kind != kTable {
		l.problem(n.at, pipe, field, method.CodeType, field+" must be a table, not "+n.kind.String())
		return nil
	}
	return n
}

func (l *loader) strList(n *tnode, pipe, field string) []string {
	if n == nil {
		return nil
	}
	if n.kind != kArray {
		l.problem(n.at, pipe, field, method.CodeType, field+" must be an array of strings, not "+n.kind.String())
		return nil
	}
	out := []string{}
	for i, it := range n.items {
		if s, ok := l.str(it, pipe, field+"["+strconv.Itoa(i)+"]"); ok {
			out = append(out, s)
		}
	}
	return out
}

// strMap reads a table of strings, in key order.
func (l *loader) strMap(n *tnode, pipe, field string) (map[string]string, []string) {
	t := l.table(n, pipe, field)
	if t == nil {
		return nil, nil
	}
	out := map[string]string{}
	for _, k := range t.keys {
		if s, ok := l.str(t.kids[k], pipe, field+"."+k); ok {
			out[k] = s
		}
	}
	return out, t.keys
}

// known reports keys of t outside allowed.
func (l *loader) known(t *tnode, pipe, where string, allowed ...string) {
	for _, k := range t.keys {
		if !slices.Contains(allowed, k) {
			field := k
			if where != "" {
				field = where + "." + k
			}
			l.problem(t.kids[k].at, pipe, field, method.CodeUnknownKey, "unknown key "+strconv.Quote(k)+" in "+whereName(pipe, where))
		}
	}
}

func whereName(pipe, where string) string {
	switch {
	case pipe != "" && where != "":
		return "pipe " + strconv.Quote(pipe) + " " + where
	case pipe != "":
		return "pipe " + strconv.Quote(pipe)
	case where != "":
		return where
	}
	return "the method"
}

// topKeys are a bundle's keys (Pipelex's PipelexBundleBlueprint), with
// templating_style, a jinjabox extension (the default style of tag and
// format); .plx files also take definition, the old name of description.
var topKeys = []string{"domain", "description", "main_pipe", "system_prompt", "concept", "pipe", "templating_style"}

// method converts the top level.
func (l *loader) method(root *tnode) {
	m := &method.Bundle{Source: l.file, Concepts: map[string]*method.Concept{}, Pipes: map[string]*method.Pipe{}}
	l.m = m
	keys := topKeys
	if l.legacy {
		keys = append(slices.Clone(topKeys), "definition")
	}
	l.known(root, "", "", keys...)
	if d, ok := l.str(root.get("domain"), "", "domain"); ok {
		m.Domain = d
		l.mark("", "domain", root.get("domain"))
		if !method.IsSnakeCase(d) {
			l.problem(root.get("domain").at, "", "domain", method.CodeInvalidMethod, "domain "+strconv.Quote(d)+" is not snake_case (dot-separated snake_case segments)")
		}
	} else if root.get("domain") == nil {
		l.problem(pos{1, 1}, "", "domain", method.CodeInvalidMethod, "domain is required")
	}
	m.Description = l.description(root, "")
	if mp, ok := l.str(root.get("main_pipe"), "", "main_pipe"); ok {
		m.MainPipe = mp
		l.mark("", "main_pipe", root.get("main_pipe"))
	}
	if sp := root.get("system_prompt"); sp != nil {
		m.SystemPrompt, _ = l.str(sp, "", "system_prompt")
		l.mark("", "system_prompt", sp)
	}
	if ts := root.get("templating_style"); ts != nil {
		if s := l.style(ts, "", "templating_style"); s != nil {
			m.TemplatingStyle = *s
		}
		l.mark("", "templating_style", ts)
	}
	if c := l.table(root.get("concept"), "", "concept"); c != nil {
		for _, name := range c.keys {
			l.concept(name, c.kids[name])
		}
	}
	if p := l.table(root.get("pipe"), "", "pipe"); p != nil {
		for _, code := range p.keys {
			l.pipe(code, p.kids[code])
		}
	}
	// The domain's system prompt renders in every PipeLLM without one:
	// its problems are that pipe's, at the prompt's place in the file.
	if sp := root.get("system_prompt"); sp != nil {
		for _, code := range sortedCodes(m.Pipes) {
			k, ok := method.KindOf(m.Pipes[code].Type)
			if ok && slices.Contains(k.Keys, "system_prompt") && m.Pipes[code].SystemPrompt == "" {
				l.mark(code, "system_prompt", sp)
			}
		}
	}
}

func sortedCodes[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// description reads description, or in a .plx file its legacy name
// definition.
func (l *loader) description(t *tnode, pipe string) string {
	d, _ := l.str(t.get("description"), pipe, "description")
	if !l.legacy {
		return d
	}
	if def, ok := l.str(t.get("definition"), pipe, "definition"); ok {
		if t.get("description") != nil {
			l.problem(t.get("definition").at, pipe, "definition", method.CodeInvalidPipe, "definition is the old name of description; give one")
		}
		d = def
	}
	return d
}

// style reads a templating style: a tag style string, or a table with
// tag_style and text_format.
func (l *loader) style(n *tnode, pipe, field string) *templating.Style {
	switch n.kind {
	case kString:
		return &templating.Style{TagStyle: templating.TagStyle(n.val.(string))}
	case kTable:
		l.known(n, pipe, field, "tag_style", "text_format")
		s := &templating.Style{}
		if v, ok := l.str(n.get("tag_style"), pipe, field+".tag_style"); ok {
			s.TagStyle = templating.TagStyle(v)
		}
		if v, ok := l.str(n.get("text_format"), pipe, field+".text_format"); ok {
			s.TextFormat = templating.TextFormat(v)
		}
		return s
	}
	l.problem(n.at, pipe, field, method.CodeType, field+" must be a tag style string or a table { tag_style, text_format }, not "+n.kind.String())
	return nil
}

// conceptRef checks a concept reference's syntax ("Code", "domain.Code",
// "native.Code", "alias->domain.Code", with the [], [N], ? and !
// suffixes) and keeps it as written: the library resolves it, in the
// domain of the file.
func (l *loader) conceptRef(ref string, at pos, pipe, field string) string {
	if err := method.CheckConceptSpec(ref); err != nil {
		l.problem(at, pipe, field, method.CodeUnknownConcept, err.Error())
		return ref
	}
	spec := method.ParseConceptSpec(ref)
	if dom, code := method.SplitConceptRef(spec.Name); dom+"." == method.NativePrefix && !method.IsNativeConcept(code) {
		l.problem(at, pipe, field, method.CodeUnknownConcept, strconv.Quote(spec.Name)+" is not a native concept")
	}
	return ref
}

// concept converts [concept] Name = "..." or [concept.Name] (Pipelex's
// ConceptBlueprint: description, refines, structure, hints; .plx files
// also take definition).
func (l *loader) concept(name string, n *tnode) {
	field := "concept " + name
	l.mark("", field, n)
	c := &method.Concept{}
	if method.CheckConceptSpec(name) != nil || strings.Contains(name, ".") {
		l.problem(n.at, "", field, method.CodeInvalidConcept, "concept code "+strconv.Quote(name)+" is not PascalCase")
	}
	switch n.kind {
	case kString:
		c.Description = n.val.(string)
	case kTable:
		keys := []string{"description", "refines", "structure", "hints"}
		if l.legacy {
			keys = append(keys, "definition")
		}
		l.known(n, "", field, keys...)
		c.Description = l.description(n, "")
		if n.get("description") == nil && n.get("definition") == nil {
			l.problem(n.at, "", field, method.CodeInvalidConcept, "a concept table needs a description")
		}
		if h := n.get("hints"); h != nil {
			_, _ = l.strMap(h, "", field+" hints") // advisory presentation hints: a flat string table
		}
		if r := n.get("refines"); r != nil {
			l.mark("", field+" refines", r)
			if s, ok := l.str(r, "", field+" refines"); ok {
				c.Refines = l.conceptRef(s, r.at, "", field+" refines")
			}
		}
		if st := n.get("structure"); st != nil {
			if st.kind == kString {
				// Pipelex loads a registered Python class here; jinjabox
				// has no Python classes to load.
				l.problem(st.at, "", field, method.CodeInvalidConcept, "a structure naming a Python class ("+strconv.Quote(st.val.(string))+") cannot be loaded; declare its fields")
			} else if t := l.table(st, "", field+" structure"); t != nil {
				for _, fname := range t.keys {
					c.Fields = append(c.Fields, l.conceptField(name, fname, t.kids[fname]))
				}
			}
		}
	default:
		l.problem(n.at, "", field, method.CodeType, "a concept is a description string or a table, not "+n.kind.String())
	}
	if _, dup := l.m.Concepts[name]; dup {
		l.problem(n.at, "", field, method.CodeDuplicate, "concept defined twice")
	}
	l.m.Concepts[name] = c
}

// fieldTypes are the types of a structure field in a method file
// (Pipelex's ConceptStructureBlueprintFieldType).
var fieldTypes = []string{"text", "list", "dict", "integer", "boolean", "number", "date", "datetime", "time", "concept"}

// conceptField converts one structure field (Pipelex's
// ConceptStructureBlueprint): a description string, which is a required
// text field, or a table.
func (l *loader) conceptField(concept, name string, n *tnode) method.Field {
	field := "concept " + concept + " field " + name
	l.mark("", field, n)
	f := method.Field{Name: name, Type: "text"}
	switch n.kind {
	case kString:
		f.Description, f.Required = n.val.(string), true
		return f
	case kTable:
	default:
		l.problem(n.at, "", field, method.CodeType, "a structure field is a description string or a table, not "+n.kind.String())
		return f
	}
	keys := []string{"type", "description", "required", "choices", "item_type", "concept_ref", "item_concept_ref", "default_value", "key_type", "value_type"}
	if l.legacy {
		keys = append(keys, "definition")
	}
	l.known(n, "", field, keys...)
	bad := func(msg string) { l.problem(n.at, "", field, method.CodeInvalidConcept, msg) }
	f.Description = l.description(n, "")
	if n.get("description") == nil && n.get("definition") == nil {
		bad("a structure field table needs a description")
	}
	f.Required = l.boolean(n.get("required"), "", field+" required")
	f.Choices = l.strList(n.get("choices"), "", field+" choices")
	typ, hasType := l.str(n.get("type"), "", field+" type")
	switch {
	case !hasType && n.get("type") == nil && len(f.Choices) == 0:
		bad("a field without a type needs choices")
	case hasType && !slices.Contains(fieldTypes, typ):
		l.problem(n.get("type").at, "", field+" type", method.CodeInvalidConcept, "unknown field type "+strconv.Quote(typ)+" (text, list, dict, integer, boolean, number, date, datetime, time, concept)")
	case hasType:
		f.Type = typ
	}
	it, hasItem := l.str(n.get("item_type"), "", field+" item_type")
	cref, hasRef := l.str(n.get("concept_ref"), "", field+" concept_ref")
	icref, hasItemRef := l.str(n.get("item_concept_ref"), "", field+" item_concept_ref")
	if hasRef {
		cref = l.conceptRef(cref, n.get("concept_ref").at, "", field)
	}
	if hasItemRef {
		icref = l.conceptRef(icref, n.get("item_concept_ref").at, "", field)
	}
	switch f.Type {
	case "dict":
		kt, _ := l.str(n.get("key_type"), "", field+" key_type")
		vt, _ := l.str(n.get("value_type"), "", field+" value_type")
		if kt != "text" && kt != "str" {
			bad("a dict field needs key_type = \"text\"")
		}
		if vt == "" {
			bad("a dict field needs a value_type")
		}
	case "concept":
		if !hasRef {
			bad("a field of type concept needs concept_ref")
		}
		if n.get("default_value") != nil {
			bad("a field of type concept cannot have a default_value")
		}
		f.ConceptRef = cref
	case "list":
		if hasItem {
			f.ItemType = it
			if it != "concept" && !slices.Contains(fieldTypes, it) {
				f.ItemType = l.conceptRef(it, n.get("item_type").at, "", field)
			}
		}
		switch {
		case it == "concept" && !hasItemRef:
			bad("a list of concepts (item_type = \"concept\") needs item_concept_ref")
		case hasItemRef && it != "concept":
			bad("item_concept_ref applies to a list whose item_type is \"concept\"")
		}
		f.ConceptRef = icref
	}
	if hasRef && f.Type != "concept" {
		bad("concept_ref applies to a field of type concept")
	}
	if hasItemRef && f.Type != "list" {
		bad("item_concept_ref applies to a list field")
	}
	if dv := n.get("default_value"); dv != nil {
		l.defaultValue(field, f, typ, dv)
	}
	if len(f.Choices) > 0 {
		// Inline choices win over the type: the field is a string literal
		// (Pipelex's resolved_fields._resolve_type).
		f.Type, f.ItemType, f.ConceptRef = "text", "", ""
	}
	if f.Type == "concept" && strings.TrimPrefix(f.ConceptRef, method.NativePrefix) == method.ConceptImage {
		// The model's image fields are typed "Image": templates then see
		// an image value (with_images, tag and format register it).
		f.Type, f.ConceptRef = method.ConceptImage, ""
	}
	return f
}

// defaultValue checks a field's default_value against its declared type
// and choices (ConceptStructureBlueprint._validate_default_value_type).
// A required field may have one: Pipelex's blueprint has no rule against
// it, and its structure generator gives such a field that default. The
// value itself is not used: the runner does not fill missing fields.
func (l *loader) defaultValue(field string, f method.Field, typ string, dv *tnode) {
	bad := func(msg string) { l.problem(dv.at, "", field, method.CodeInvalidConcept, msg) }
	want := map[string]kind{"text": kString, "integer": kInteger, "boolean": kBool, "list": kArray, "dict": kTable}[typ]
	switch {
	case typ == "" && len(f.Choices) > 0:
		if s, ok := dv.val.(string); !ok || !slices.Contains(f.Choices, s) {
			bad("default_value must be one of the choices")
		}
	case typ == "number":
		if dv.kind != kInteger && dv.kind != kFloat {
			bad("default_value must be a number")
		}
	case typ == "date" || typ == "datetime" || typ == "time":
		if dv.kind != kDatetime {
			bad("default_value must be a TOML " + typ)
		}
	case typ != "" && dv.kind != want:
		bad("default_value must be " + want.String() + " for type " + strconv.Quote(typ) + ", not " + dv.kind.String())
	}
}

// encodeJSON writes plain data as JSON, keeping ordered maps' order.
func encodeJSON(x any) []byte {
	switch t := x.(type) {
	case *value.OrderedMap:
		var sb strings.Builder
		sb.WriteByte('{')
		for i, k := range t.Keys {
			if i > 0 {
				sb.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			sb.Write(kb)
			sb.WriteByte(':')
			sb.Write(encodeJSON(t.Values[i]))
		}
		sb.WriteByte('}')
		return []byte(sb.String())
	case []any:
		var sb strings.Builder
		sb.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.Write(encodeJSON(e))
		}
		sb.WriteByte(']')
		return []byte(sb.String())
	}
	b, err := json.Marshal(x)
	if err != nil {
		b, _ = json.Marshal(fmt.Sprint(x)) // NaN and Inf have no JSON form
	}
	return b
}
