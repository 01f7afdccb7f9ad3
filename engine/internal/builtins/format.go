package builtins

import (
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/policy"
)

// str.format and str.format_map, sandboxed as Jinja's SandboxedFormatter
// (a string.Formatter): every '.name' of a field goes through c.Attr and
// every '[key]' through c.Item, the policy chokepoint (P1/P2), even when
// the value is undefined. Each field is charged its estimated output size
// (widths and precisions included) before it is formatted.

// fieldSource resolves the first part of a field name.
type fieldSource struct {
	pos    []value.Value
	kw     []value.KV
	mapArg value.Value // format_map's mapping (Kind Undefined when absent)
	isMap  bool
}

func (src *fieldSource) byIndex(i int64) value.Value {
	if i >= int64(len(src.pos)) {
		pyErr(errs.Render, "IndexError", "Replacement index "+strconv.FormatInt(i, 10)+" out of range for positional args tuple")
	}
	return src.pos[i]
}

func (src *fieldSource) byName(c value.Ctx, name string) value.Value {
	if src.isMap {
		m := src.mapArg
		if m.Kind() == value.Dict {
			if v, ok := m.DictData().Get(value.FromString(name)); ok {
				return v
			}
			if policy.IsPrivateName(name) {
				c.Item(m, value.FromString(name)) // the chokepoint refuses
			}
		} else {
			switch m.Kind() {
			case value.Undefined:
				vops.ThrowUndefined(m)
			case value.Object:
				return c.Item(m, value.FromString(name))
			}
			typeError(m.TypeName() + " indices must be integers or slices, not str")
		}
	} else {
		for _, kv := range src.kw {
			if kv.Key == name {
				return kv.Val
			}
		}
	}
	pyErr(errs.Render, "KeyError", "'"+errs.Bound(name)+"'")
	return value.Value{}
}

type formatter struct {
	c      value.Ctx
	src    *fieldSource
	markup bool  // Markup receiver: fields are escaped (EscapeFormatter)
	auto   int64 // next automatic index; -1 once manual numbering is used
}

func strFormat(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	src := &fieldSource{}
	if args != nil {
		src.pos, src.kw = args.Pos, args.Kw
	}
	return runFormat(c, recv, src)
}

func strFormatMap(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	if args != nil && len(args.Kw) > 0 {
		typeError("format_map() takes no keyword arguments")
	}
	if args == nil || len(args.Pos) != 1 {
		typeError("format_map() takes exactly one argument (" + strconv.Itoa(args.Len()) + " given)")
	}
	return runFormat(c, recv, &fieldSource{mapArg: args.Pos[0], isMap: true})
}

func runFormat(c value.Ctx, recv value.Value, src *fieldSource) value.Value {
	s := scanRecv(c, "str.format", recv, 1)
	f := &formatter{c: c, src: src, markup: recv.IsSafe()}
	var out pieces
	f.vformat(&out, s, 2)
	return value.StringLikeCounted(recv, out.join(), out.runes)
}

// vformat is string.Formatter._vformat: literal text and fields; every
// field's spec is itself formatted one level deeper.
func (f *formatter) vformat(sb *pieces, s string, depth int) {
	if depth < 0 {
		valueError("Max string recursion exceeded")
	}
	for len(s) > 0 {
		i := strings.IndexAny(s, "{}")
		if i < 0 {
			sb.add(s)
			return
		}
		sb.add(s[:i])
		if s[i] == '}' {
			if i+1 < len(s) && s[i+1] == '}' {
				sb.add("}")
				s = s[i+2:]
				continue
			}
			valueError("Single '}' encountered in format string")
		}
		if i+1 < len(s) && s[i+1] == '{' {
			sb.add("{")
			s = s[i+2:]
			continue
		}
		// find the matching '}', counting nested braces of the spec
		j, count := i+1, 1
		for j < len(s) {
			if s[j] == '{' {
				count++
			} else if s[j] == '}' {
				count--
				if count == 0 {
					break
				}
			}
			j++
		}
		if j >= len(s) {
			if count > 1 {
				valueError("expected '}' before end of string")
			}
			valueError("Single '{' encountered in format string")
		}
		f.field(sb, s[i+1:j], depth)
		s = s[j+1:]
	}
}

