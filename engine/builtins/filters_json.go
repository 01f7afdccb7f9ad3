package builtins

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/errs"
	"github.com/jinjabox/jinjabox/engine/value"
)

// tojson: Jinja's htmlsafe_json_dumps over json.dumps(sort_keys=True).
// The output is sized exactly in a dry pass (charged node by node as it
// walks, so shared references cannot hide their expansion), the size is
// charged, then the same writer runs for real.

func init() {
	regFilter(fTojson, "tojson")
}

// maxJSONDepth stands in for Python's recursion limit.
const maxJSONDepth = 500

type jsonW struct {
	c      value.Ctx
	dry    bool
	n      int64
	sb     strings.Builder
	indent *string
	// orders holds each dict's sorted key order, in the order the dry
	// pass met them; the real pass, which meets them in the same order,
	// reads them back (next) instead of sorting every dict again.
	orders [][]int
	next   int
	num    [24]byte // scratch for a number's digits
}

func (w *jsonW) str(s string) {
	if w.dry {
		w.n += int64(len(s))
		return
	}
	w.sb.WriteString(s)
}

func (w *jsonW) byte(b byte) {
	if w.dry {
		w.n++
		return
	}
	w.sb.WriteByte(b)
}

const hexLower = "0123456789abcdef"

func (w *jsonW) u4(r rune) {
	w.str(`\u`)
	w.byte(hexLower[r>>12&15])
	w.byte(hexLower[r>>8&15])
	w.byte(hexLower[r>>4&15])
	w.byte(hexLower[r&15])
}

// quote writes a JSON string with ensure_ascii, plus the html-safe
// escapes of < > & '.
func (w *jsonW) quote(s string) {
	if w.dry {
		w.c.Charge(int64(len(s)), "filter tojson")
		if plainJSON(s) {
			w.n += int64(len(s)) + 2
			return
		}
	}
	w.byte('"')
	for len(s) > 0 {
		// a run that needs no escape is copied whole, not rune by rune
		i := 0
		for i < len(s) && !jsonEscaped(s[i]) {
			i++
		}
		w.str(s[:i])
		if i == len(s) {
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		s = s[i+size:]
		switch r {
		case '"':
			w.str(`\"`)
		case '\\':
			w.str(`\\`)
		case '\n':
			w.str(`\n`)
		case '\r':
			w.str(`\r`)
		case '\t':
			w.str(`\t`)
		case '\b':
			w.str(`\b`)
		case '\f':
			w.str(`\f`)
		case '<', '>', '&', '\'':
			w.u4(r)
		default:
			switch {
			case r >= 0x20 && r <= 0x7e:
				w.byte(byte(r))
			case r > 0xffff:
				r -= 0x10000
				w.u4(0xd800 | (r>>10)&0x3ff)
				w.u4(0xdc00 | r&0x3ff)
			default:
				w.u4(r)
			}
		}
	}
	w.byte('"')
}

// plainJSON reports a string that json.dumps copies unchanged.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if jsonEscaped(s[i]) {
			return false
		}
	}
	return true
}

// jsonEscaped reports a byte that is not copied as it is: a control,
// non-ASCII, a quote, a backslash or an html-safe escape.
func jsonEscaped(b byte) bool {
	switch {
	case b < 0x20 || b > 0x7e, b == '"', b == '\\', b == '<', b == '>', b == '&', b == '\'':
		return true
	}
	return false
}

func jsonFloat(f float64) string {
	switch s := value.FormatFloat(f); s {
	case "inf":
		return "Infinity"
	case "-inf":
		return "-Infinity"
	case "nan":
		return "NaN"
	default:
		return s
	}
}

// jsonKey converts a dict key as json does (after sorting).
func jsonKey(k value.Value) string {
	switch k.Kind() {
	case value.String:
		return k.Str()
	case value.Bool:
		if k.Bool() {
			return "true"
		}
		return "false"
	case value.None:
		return "null"
	case value.Int:
		return strconv.FormatInt(k.Int(), 10)
	case value.Float:
		return jsonFloat(k.Float())
	}
	value.Throwf(errs.Type, "keys must be str, int, float, bool or None, not %s", k.TypeName())
	return ""
}

