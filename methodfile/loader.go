// Package methodfile loads Pipelex method files (.mthds, and the older
// .plx): TOML documents of concepts and pipes, converted to the
// workflows.Method model the runner executes and validated with
// workflows.ValidateMethodWith. Every problem names the file, the line
// (and column), the pipe and the field, also for problems inside a
// template, and one load reports all of them.
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
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.uber.org/multierr"

	"github.com/jinjabox/jinjabox/engine/categories"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/workflows"
)

// Extensions this package loads as TOML method files.
var Extensions = []string{".mthds", ".plx", ".toml"}

// IsMethodFile reports whether path has a method-file extension.
func IsMethodFile(path string) bool {
	return slices.Contains(Extensions, strings.ToLower(filepath.Ext(path)))
}

// Options are what a load validates against, and the entry point.
type Options struct {
	// Funcs are the PipeFunc functions (nil: workflows.DefaultFuncs).
	Funcs *workflows.FuncRegistry
	// Models, when set, must resolve every model reference.
	Models *workflows.ModelConfig
	// MainPipe, when set, is the pipe a run starts from, whatever the
	// file's main_pipe (Pipelex lets the caller pick any pipe of a file).
	MainPipe string
}

func (o Options) validate() workflows.ValidateOptions {
	return workflows.ValidateOptions{Funcs: o.Funcs, Models: o.Models}
}

// LoadFile reads, converts and validates a method: a TOML method file by
// its extension (.mthds, .plx, .toml) or a JSON bundle (.json, and any
// other extension). It uses the default PipeFunc registry and no model
// configuration; see LoadFileWith.
func LoadFile(path string) (*workflows.Method, error) {
	return LoadFileWith(path, Options{})
}

// LoadFileWith is LoadFile validating against the given registries. On
// problems it returns them all (list them with Problems) and, when the
// file parsed, the method as far as it converted: run a method only when
// the error is nil.
func LoadFileWith(path string, opts Options) (*workflows.Method, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if !IsMethodFile(path) {
		return loadJSON(path, data, opts)
	}
	return Load(path, data, opts)
}

// loadJSON loads a JSON bundle, reporting its problems as this package's.
func loadJSON(name string, data []byte, opts Options) (*workflows.Method, error) {
	m, err := workflows.LoadMethod(data)
	if err != nil {
		return nil, &Problem{File: name, Code: workflows.CodeInvalidMethod, Message: err.Error()}
	}
	if opts.MainPipe != "" {
		m.MainPipe = opts.MainPipe
	}
	var out error
	for _, wp := range workflows.Problems(workflows.ValidateMethodWith(m, opts.validate())) {
		p := fromWorkflows(name, wp)
		p.Line, p.Col = 0, 0 // template positions, not file lines: keep them in the message
		if wp.Line > 0 {
			p.Message = fmt.Sprintf("%s (template line %d, col %d)", p.Message, wp.Line, wp.Col)
		}
		out = multierr.Append(out, p)
	}
	return m, out
}

