// Package godata turns any JSON-shaped Go value into the data a jinjabox
// template renders from: structs by their json tags, embedded structs,
// pointers, typed maps and slices, arrays, time.Time, []byte,
// json.Marshaler and encoding.TextMarshaler values.
//
// The engine copies data into its closed value model at the start of a
// render and never reflects (its packages run inside Temporal workflow
// code and import no reflect). godata is the reflection, at the boundary,
// in the host: Map and Convert walk a Go value once and return it in the
// shapes the engine copies (map[string]any, *value.OrderedMap for a
// struct's fields in their order, []any, string, int64, float64, bool,
// nil). Nothing is bound live: a template reads the copy.
//
//	data, err := godata.Map(order) // a struct, a pointer to one, a map
//	if err != nil { ... }
//	res, err := tpl.RenderResult(data, engine.RenderOptions{})
//
// The data made is what encoding/json's Marshal makes of the value (its
// field names, tags with omitempty, omitzero, "-" and string, embedding
// and its dominance rules, map key order, []byte as base64, marshalers
// first), with one departure, chosen for templates: a nil slice is an
// empty list and a nil map an empty dict (encoding/json writes null), so
// {% for x in items %} over a nil slice renders nothing, as
// text/template's range does and as the engine's own copy of a nil
// []string always did. Struct fields keep their declared order (as a
// Python dict keeps its insertion order); map keys are sorted.
//
// The walk is bounded by the engine's copy-in ceilings, counted as the
// engine counts them: value.MaxContainerEntries entries a container,
// value.MaxGraphEntries in all, value.MaxGraphBytes bytes of strings
// (keys included) and value.MaxDepth levels (a pointer is a level, so a
// cycle of pointers is refused too). A refusal is the engine's error
// (*engine.Error, errors.As finds it) naming the path and the Go type.
package godata

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/internal/msgtext"
)

var (
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	valueType         = reflect.TypeFor[value.Value]()
	surfaceType       = reflect.TypeFor[value.Surface]()
	orderedType       = reflect.TypeFor[*value.OrderedMap]()
	numberType        = reflect.TypeFor[json.Number]()
)

// Map converts x into the top-level data of a render: x must convert to
// an object (a struct, a pointer to one, a map with string or integer
// keys, a json.Marshaler writing an object). A nil x is no data.
func Map(x any) (map[string]any, error) {
	if m, ok := x.(map[string]any); ok && m == nil {
		return map[string]any{}, nil
	}
	v, err := Convert(x)
	if err != nil {
		return nil, err
	}
	switch t := v.(type) {
	case nil:
		return map[string]any{}, nil
	case map[string]any:
		return t, nil
	case *value.OrderedMap:
		m := make(map[string]any, len(t.Keys))
		for i, k := range t.Keys {
			m[k] = t.Values[i]
		}
		return m, nil
	}
	return nil, engine.NewError(engine.KindType, "the data of a render must be an object (a struct, a map), not Go type "+reflect.TypeOf(x).String())
}

// Convert converts x into JSON-shaped data the engine copies in (see the
// package doc): a value to put under a name of a render's data, or to
// register as a global.
func Convert(x any) (v any, err error) {
	var w walker
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*engine.Error)
			if !ok {
				panic(r)
			}
			v, err = nil, e
		}
	}()
	return w.walk(reflect.ValueOf(x), 0), nil
}

// walker is one conversion's counts and path.
type walker struct {
	entries int
	bytes   int64
	path    []string
}

func (w *walker) at() string {
	if len(w.path) == 0 {
		return "<root>"
	}
	var sb strings.Builder
	for i, p := range w.path {
		if i > 0 && !strings.HasPrefix(p, "[") {
			sb.WriteByte('.')
		}
		sb.WriteString(p)
	}
	return msgtext.Bound(sb.String())
}

// fail refuses the value at the current path, as the engine's copy-in
// does.
func (w *walker) fail(msg string) {
	panic(engine.NewError(engine.KindType, "cannot copy data at "+w.at()+": "+msg))
}

func (w *walker) count(n int) {
	if n > value.MaxContainerEntries {
		w.fail("container has more than " + strconv.Itoa(value.MaxContainerEntries) + " entries")
	}
	if w.entries+n > value.MaxGraphEntries {
		w.fail("data has more than " + strconv.Itoa(value.MaxGraphEntries) + " entries")
	}
	w.entries += n
}

