// Package vops holds the value model's operations that the evaluator and
// the built-ins share but a host has no use for, written on package
// value's exported accessors so they need none of its private fields.
// They live here, not in value, to keep value's exported surface to what
// a host needs: the value model and the interfaces it implements.
package vops

import (
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/value"
)

// ThrowUndefined raises the undefined error for using u: its hint (why it
// is undefined: "'dict object' has no attribute 'x'"), else its name,
// else a generic message.
func ThrowUndefined(u value.Value) {
	errs.Throw(errs.Undefined, errs.UndefinedMessage(u.UndefHintText(), u.IsMissing(), u.UndefName()))
}

// AddInt adds with Python's int rule as the engine bounds it: a sum past
// 64 bits is a budget error (integer_width). It is value.Add on two ints,
// so the rule and its error are written once, in value's operators.
func AddInt(c value.Ctx, a, b int64) int64 {
	return value.Add(c, value.FromInt(a), value.FromInt(b)).Int()
}

// MulInt multiplies with the 64-bit rule of AddInt (value.Mul on two
// ints).
func MulInt(c value.Ctx, a, b int64) int64 {
	return value.Mul(c, value.FromInt(a), value.FromInt(b)).Int()
}

// EscapeStr returns the markup text of a string value: a Markup string
// as it is, plain text escaped (markupsafe.escape).
func EscapeStr(v value.Value) string {
	if v.IsSafe() {
		return v.Str()
	}
	return strutil.EscapeHTML(v.Str())
}

// ViewOf is the Python type a list stands for (range, dict_keys,
// dict_values, dict_items), "" for a plain list or any other value: the
// view's name, which its repr and the operations Python's view refuses
// (subscripts of a dict view, slices) read.
func ViewOf(v value.Value) string {
	if v.Kind() != value.List {
		return ""
	}
	if d, ok := v.Ref().(*value.ListData); ok {
		return d.View()
	}
	return ""
}

// GraphBytes is the string bytes copy-in counts for a value it made:
// its strings and its dicts' keys at any depth (what an update of a
// prepared context takes out of its graph).
func GraphBytes(v value.Value) int64 {
	switch v.Kind() {
	case value.String:
		return int64(len(v.Str()))
	case value.List, value.Tuple:
		var n int64
		for _, it := range v.Items() {
			n += GraphBytes(it)
		}
		return n
	case value.Dict:
		d := v.DictData()
		var n int64
		keys, vals := d.Keys(), d.Values()
		for i := range keys {
			n += GraphBytes(keys[i]) + GraphBytes(vals[i])
		}
		return n
	}
	return 0
}

// GraphEntries is the number of entries copy-in counts for a value it
// made: a list's or dict's length plus its items' entries, at any depth
// (what an update of a prepared context takes out of its graph).
func GraphEntries(v value.Value) int {
	n := 0
	switch v.Kind() {
	case value.List, value.Tuple:
		items := v.Items()
		n = len(items)
		for _, it := range items {
			n += GraphEntries(it)
		}
	case value.Dict:
		d := v.DictData()
		n = d.Len()
		for _, it := range d.Values() {
			n += GraphEntries(it)
		}
	}
	return n
}

// IsDictView reports whether v stands for dict_keys, dict_values or
// dict_items, which take no subscript.
func IsDictView(v value.Value) bool {
	switch ViewOf(v) {
	case "dict_keys", "dict_values", "dict_items":
		return true
	}
	return false
}