// Load converts and validates the TOML method file data (name is used in
// problems).
func Load(name string, data []byte, opts Options) (*workflows.Method, error) {
	m, l, err := parse(name, data, opts.MainPipe)
	if m == nil {
		return nil, err
	}
	reported := map[string]bool{}
	for _, p := range l.probs {
		reported[p.Pipe+"\x00"+p.Field] = true
	}
	for _, wp := range workflows.Problems(workflows.ValidateMethodWith(m, opts.validate())) {
		if reported[wp.Pipe+"\x00"+wp.Field] {
			continue // the loader already explained this field
		}
		l.probs = append(l.probs, l.place(wp))
	}
	// File order: problems read top to bottom, the file-wide ones (no
	// line) last.
	sort.SliceStable(l.probs, func(i, j int) bool {
		a, b := l.probs[i], l.probs[j]
		if (a.Line == 0) != (b.Line == 0) {
			return b.Line == 0
		}
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	var out error
	for _, p := range l.probs {
		out = multierr.Append(out, p)
	}
	return m, out
}

func parse(name string, data []byte, mainPipe string) (*workflows.Method, *loader, error) {
	root, err := parseDoc(data)
	if err != nil {
		se := err.(*SyntaxError)
		return nil, nil, &Problem{File: name, Line: se.Line, Col: se.Col, Code: CodeTOML, Message: se.Message}
	}
	l := &loader{file: name, at: map[string]fieldPos{}, mainPipe: mainPipe}
	l.method(root)
	var out error
	for _, p := range l.probs {
		out = multierr.Append(out, p)
	}
	return l.m, l, out
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
	m     *workflows.Method
	probs []*Problem
	// at locates (pipe, field) pairs, in the field names validation uses.
	at map[string]fieldPos
	// mainPipe overrides the file's main_pipe.
	mainPipe string
}

func (l *loader) problem(at pos, pipe, field, code, msg string) {
	l.probs = append(l.probs, &Problem{File: l.file, Line: at.line, Col: at.col, Pipe: pipe, Field: field, Code: code, Message: msg})
}

// mark records where (pipe, field) is.
func (l *loader) mark(pipe, field string, n *tnode) {
	if n == nil {
		return
	}
	l.at[pipe+"\x00"+field] = fieldPos{key: n.at, content: n.content, isString: n.kind == kString}
}

// place gives a validation problem its file position: the field's, and
// inside a template the template's line and column mapped to the file.
func (l *loader) place(wp *workflows.Problem) *Problem {
	p := fromWorkflows(l.file, wp)
	fp, ok := l.lookup(wp.Pipe, wp.Field)
	if !ok {
		return p
	}
	p.Line, p.Col = fp.key.line, fp.key.col
	if wp.Line > 0 && fp.isString {
		p.Line = fp.content.line + wp.Line - 1
		p.Col = wp.Col
		if wp.Line == 1 {
			p.Col = fp.content.col + wp.Col - 1
		}
	}
	return p
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
		l.problem(n.at, pipe, field, CodeType, field+" must be a string, not "+n.kind.String())
		return "", false
	}
	return n.val.(string), true
}

func (l *loader) boolean(n *tnode, pipe, field string) bool {
	if n == nil {
		return false
	}
	if n.kind != kBool {
		l.problem(n.at, pipe, field, CodeType, field+" must be a boolean, not "+n.kind.String())
		return false
	}
	return n.val.(bool)
}

func (l *loader) integer(n *tnode, pipe, field string) int {
	if n == nil {
		return 0
	}
	if n.kind != kInteger {
		l.problem(n.at, pipe, field, CodeType, field+" must be an integer, not "+n.kind.String())
		return 0
	}
	v := n.val.(int64)
	if v > 1<<31 || v < -(1<<31) {
		l.problem(n.at, pipe, field, CodeType, field+" is out of range")
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
	l.problem(n.at, pipe, field, CodeType, field+" must be a number, not "+n.kind.String())
	return 0
}

func (l *loader) table(n *tnode, pipe, field string) *tnode {
	if n == nil {
		return nil
	}
	if n.kind != kTable {
		l.problem(n.at, pipe, field, CodeType, field+" must be a table, not "+n.kind.String())
		return nil
	}
	return n
}

func (l *loader) strList(n *tnode, pipe, field string) []string {
	if n == nil {
		return nil
	}
	if n.kind != kArray {
		l.problem(n.at, pipe, field, CodeType, field+" must be an array of strings, not "+n.kind.String())
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
			l.problem(t.kids[k].at, pipe, field, CodeUnknownKey, "unknown key "+strconv.Quote(k)+" in "+whereName(pipe, where))
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

// method converts the top level.
func (l *loader) method(root *tnode) {
	m := &workflows.Method{Concepts: map[string]*workflows.Concept{}, Pipes: map[string]*workflows.Pipe{}}
	l.m = m
	l.known(root, "", "", "domain", "description", "definition", "main_pipe", "system_prompt", "templating_style", "concept", "pipe")
	if d, ok := l.str(root.get("domain"), "", "domain"); ok {
		m.Domain = d
		if !workflows.IsSnakeCase(d) {
			l.problem(root.get("domain").at, "", "domain", workflows.CodeInvalidMethod, "domain "+strconv.Quote(d)+" is not snake_case")
		}
	} else if root.get("domain") == nil {
		l.problem(pos{1, 1}, "", "domain", workflows.CodeInvalidMethod, "domain is required")
	}
	m.Description = l.description(root, "")
	if mp, ok := l.str(root.get("main_pipe"), "", "main_pipe"); ok {
		m.MainPipe = mp
		l.mark("", "main_pipe", root.get("main_pipe"))
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
	// A domain-level system_prompt is the default of every PipeLLM.
	if sp := root.get("system_prompt"); sp != nil {
		if s, ok := l.str(sp, "", "system_prompt"); ok {
			for _, code := range sortedCodes(m.Pipes) {
				if p := m.Pipes[code]; p.Type == workflows.KindLLM && p.SystemPrompt == "" {
					p.SystemPrompt = s
					l.mark(code, "system_prompt", sp)
				}
			}
		}
	}
	switch {
	case l.mainPipe != "":
		m.MainPipe = l.mainPipe
		delete(l.at, "\x00main_pipe") // the caller's choice has no line in the file
	case m.MainPipe == "" && root.get("main_pipe") == nil:
		l.chooseMain()
	}
}

// chooseMain picks the main pipe of a file without main_pipe: the one
// pipe no other pipe calls. Pipelex lets the caller name the pipe to
// run; a method here has one entry point, so an ambiguous file is a
// problem that says which pipes could start.
func (l *loader) chooseMain() {
	called := map[string]bool{}
	for _, p := range l.m.Pipes {
		for _, s := range p.Steps {
			called[s.Pipe] = true
		}
		for _, s := range p.Branches {
			called[s.Pipe] = true
		}
		called[p.BranchPipeCode] = true
		called[p.DefaultOutcome] = true
		for _, t := range p.Outcomes {
			called[t] = true
		}
	}
	var roots []string
	for _, code := range sortedCodes(l.m.Pipes) {
		if !called[code] {
			roots = append(roots, code)
		}
	}
	if len(roots) == 1 {
		l.m.MainPipe = roots[0]
		return
	}
	l.problem(pos{1, 1}, "", "main_pipe", workflows.CodeInvalidMethod,
		fmt.Sprintf("main_pipe is absent and %d pipes could start a run (%s): name one (main_pipe, or the caller's choice: Options.MainPipe, jinjabox --pipe)", len(roots), strings.Join(roots, ", ")))
}

func sortedCodes[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// description reads description, or its legacy name definition.
func (l *loader) description(t *tnode, pipe string) string {
	d, _ := l.str(t.get("description"), pipe, "description")
	if def, ok := l.str(t.get("definition"), pipe, "definition"); ok {
		if t.get("description") != nil {
			l.problem(t.get("definition").at, pipe, "definition", workflows.CodeInvalidPipe, "definition is the old name of description; give one")
		}
		d = def
	}
	return d
}

// style reads a templating style: a tag style string, or a table with
// tag_style and text_format.
func (l *loader) style(n *tnode, pipe, field string) *categories.TemplatingStyle {
	switch n.kind {
	case kString:
		return &categories.TemplatingStyle{TagStyle: categories.TagStyle(n.val.(string))}
	case kTable:
		l.known(n, pipe, field, "tag_style", "text_format")
		s := &categories.TemplatingStyle{}
		if v, ok := l.str(n.get("tag_style"), pipe, field+".tag_style"); ok {
			s.TagStyle = categories.TagStyle(v)
		}
		if v, ok := l.str(n.get("text_format"), pipe, field+".text_format"); ok {
			s.TextFormat = categories.TextFormat(v)
		}
		return s
	}
	l.problem(n.at, pipe, field, CodeType, field+" must be a tag style string or a table { tag_style, text_format }, not "+n.kind.String())
	return nil
}

// conceptRef canonicalises a concept reference: "native.X" must be a
// native and becomes X; "<this domain>.X" becomes X; another domain's
// native ("images.ImgGenPrompt", where older Pipelex libraries kept some
// natives) becomes the native; any other domain is not loaded, which is
// a problem. Suffixes are kept.
func (l *loader) conceptRef(ref string, at pos, pipe, field string) string {
	if err := workflows.CheckConceptSpec(ref); err != nil {
		l.problem(at, pipe, field, workflows.CodeUnknownConcept, err.Error())
		return ref
	}
	spec := workflows.ParseConceptSpec(ref)
	dom, code := workflows.SplitConceptRef(spec.Name)
	switch {
	case dom == "":
	case dom+"." == workflows.NativePrefix:
		if !workflows.IsNativeConcept(code) {
			l.problem(at, pipe, field, workflows.CodeUnknownConcept, strconv.Quote(spec.Name)+" is not a native concept")
		}
		spec.Name = code
	case dom == l.m.Domain || workflows.IsNativeConcept(code):
		spec.Name = code
	default:
		l.problem(at, pipe, field, workflows.CodeUnknownConcept, "concept "+strconv.Quote(spec.Name)+" belongs to domain "+strconv.Quote(dom)+", which this file does not define")
	}
	return spec.String()
}

// concept converts [concept] Name = "..." or [concept.Name].
func (l *loader) concept(name string, n *tnode) {
	field := "concept " + name
	l.mark("", field, n)
	c := &workflows.Concept{}
	if workflows.CheckConceptSpec(name) != nil || strings.Contains(name, ".") {
		l.problem(n.at, "", field, workflows.CodeInvalidMethod, "concept code "+strconv.Quote(name)+" is not PascalCase")
	}
	switch n.kind {
	case kString:
		c.Description = n.val.(string)
	case kTable:
		l.known(n, "", field, "description", "definition", "refines", "structure")
		c.Description = l.description(n, "")
		if r := n.get("refines"); r != nil {
			l.mark("", field+" refines", r)
			if s, ok := l.str(r, "", field+" refines"); ok {
				c.Refines = l.conceptRef(s, r.at, "", field+" refines")
			}
		}
		if st := n.get("structure"); st != nil {
			if st.kind == kString {
				l.problem(st.at, "", field, workflows.CodeInvalidMethod, "a structure naming a Python class ("+strconv.Quote(st.val.(string))+") cannot be loaded; declare its fields")
			} else if t := l.table(st, "", field+" structure"); t != nil {
				for _, fname := range t.keys {
					c.Fields = append(c.Fields, l.conceptField(name, fname, t.kids[fname]))
				}
			}
		}
	default:
		l.problem(n.at, "", field, CodeType, "a concept is a description string or a table, not "+n.kind.String())
	}
	if _, dup := l.m.Concepts[name]; dup {
		l.problem(n.at, "", field, workflows.CodeInvalidMethod, "concept defined twice")
	}
	l.m.Concepts[name] = c
}

// conceptField converts one structure field: "description" (optional
// text) or a table.
func (l *loader) conceptField(concept, name string, n *tnode) workflows.Field {
	field := "concept " + concept + " field " + name
	l.mark("", field, n)
	f := workflows.Field{Name: name, Type: "text"}
	switch n.kind {
	case kString:
		f.Description = n.val.(string)
		return f
	case kTable:
	default:
		l.problem(n.at, "", field, CodeType, "a structure field is a description string or a table, not "+n.kind.String())
		return f
	}
	// default_value is accepted and not used: the runner does not fill
	// missing fields (a provider's answer is taken as it is).
	l.known(n, "", field, "type", "description", "definition", "required", "choices", "item_type", "concept_ref", "item_concept_ref", "default_value")
	if t, ok := l.str(n.get("type"), "", field+" type"); ok {
		f.Type = t // validation reports an unknown type
	}
	f.Description = l.description(n, "")
	f.Required = l.boolean(n.get("required"), "", field+" required")
	f.Choices = l.strList(n.get("choices"), "", field+" choices")
	if it, ok := l.str(n.get("item_type"), "", field+" item_type"); ok {
		f.ItemType = it
		switch it {
		case "text", "integer", "number", "boolean", "date", "dict", "concept":
		default:
			f.ItemType = l.conceptRef(it, n.get("item_type").at, "", field)
		}
	}
	for _, k := range []string{"concept_ref", "item_concept_ref"} {
		if r, ok := l.str(n.get(k), "", field+" "+k); ok {
			if f.ConceptRef != "" {
				l.problem(n.get(k).at, "", field, workflows.CodeInvalidMethod, "concept_ref and item_concept_ref are synonyms; give one")
			}
			f.ConceptRef = l.conceptRef(r, n.get(k).at, "", field)
		}
	}
	if f.Type == "list" && f.ItemType == "" && f.ConceptRef != "" {
		f.ItemType = "concept"
	}
	if f.Type == "concept" && f.ConceptRef == workflows.ConceptImage {
		// The model's image fields are typed "Image": templates then see
		// an image value (with_images, tag and format register it).
		f.Type, f.ConceptRef = workflows.ConceptImage, ""
	}
	return f
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