func (w *walker) countBytes(n int) {
	if w.bytes+int64(n) > value.MaxGraphBytes {
		panic(engine.NewError(engine.KindBudget, "copying the data at "+w.at()+" would pass the copy-in ceiling of "+strconv.Itoa(value.MaxGraphBytes)+
			" bytes of strings (limit "+value.LimitDataBytes+"): "+strconv.FormatInt(w.bytes, 10)+" copied, "+strconv.Itoa(n)+" more"))
	}
	w.bytes += int64(n)
}

// step walks rv one step below the current container, named seg.
func (w *walker) step(seg string, rv reflect.Value, depth int) any {
	w.path = append(w.path, seg)
	v := w.walk(rv, depth+1)
	w.path = w.path[:len(w.path)-1]
	return v
}

// walk converts rv at depth.
func (w *walker) walk(rv reflect.Value, depth int) any {
	if depth > value.MaxDepth {
		w.fail("nested deeper than " + strconv.Itoa(value.MaxDepth) + " levels (or cyclic)")
	}
	if !rv.IsValid() {
		return nil
	}
	t := rv.Type()
	if rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return nil
		}
		return w.walk(rv.Elem(), depth)
	}
	if rv.CanInterface() {
		switch {
		case t == valueType, t.Implements(surfaceType):
			// the engine's own values and declared surfaces: passed
			// through, the engine copies them
			return rv.Interface()
		case t == orderedType:
			if rv.IsNil() {
				return nil
			}
			om := rv.Interface().(*value.OrderedMap)
			w.count(len(om.Keys))
			out := &value.OrderedMap{Keys: slices.Clone(om.Keys), Values: make([]any, len(om.Keys))}
			for i, k := range om.Keys {
				w.countBytes(len(k))
				var x any
				if i < len(om.Values) {
					x = om.Values[i]
				}
				out.Values[i] = w.step(k, reflect.ValueOf(x), depth)
			}
			return out
		case t == numberType:
			s := rv.String()
			w.countBytes(len(s))
			return json.Number(s)
		}
	}
	// encoding/json's order: a Marshaler first, then a TextMarshaler, on
	// the value or, when addressable, on its pointer (newTypeEncoder).
	if t.Kind() != reflect.Pointer && rv.CanAddr() && rv.CanInterface() {
		if pt := reflect.PointerTo(t); pt.Implements(jsonMarshalerType) || pt.Implements(textMarshalerType) {
			rv = rv.Addr()
			t = pt
		}
	}
	if rv.CanInterface() {
		if t.Implements(jsonMarshalerType) {
			if t.Kind() == reflect.Pointer && rv.IsNil() {
				return nil
			}
			return w.marshaled(rv.Interface().(json.Marshaler), t, depth)
		}
		if t.Implements(textMarshalerType) {
			if t.Kind() == reflect.Pointer && rv.IsNil() {
				return nil
			}
			b, err := rv.Interface().(encoding.TextMarshaler).MarshalText()
			if err != nil {
				w.fail("Go type " + t.String() + ": MarshalText: " + err.Error())
			}
			w.countBytes(len(b))
			return string(b)
		}
	}
	switch t.Kind() {
	case reflect.Pointer:
		if rv.IsNil() {
			return nil
		}
		// a level of its own: a cycle of pointers alone meets the
		// depth ceiling too
		return w.walk(rv.Elem(), depth+1)
	case reflect.String:
		s := rv.String()
		w.countBytes(len(s))
		return s
	case reflect.Bool:
		return rv.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if u > math.MaxInt64 {
			w.fail("integer wider than 64 bits (Go type " + t.String() + ")")
		}
		return int64(u)
	case reflect.Float32, reflect.Float64:
		return rv.Float()
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !reflect.PointerTo(t.Elem()).Implements(jsonMarshalerType) && !reflect.PointerTo(t.Elem()).Implements(textMarshalerType) {
			// encoding/json: a []byte is its base64 text
			b := rv.Bytes()
			w.countBytes(base64.StdEncoding.EncodedLen(len(b)))
			return base64.StdEncoding.EncodeToString(b)
		}
		return w.seq(rv, depth)
	case reflect.Array:
		return w.seq(rv, depth)
	case reflect.Map:
		return w.goMap(rv, depth)
	case reflect.Struct:
		return w.goStruct(rv, depth)
	}
	w.fail("values of Go type " + t.String() + " are not data (only JSON-shaped values and declared surfaces cross the boundary)")
	return nil
}

