package builtins

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
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
	c   value.Ctx
	dry bool
	n   int64
	sb  strutil.TextWriter
	// indented says an indent was given: ind is it, built only for the
	// real pass (the dry pass counts indLen a level), so an indent of 10^8
	// spaces whose output the budget then refuses is never made (it was,
	// 100 MB and 700 ms before the refusal)
	indented bool
	ind      string
	indLen   int64
	// orders holds each dict's sorted key order, one after the other in
	// the order the dry pass met them; the real pass, which meets them in
	// the same order, reads them back (from next) instead of sorting
	// every dict again.
	orders []int
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

// jsonASCII is what json.dumps (ensure_ascii, html-safe) writes for each
// ASCII byte: "" for a byte copied as it is, else its escape. One table
// read a byte sizes a string and one write an escape writes it (the
// escapes were decoded and written a piece at a time, twice: 3.4 ns a
// unit on a string of escapes).
var jsonASCII = func() (t [utf8.RuneSelf]string) {
	for b := range t {
		switch {
		case b == '"':
			t[b] = `\"`
		case b == '\\':
			t[b] = `\\`
		case b == '\n':
			t[b] = `\n`
		case b == '\r':
			t[b] = `\r`
		case b == '\t':
			t[b] = `\t`
		case b == '\b':
			t[b] = `\b`
		case b == '\f':
			t[b] = `\f`
		case b < 0x20, b == 0x7f, b == '<', b == '>', b == '&', b == '\'':
			var u [6]byte
			t[b] = string(appendU4(u[:0], rune(b)))
		}
	}
	return t
}()

// jsonASCIILen is the length of each ASCII byte's output.
var jsonASCIILen = func() (t [utf8.RuneSelf]uint8) {
	for b, e := range jsonASCII {
		t[b] = uint8(max(len(e), 1))
	}
	return t
}()

// appendU4 appends the \uXXXX escape of the UTF-16 unit r.
func appendU4(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexLower[r>>12&15], hexLower[r>>8&15], hexLower[r>>4&15], hexLower[r&15])
}

// writeU4 writes the \uXXXX escape of the UTF-16 unit r in place.
func writeU4(sb *strutil.TextWriter, r rune) {
	b := sb.Next(6)
	b[0], b[1], b[2], b[3], b[4], b[5] = '\\', 'u', hexLower[r>>12&15], hexLower[r>>8&15], hexLower[r>>4&15], hexLower[r&15]
}

// quotedJSONLen is the length of s quoted by json.dumps.
func quotedJSONLen(s string) int64 {
	n := int64(2)
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			n += int64(jsonASCIILen[b])
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n += 6
		if r > 0xffff {
			n += 6
		}
	}
	return n
}