// field formats one replacement field "name[!conv][:spec]".
func (f *formatter) field(sb *pieces, body string, depth int) {
	// the name ends at ':' or '!' outside brackets
	k := 0
	for k < len(body) {
		ch := body[k]
		if ch == '[' {
			for k < len(body) && body[k] != ']' {
				k++
			}
			if k < len(body) {
				k++
			}
			continue
		}
		if ch == '{' {
			valueError("unexpected '{' in field name")
		}
		if ch == ':' || ch == '!' {
			break
		}
		k++
	}
	name, rest := body[:k], body[k:]
	conv := byte(0)
	if strings.HasPrefix(rest, "!") {
		if len(rest) < 2 {
			valueError("end of string while looking for conversion specifier")
		}
		conv = rest[1]
		rest = rest[2:]
		if rest != "" && rest[0] != ':' {
			valueError("expected ':' after conversion specifier")
		}
	}
	spec := strings.TrimPrefix(rest, ":")
	v := f.resolve(name)
	switch conv {
	case 0:
	case 's':
		v = value.FromString(f.str(v))
	case 'r':
		v = value.FromString(f.repr(v))
	case 'a':
		v = value.FromString(asciiRepr(f.repr(v)))
	default:
		valueError("Unknown conversion specifier " + string(conv))
	}
	var specb pieces
	f.vformat(&specb, spec, depth-1)
	out, n := f.formatField(v, specb.join())
	if len(out) < smallPiece {
		// a short field's text is appended to the result's byte buffer,
		// which grows by doubling and is copied once more at the end:
		// three units a byte of it, before it is added ("{0}" fields of a
		// short value, charged by the format string's bytes alone,
		// allocated up to 4.2 bytes a unit: the cost search's str.format
		// SF shapes). A longer one is a piece of its own, joined once,
		// which its estimate paid for.
		f.c.Charge(int64(3*len(out)), "format field")
	}
	sb.addCounted(out, n)
}

// resolve looks a field name up: the first part in the arguments, then
// each '.attr' through c.Attr and each '[key]' through c.Item.
func (f *formatter) resolve(name string) value.Value {
	first := name
	if i := strings.IndexAny(name, ".["); i >= 0 {
		first = name[:i]
	}
	rest := name[len(first):]
	f.precheck(rest)
	var v value.Value
	switch {
	case name == "":
		if f.auto < 0 {
			valueError("cannot switch from manual field specification to automatic field numbering")
		}
		v = f.src.byIndex(f.auto)
		f.auto++
	case isDigits(name):
		if f.auto > 0 {
			valueError("cannot switch from automatic field numbering to manual field specification")
		}
		f.auto = -1
		v = f.src.byIndex(parseIndex(first))
	case isDigits(first):
		v = f.src.byIndex(parseIndex(first))
	default:
		v = f.src.byName(f.c, first)
	}
	for rest != "" {
		f.c.Charge(budget.Elem, "format field lookup")
		if rest[0] == '.' {
			j := strings.IndexAny(rest[1:], ".[")
			attr := rest[1:]
			if j >= 0 {
				attr = rest[1 : 1+j]
			}
			if attr == "" {
				valueError("Empty attribute in format string")
			}
			v = f.c.Attr(v, attr)
			rest = rest[1+len(attr):]
			continue
		}
		// '[key]'
		j := strings.IndexByte(rest, ']')
		if j < 0 {
			valueError("Missing ']' in format string")
		}
		key := rest[1:j]
		if key == "" {
			valueError("Empty attribute in format string")
		}
		rest = rest[j+1:]
		if rest != "" && rest[0] != '.' && rest[0] != '[' {
			valueError("Only '.' or '[' may follow ']' in format field specifier")
		}
		if isDigits(key) {
			v = f.c.Item(v, value.FromInt(parseIndex(key)))
		} else {
			v = f.c.Item(v, value.FromString(key))
		}
	}
	return v
}

// precheck refuses a private '.name' segment through the chokepoint before
// anything is resolved (P1, P4: even when the receiver would be undefined).
// A name a template surface declares readable is left to the chokepoint at
// resolution, which allows it on such a surface only (P12).
func (f *formatter) precheck(rest string) {
	for rest != "" {
		if rest[0] == '[' {
			j := strings.IndexByte(rest, ']')
			if j < 0 {
				return // resolve reports the syntax error
			}
			rest = rest[j+1:]
			continue
		}
		seg := rest[1:]
		if j := strings.IndexAny(seg, ".["); j >= 0 {
			seg = seg[:j]
		}
		if policy.IsPrivateName(seg) && !policy.SurfaceReadable(seg) {
			// refused before any receiver is resolved: the message names
			// the field, not a receiver it never looked at (it named an
			// "undefined" one)
			errs.Throwf(errs.Security, "access to attribute %s in a format field is unsafe", errs.Quote(seg))
		}
		rest = rest[1+len(seg):]
	}
}