func (w *jsonW) newline(depth int) {
	if w.indent == nil {
		return
	}
	w.byte('\n')
	for i := 0; i < depth; i++ {
		w.str(*w.indent)
	}
}

func (w *jsonW) value(v value.Value, depth int) {
	if depth > maxJSONDepth {
		value.Throw(errs.Render, "maximum recursion depth exceeded while encoding a JSON object")
	}
	if w.dry {
		w.c.Charge(budget.Elem, "filter tojson")
	}
	itemSep := ", "
	if w.indent != nil {
		itemSep = ","
	}
	switch v.Kind() {
	case value.String:
		w.quote(v.Str())
	case value.None:
		w.str("null")
	case value.Bool:
		if v.Bool() {
			w.str("true")
		} else {
			w.str("false")
		}
	case value.Int:
		if w.dry {
			w.n += int64(len(strconv.AppendInt(w.num[:0], v.Int(), 10)))
		} else {
			w.sb.Write(strconv.AppendInt(w.num[:0], v.Int(), 10))
		}
	case value.Float:
		w.str(jsonFloat(v.Float()))
	case value.List, value.Tuple:
		if view := viewName(v); view != "" {
			value.Throwf(errs.Type, "Object of type %s is not JSON serializable", view)
		}
		items := v.Items()
		if len(items) == 0 {
			w.str("[]")
			return
		}
		w.byte('[')
		for i, it := range items {
			if i > 0 {
				w.str(itemSep)
			}
			w.newline(depth + 1)
			w.value(it, depth+1)
		}
		w.newline(depth)
		w.byte(']')
	case value.Dict:
		d := v.DictData()
		if d.Len() == 0 {
			w.str("{}")
			return
		}
		var order []int
		if w.dry {
			order = sortedDictOrder(w.c, d)
			w.orders = append(w.orders, order)
		} else {
			order = w.orders[w.next]
			w.next++
		}
		w.byte('{')
		for i, idx := range order {
			if i > 0 {
				w.str(itemSep)
			}
			w.newline(depth + 1)
			w.quote(jsonKey(d.KeyAt(idx)))
			w.str(": ")
			w.value(d.ValAt(idx), depth+1)
		}
		w.newline(depth)
		w.byte('}')
	default:
		value.Throwf(errs.Type, "Object of type %s is not JSON serializable", v.TypeName())
	}
}

// sortedDictOrder is the index order of sorted(d.items()) by key.
func sortedDictOrder(c value.Ctx, d *value.DictData) []int {
	ks := make([]keyed, d.Len())
	keys := make([]value.Value, d.Len()) // one array for every key's slot
	for i := range ks {
		// sorted(d.items()) compares (key, value) tuples: keys are unique,
		// so that is key < key after an equality check
		keys[i] = d.KeyAt(i)
		ks[i] = keyed{key: keys[i : i+1 : i+1], i: i}
	}
	sortKeyed(c, ks, false, true)
	out := make([]int, len(ks))
	for i, k := range ks {
		out[i] = k.i
	}
	return out
}

func fTojson(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_tojson", "indent")
	w := &jsonW{c: c, dry: true}
	if !isNoneOrMissing(a[0]) {
		var ind string
		switch a[0].Kind() {
		case value.String:
			ind = a[0].Str()
		case value.Int, value.Bool:
			if n := a[0].Int(); n > 0 {
				c.Charge(n, "filter tojson")
				ind = strings.Repeat(" ", int(n))
			}
		default:
			value.Throwf(errs.Type, "can't multiply sequence by non-int of type %s", errs.Quote(a[0].TypeName()))
		}
		w.indent = &ind
	}
	w.value(v, 0)
	c.Charge(w.n, "filter tojson")
	w.dry = false
	w.sb.Grow(int(w.n))
	w.value(v, 0)
	return value.Safe(w.sb.String())
}