// quote writes a JSON string with ensure_ascii, plus the html-safe
// escapes of < > & '.
func (w *jsonW) quote(s string) {
	if w.dry {
		w.c.Charge(int64(len(s)), "filter tojson")
		w.n += quotedJSONLen(s)
		return
	}
	w.sb.WriteByte('"')
	for len(s) > 0 {
		// a run that needs no escape is copied whole, not rune by rune
		i := 0
		for i < len(s) && s[i] < utf8.RuneSelf && jsonASCIILen[s[i]] == 1 {
			i++
		}
		if i > 4 {
			w.sb.WriteString(s[:i])
		} else {
			for j := 0; j < i; j++ { // a short run (or none): no copy call
				w.sb.WriteByte(s[j])
			}
		}
		if i == len(s) {
			break
		}
		if b := s[i]; b < utf8.RuneSelf {
			if e := jsonASCII[b]; len(e) == 2 {
				d := w.sb.Next(2)
				d[0], d[1] = e[0], e[1]
			} else {
				writeU4(&w.sb, rune(b))
			}
			s = s[i+1:]
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		s = s[i+size:]
		if r > 0xffff {
			r -= 0x10000
			writeU4(&w.sb, 0xd800|(r>>10)&0x3ff)
			r = 0xdc00 | r&0x3ff
		}
		writeU4(&w.sb, r)
	}
	w.sb.WriteByte('"')
}

func jsonFloat(f float64) string {
	switch s := strutil.FormatFloat(f); s {
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
	errs.Throwf(errs.Type, "keys must be str, int, float, bool or None, not %s", k.TypeName())
	return ""
}

func (w *jsonW) newline(depth int) {
	if !w.indented {
		return
	}
	w.byte('\n')
	if w.dry {
		w.n = budget.Add(w.n, budget.Mul(int64(depth), w.indLen))
		return
	}
	for i := 0; i < depth; i++ {
		w.str(w.ind)
	}
}

func (w *jsonW) value(v value.Value, depth int) {
	if depth > maxJSONDepth {
		errs.Throw(errs.Render, "maximum recursion depth exceeded while encoding a JSON object")
	}
	if w.dry {
		w.c.Charge(budget.Elem, "filter tojson")
	}
	itemSep := ", "
	if w.indented {
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
		if view := vops.ViewOf(v); view != "" {
			errs.Throwf(errs.Type, "Object of type %s is not JSON serializable", view)
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
			start := len(w.orders)
			w.orders = sortedDictOrder(w.c, d, w.orders)
			order = w.orders[start:]
		} else {
			order = w.orders[w.next : w.next+d.Len()]
			w.next += d.Len()
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
		errs.Throwf(errs.Type, "Object of type %s is not JSON serializable", v.TypeName())
	}
}

// smallJSONDict is the most keys sortedDictOrder sorts in place.
const smallJSONDict = 8

// sortedDictOrder appends to dst the index order of sorted(d.items()) by
// key. A small dict of string keys, the common case, is sorted in place
// by insertion, charged as lessKeys charges each comparison (the sort of
// keyed values allocated five times a dict: half of tojson's time on a
// list of small dicts).
func sortedDictOrder(c value.Ctx, d *value.DictData, dst []int) []int {
	if n := d.Len(); n <= smallJSONDict && strKeys(d) {
		base := len(dst)
		for i := 0; i < n; i++ {
			dst = append(dst, i)
			for j := len(dst) - 1; j > base; j-- {
				a, b := d.KeyAt(dst[j]).Str(), d.KeyAt(dst[j-1]).Str()
				cost := budget.Elem + int64(min(len(a), len(b)))
				if len(a) == len(b) {
					cost += int64(len(a)) // the equality check first
				}
				c.Charge(cost, "comparison")
				if a > b { // keys are unique: never equal
					break
				}
				dst[j], dst[j-1] = dst[j-1], dst[j]
			}
		}
		return dst
	}
	ks := vmem.Fresh(make([]keyed, d.Len()))
	keys := vmem.Fresh(make([]value.Value, d.Len())) // one array for every key's slot
	for i := range ks {
		// sorted(d.items()) compares (key, value) tuples: keys are unique,
		// so that is key < key after an equality check
		keys[i] = d.KeyAt(i)
		ks[i] = keyed{key: keys[i : i+1 : i+1], i: i}
	}
	sortKeyed(c, ks, false, true)
	for _, k := range ks {
		dst = append(dst, k.i)
	}
	return dst
}

// strKeys reports a dict whose keys are all strings.
func strKeys(d *value.DictData) bool {
	for i := 0; i < d.Len(); i++ {
		if !d.KeyAt(i).IsString() {
			return false
		}
	}
	return true
}

func fTojson(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_tojson", "indent")
	w := &jsonW{c: c, dry: true}
	spaces := int64(0)
	if !isNoneOrMissing(a[0]) {
		w.indented = true
		switch a[0].Kind() {
		case value.String:
			w.ind = a[0].Str()
			w.indLen = int64(len(w.ind))
		case value.Int, value.Bool:
			if n := a[0].Int(); n > 0 {
				c.Charge(n, "filter tojson")
				spaces, w.indLen = n, n
			}
		default:
			errs.Throwf(errs.Type, "can't multiply sequence by non-int of type %s", errs.Quote(a[0].TypeName()))
		}
	}
	w.value(v, 0)
	c.Charge(w.n, "filter tojson")
	w.dry = false
	if spaces > 0 {
		w.ind = strings.Repeat(" ", int(spaces))
	}
	w.sb.Grow(int(w.n))
	w.value(v, 0)
	return value.Safe(w.sb.String())
}