// parseIndex reads a field's digits as CPython's get_integer does: past
// Py_ssize_t it is a ValueError, not an index that is merely missing.
func parseIndex(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		valueError("Too many decimal digits in format string")
	}
	return n
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// str is Python's str() of a field value, charged by size.
func (f *formatter) str(v value.Value) string {
	if v.IsUndefined() && f.c.Strict() {
		vops.ThrowUndefined(v)
	}
	f.c.Charge(value.Size(v, f.c.Meter().Left()), "format field")
	return value.StrIn(f.c, v)
}

func (f *formatter) repr(v value.Value) string {
	f.c.Charge(budget.Mul(value.Size(v, f.c.Meter().Left()), 2), "format field")
	return value.ReprIn(f.c, v)
}

// formatField is format(v, spec), escaped for a Markup receiver, and its
// length in code points.
func (f *formatter) formatField(v value.Value, spec string) (string, int64) {
	if f.markup {
		if v.IsSafe() {
			if spec != "" {
				valueError("Unsupported format specification for Markup.")
			}
			return v.Str(), int64(v.RuneCount())
		}
		out := FormatValue(f.c, v, spec)
		f.c.Charge(budget.Mul(int64(len(out)), budget.EscapeFactor), "format escape")
		out = value.EscapeHTML(out)
		return out, int64(strutil.RuneLen(out))
	}
	if v.IsString() {
		// a string knows its count: the field's is known without a scan
		return formatStr(f.c, v, spec)
	}
	out := FormatValue(f.c, v, spec)
	return out, int64(strutil.RuneLen(out))
}

// formatStr is FormatValue of a string value, with the result's count.
func formatStr(c value.Ctx, v value.Value, spec string) (string, int64) {
	fs := parseSpec(spec, "str")
	fs.c = c
	c.Charge(fs.estimate(int64(len(v.Str()))), "format field")
	return formatStrSpec(v.Str(), int64(v.RuneCount()), fs)
}

// FormatValue is Python's format(v, spec) for plain values, charging the
// estimated output before building it.
func FormatValue(c value.Ctx, v value.Value, spec string) string {
	switch v.Kind() {
	case value.String:
		out, _ := formatStr(c, v, spec)
		return out
	case value.Bool:
		if spec == "" {
			return value.ToString(v)
		}
		fallthrough
	case value.Int:
		fs := parseSpec(spec, "int")
		fs.c = c
		c.Charge(fs.estimate(80), "format field")
		return formatIntSpec(v.Int(), fs)
	case value.Float:
		fs := parseSpec(spec, "float")
		fs.c = c
		c.Charge(fs.estimate(330), "format field")
		return formatFloatSpec(v.Float(), fs)
	case value.Undefined:
		if c.Strict() {
			vops.ThrowUndefined(v)
		}
	}
	if spec != "" {
		typeError("unsupported format string passed to " + v.TypeName() + ".__format__")
	}
	c.Charge(value.Size(v, c.Meter().Left()), "format field")
	return value.StrIn(c, v)
}

// asciiRepr is Python's ascii(): the repr with non-ASCII escaped. The
// result is sized first and each escape's digits written in place: a
// string made for each escape and a builder grown as it went took 650 ms
// and 76 MB for 3 M code points (36 ns a unit).
func asciiRepr(r string) string {
	if asciiOnly(r) {
		return r
	}
	size := 0
	for _, ch := range r {
		switch {
		case ch < 0x80:
			size++
		case ch <= 0xff:
			size += 4
		case ch <= 0xffff:
			size += 6
		default:
			size += 10
		}
	}
	var sb strings.Builder
	sb.Grow(size)
	for _, ch := range r {
		switch {
		case ch < 0x80:
			sb.WriteByte(byte(ch))
		case ch <= 0xff:
			sb.WriteString(`\x`)
			writeHexDigits(&sb, ch, 2)
		case ch <= 0xffff:
			sb.WriteString(`\u`)
			writeHexDigits(&sb, ch, 4)
		default:
			sb.WriteString(`\U`)
			writeHexDigits(&sb, ch, 8)
		}
	}
	return sb.String()
}

// writeHexDigits writes r as w lower-case hex digits (r fits in them).
func writeHexDigits(sb *strings.Builder, r rune, w int) {
	for shift := 4 * (w - 1); shift >= 0; shift -= 4 {
		sb.WriteByte("0123456789abcdef"[(r>>shift)&0xf])
	}
}