// marshaled converts what m's MarshalJSON writes, decoded as
// value.DecodeJSON decodes (object keys in their order, numbers exact).
// The JSON text is refused when it is longer than the bytes the ceiling
// has left: its strings are at most that long.
func (w *walker) marshaled(m json.Marshaler, t reflect.Type, depth int) any {
	b, err := m.MarshalJSON()
	if err != nil {
		w.fail("Go type " + t.String() + ": MarshalJSON: " + err.Error())
	}
	if int64(len(b)) > value.MaxGraphBytes-w.bytes {
		w.countBytes(len(b))
	}
	x, err := value.DecodeJSON(b)
	if err != nil {
		w.fail("Go type " + t.String() + ": MarshalJSON wrote invalid JSON: " + err.Error())
	}
	// counted (and bounded) as any other data
	return w.walk(reflect.ValueOf(x), depth)
}

// seq converts a slice or an array to a list.
func (w *walker) seq(rv reflect.Value, depth int) any {
	n := rv.Len()
	w.count(n)
	out := make([]any, n)
	for i := range n {
		out[i] = w.step("["+strconv.Itoa(i)+"]", rv.Index(i), depth)
	}
	return out
}

// goMap converts a map whose keys are strings, integers or
// TextMarshalers (encoding/json's resolveKeyName), in sorted key order.
func (w *walker) goMap(rv reflect.Value, depth int) any {
	t := rv.Type()
	kt := t.Key()
	keyText := kt.Kind() != reflect.String && kt.Implements(textMarshalerType)
	switch kt.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
	default:
		if !keyText {
			w.fail("map keys of Go type " + kt.String() + " are not strings, integers or encoding.TextMarshalers (Go type " + t.String() + ")")
		}
	}
	n := rv.Len()
	w.count(n)
	type entry struct {
		k string
		v reflect.Value
	}
	entries := make([]entry, 0, n)
	it := rv.MapRange()
	for it.Next() {
		k := it.Key()
		var ks string
		switch {
		case keyText:
			if k.Kind() == reflect.Pointer && k.IsNil() {
				break
			}
			b, err := k.Interface().(encoding.TextMarshaler).MarshalText()
			if err != nil {
				w.fail("map key of Go type " + kt.String() + ": MarshalText: " + err.Error())
			}
			ks = string(b)
		case kt.Kind() == reflect.String:
			ks = k.String()
		case k.CanInt():
			ks = strconv.FormatInt(k.Int(), 10)
		default:
			ks = strconv.FormatUint(k.Uint(), 10)
		}
		entries = append(entries, entry{ks, it.Value()})
	}
	// a map's order is random: sorted before anything is converted, so
	// the first refusal is the same every time
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.k, b.k) })
	out := make(map[string]any, n)
	for _, e := range entries {
		w.countBytes(len(e.k))
		out[e.k] = w.step(e.k, e.v, depth)
	}
	return out
}

// goStruct converts a struct to an ordered map of its JSON fields, in
// their order (encoding/json's typeFields).
func (w *walker) goStruct(rv reflect.Value, depth int) any {
	fields := cachedFields(rv.Type())
	// the fields present: omitempty's are left out when empty, and a
	// field behind a nil embedded pointer is absent (encoding/json)
	vals := make([]reflect.Value, len(fields))
	n := 0
	for i := range fields {
		f := &fields[i]
		fv, ok := fieldByIndex(rv, f.index)
		if !ok || (f.omitEmpty && isEmptyValue(fv)) || (f.omitZero && isZeroValue(fv)) {
			continue
		}
		vals[i] = fv
		n++
	}
	w.count(n)
	out := &value.OrderedMap{Keys: make([]string, 0, n), Values: make([]any, 0, n)}
	for i := range fields {
		if !vals[i].IsValid() {
			continue
		}
		f := &fields[i]
		w.countBytes(len(f.name))
		var v any
		if f.quoted {
			v = w.quoted(vals[i], f.name, depth)
		} else {
			v = w.step(f.name, vals[i], depth)
		}
		out.Keys = append(out.Keys, f.name)
		out.Values = append(out.Values, v)
	}
	return out
}

// quoted converts a field tagged `json:",string"`: its scalar as JSON
// text in a string, as encoding/json writes it ("5", "true",
// "\"text\""); the option does nothing to a field of another kind.
func (w *walker) quoted(rv reflect.Value, name string, depth int) any {
	var s string
	switch rv.Kind() {
	case reflect.String:
		b, _ := json.Marshal(rv.String())
		s = string(b)
	case reflect.Bool:
		s = strconv.FormatBool(rv.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		s = strconv.FormatInt(rv.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		s = strconv.FormatUint(rv.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		b, err := json.Marshal(rv.Float())
		if err != nil {
			w.path = append(w.path, name)
			w.fail(err.Error())
		}
		s = string(b)
	default:
		return w.step(name, rv, depth)
	}
	w.countBytes(len(s))
	return s
}

// fieldByIndex is reflect's FieldByIndex stopping at a nil embedded
// pointer (the field is then absent, as in encoding/json).
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// isEmptyValue is encoding/json's: what omitempty leaves out.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// isZeroValue is what omitzero leaves out (encoding/json, Go 1.24): the
// zero value, or what the type's IsZero method calls zero.
func isZeroValue(v reflect.Value) bool {
	if v.CanInterface() {
		if z, ok := v.Interface().(interface{ IsZero() bool }); ok {
			if v.Kind() == reflect.Pointer && v.IsNil() {
				return true
			}
			return z.IsZero()
		}
	}
	return v.IsZero()
}

// goField is one JSON field of a struct type.
type goField struct {
	name      string
	index     []int
	tagged    bool
	omitEmpty bool
	omitZero  bool
	quoted    bool
}

// fieldCache holds each struct type's fields, worked out once.
var fieldCache sync.Map // reflect.Type -> []goField

func cachedFields(t reflect.Type) []goField {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]goField)
	}
	f, _ := fieldCache.LoadOrStore(t, typeFields(t))
	return f.([]goField)
}

// typeFields is encoding/json's typeFields: the exported fields and
// those promoted from embedded structs, breadth first, named by their
// tag or Go name; of the fields with one name, the shallowest wins, a
// tagged one over untagged ones at its depth, and a tie drops them all.
func typeFields(t reflect.Type) []goField {
	type level struct {
		t     reflect.Type
		index []int
	}
	current := []level{}
	next := []level{{t: t}}
	visited := map[reflect.Type]bool{}
	var fields []goField
	var count map[reflect.Type]int
	nextCount := map[reflect.Type]int{}
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, lv := range current {
			if visited[lv.t] {
				continue
			}
			visited[lv.t] = true
			for i := range lv.t.NumField() {
				sf := lv.t.Field(i)
				if sf.Anonymous {
					ft := sf.Type
					if ft.Kind() == reflect.Pointer {
						ft = ft.Elem()
					}
					if !sf.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !validTagName(name) {
					name = ""
				}
				index := append(slices.Clip(lv.index), i)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				quoted := false
				if hasOpt(opts, "string") {
					switch ft.Kind() {
					case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
						reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
						reflect.Float32, reflect.Float64, reflect.String:
						quoted = true
					}
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					tagged := name != ""
					if name == "" {
						name = sf.Name
					}
					fields = append(fields, goField{name: name, index: index, tagged: tagged,
						omitEmpty: hasOpt(opts, "omitempty"), omitZero: hasOpt(opts, "omitzero"), quoted: quoted})
					if count[lv.t] > 1 {
						// two embeddings of one type at one depth
						// annihilate each other: one is kept to be
						// dropped by the dominance pass below
						fields = append(fields, fields[len(fields)-1])
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, level{t: ft, index: index})
				}
			}
		}
	}
	// sort by name, then depth, then tagged first, then index order
	slices.SortStableFunc(fields, func(a, b goField) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := len(a.index) - len(b.index); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	out := fields[:0]
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		group := fields[i:j]
		i = j
		if len(group) == 1 {
			out = append(out, group[0])
			continue
		}
		// dominantField: the shallowest, tagged if one is; a tie of two
		// at that depth (both tagged or both not) drops the name
		if len(group[0].index) < len(group[1].index) || (group[0].tagged && !group[1].tagged) {
			out = append(out, group[0])
		}
	}
	slices.SortFunc(out, func(a, b goField) int { return slices.Compare(a.index, b.index) })
	return slices.Clip(out)
}

func hasOpt(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}

// validTagName is encoding/json's isValidTag.
func validTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !isLetterOrDigit(c):
			return false
		}
	}
	return true
}

func isLetterOrDigit(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }
