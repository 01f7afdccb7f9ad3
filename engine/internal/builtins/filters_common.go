package builtins

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/policy"
)

// regFilter registers a filter under each name. The wrapper charges the
// per-call step so no filter can forget it, and precomputes the operation
// name so the hot path does not concatenate.
// The unwrapped filter is kept too (Unwrapped), for the engine to call
// with the same step charged in the same place on its own meter.
func regFilter(f FilterFunc, names ...string) {
	for _, name := range names {
		op := "filter " + name
		Filters[name] = func(c value.Ctx, v value.Value, args *value.Args) value.Value {
			c.Charge(budget.Step, op)
			return f(c, v, args)
		}
		Unwrapped[name] = UnwrappedFilter(f)
	}
}

// maxBound is the most parameters a filter binds by name
// (regex_replace's).
const maxBound = 6

// bind matches args to Python parameter names and returns the values, in
// an array on the caller's stack (a slice made here was a heap
// allocation a filter call); the slots past len(names) stay zero.
func bind(args *value.Args, fn string, names ...string) [maxBound]value.Value {
	var out [maxBound]value.Value
	args.Bind(fn, names, out[:len(names)])
	return out
}

// noArgs refuses any argument to a filter that takes none, as Python does.
func noArgs(args *value.Args, fn string) {
	if args.Len() > 0 {
		errs.Throwf(errs.Type, "%s() takes 1 positional argument but %d were given", fn, args.Len()+1)
	}
}

// softStr is markupsafe.soft_str: strings (markup included) unchanged,
// anything else str()'d. Undefined prints empty unless strict.
func softStr(c value.Ctx, v value.Value) value.Value {
	if v.IsString() {
		return v
	}
	return value.FromString(pyStr(c, v))
}

// pyStr is Python's str() honouring strict undefined. A container's repr
// is charged before it is built: shared references make it as large as
// every logical slot, far beyond the memory the value holds.
func pyStr(c value.Ctx, v value.Value) string {
	switch v.Kind() {
	case value.List, value.Tuple, value.Dict, value.Object:
		c.Charge(budget.Mul(value.Size(v, c.Meter().Left()), 2), "str()")
	}
	return strOf(c, v)
}

// strOf is pyStr for a value whose repr was already charged.
func strOf(c value.Ctx, v value.Value) string {
	if v.IsUndefined() && c.Strict() {
		vops.ThrowUndefined(v)
	}
	return value.StrIn(c, v)
}

// argInt reads an integer parameter; Missing gives def. Python refuses
// floats where an index is expected, so they are a type error.
func argInt(fn string, v value.Value, def int64) int64 {
	if v.IsMissing() {
		return def
	}
	switch v.Kind() {
	case value.Int, value.Bool:
		return v.Int()
	case value.Undefined:
		vops.ThrowUndefined(v)
	}
	errs.Throwf(errs.Type, "%s(): %s object cannot be interpreted as an integer", fn, errs.Quote(v.TypeName()))
	return 0
}

// argBool reads a boolean parameter by Python truthiness.
func argBool(v value.Value, def bool) bool {
	if v.IsMissing() {
		return def
	}
	return v.Truth()
}

// isNoneOrMissing reports a parameter left at Python's None default.
func isNoneOrMissing(v value.Value) bool { return v.IsMissing() || v.IsNone() }

// draw returns the items a filter iterates over, charging one element
// each before the caller touches them.
func draw(c value.Ctx, v value.Value, op string) []value.Value {
	if v.IsUndefined() && !c.Strict() {
		return nil
	}
	if v.IsString() {
		return strChars(c, v.Str(), op)
	}
	items := value.Iterate(c, v)
	c.Charge(budget.Mul(int64(len(items)), budget.Elem), op)
	return items
}

// strChars is iter(str): one plain string per code point (iterating
// Markup yields plain str in Python too).
func strChars(c value.Ctx, s string, op string) []value.Value {
	n := int64(strutil.RuneLen(s))
	c.Charge(budget.Add(budget.Mul(n, budget.Elem), int64(len(s))), op)
	out := vmem.Fresh(make([]value.Value, 0, n))
	for i := 0; i < len(s); {
		_, w := utf8.DecodeRuneInString(s[i:]) // an invalid byte is one item
		//scratch:ok pre-sized: made with its final capacity above, it never grows
		out = append(out, value.FromString(s[i:i+w]))
		i += w
	}
	return out
}

// attrPath is a parsed attribute= argument: dotted name segments, or one
// integer index when the argument itself is an integer.
type attrPath []string

// intSeg marks an integer argument's segment: it indexes with Item (a
// negative index counts from the end, as getitem does), not Lookup.
const intSeg = "\x00"

// parseAttrPath splits an attribute argument on dots like Jinja's
// _prepare_attribute_parts. None or Missing is the empty path (the item
// itself).
func parseAttrPath(c value.Ctx, v value.Value) attrPath {
	switch v.Kind() {
	case value.String:
		// the path is scanned for its dots: charged a unit a byte first
		// (a megabyte path, scanned twice uncharged on every call, ran
		// groupby of nothing at 8 ns a unit in the cost search)
		c.Charge(int64(v.ByteLen()), "attribute path")
		return splitCharged(c, v.Str(), ".", "attribute path")
	case value.Int, value.Bool:
		return attrPath{intSeg + strconv.FormatInt(v.Int(), 10)}
	case value.None:
		return nil
	case value.Undefined:
		if v.IsMissing() {
			return nil
		}
		vops.ThrowUndefined(v)
	}
	errs.Throwf(errs.Type, "attribute must be a string, not %s", errs.Quote(v.TypeName()))
	return nil
}

// refuseUnresolved applies rule P1 to attribute paths that were never
// looked up because the input had no items: an underscore segment is
// refused before resolution, with or without a receiver.
func refuseUnresolved(paths ...attrPath) {
	for _, p := range paths {
		for _, seg := range p {
			if policy.IsPrivateName(seg) {
				errs.Throwf(errs.Security, "access to attribute %s in a filter argument is unsafe", errs.Quote(seg))
			}
		}
	}
}

// parseMultiAttr splits sort's comma-separated attribute list.
func parseMultiAttr(c value.Ctx, v value.Value) []attrPath {
	if v.IsString() {
		// scanned for its commas, then each part for its dots
		c.Charge(budget.Mul(int64(v.ByteLen()), 2), "attribute path")
		parts := splitCharged(c, v.Str(), ",", "attribute path")
		c.Charge(budget.Mul(int64(len(parts)), 3*budget.Slot), "attribute path")
		out := make([]attrPath, len(parts))
		for i, p := range parts {
			out[i] = splitCharged(c, p, ".", "attribute path")
		}
		return out
	}
	return []attrPath{parseAttrPath(c, v)}
}

// lineSlot is what one element of a []string costs: a string header is
// two 8-byte slots (P11 charges container slots at their real size).
const lineSlot = 2 * budget.Slot

// lineUnits is what a filter walking a text line by line, without a list
// of lines, charges a line beyond its bytes: the per-line work (a
// boundary found, a separator and maybe an indentation written) that
// empty lines would otherwise get for nearly nothing.
const lineUnits = budget.Slot / 2

// splitCharged is strings.Split charging the list of parts at its real
// size before it is allocated: a separator a byte makes 16 bytes of
// headers per byte of text.
func splitCharged(c value.Ctx, s, sep, op string) []string {
	countCharged(c, s, sep, lineSlot, op)
	c.Charge(lineSlot, op)
	return strutil.Split(s, sep)
}

// get walks the path with the policy-checked Lookup. A non-nil dflt
// replaces an undefined result at any segment, as make_attrgetter does.
func (p attrPath) get(c value.Ctx, v value.Value, dflt *value.Value) value.Value {
	for _, seg := range p {
		if strings.HasPrefix(seg, intSeg) {
			// charged as the renderer's Lookup charges a segment of digits,
			// and an undefined result's record as it charges a missed one
			c.Charge(budget.Elem, "attribute path")
			n, _ := strconv.ParseInt(seg[len(intSeg):], 10, 64)
			v = c.Item(v, value.FromInt(n))
			if v.IsUndefined() {
				c.Charge(2*budget.Elem, "attribute path")
			}
		} else {
			v = c.Lookup(v, seg)
		}
		if dflt != nil && v.IsUndefined() {
			v = *dflt
		}
	}
	return v
}

// ignoreCase lowercases strings for case-insensitive comparisons, charged
// as the lower filter is (a byte charged once, a short key with one
// non-ASCII letter took 77 ns to lower, 11 ns a byte).
func ignoreCase(c value.Ctx, v value.Value) value.Value {
	if v.IsString() {
		c.Charge(budget.Mul(int64(len(v.Str())), caseCost), "case folding")
		return value.StringLike(v, pyLower(v.Str()))
	}
	return v
}

// pyIsSpace is Python's str.isspace for one code point.
func pyIsSpace(r rune) bool { return uniSpace(r) }

// pyStrip is Python's str.strip with chars (nil: whitespace).
func pyStrip(c value.Ctx, s string, chars *string, left, right bool) string {
	in := pyIsSpace
	if chars == nil {
		// ASCII whitespace byte by byte first: a function call a code
		// point ran 3.6 ns a byte charged
		i, j := 0, len(s)
		for left && i < j && asciiSpace(s[i]) {
			i++
		}
		for right && j > i && asciiSpace(s[j-1]) {
			j--
		}
		s = s[i:j]
	}
	if chars != nil {
		in = runeSet(c, *chars, "strip")
	}
	if left {
		s = strings.TrimLeftFunc(s, in)
	}
	if right {
		s = strings.TrimRightFunc(s, in)
	}
	return s
}

// pySplitLines is Python's str.splitlines() without keepends. It counts
// the lines first and charges the list at its real size (op names the
// caller) before allocating it: '\n' * 20000000 makes 320 MB of headers.
func pySplitLines(c value.Ctx, s string, op string) []string {
	n := int64(0)
	for i := 0; i < len(s); n++ {
		_, i = pyNextLine(s, i)
	}
	c.Charge(budget.Mul(n, lineSlot), op)
	out := make([]string, 0, n)
	for i := 0; i < len(s); {
		var ln string
		ln, i = pyNextLine(s, i)
		//scratch:ok pre-sized: made with its final capacity above, it never grows (n lines counted first)
		out = append(out, ln)
	}
	return out
}

// pyNextLine returns the line of s that begins at start and where the
// next one begins (len(s) after the last), with splitlines' line
// boundaries: \n, \r, \r\n, \v, \f, \x1c-\x1e, \x85, U+2028, U+2029.
func pyNextLine(s string, start int) (line string, next int) {
	// byte by byte, not rune by rune (a decode a code point ran 1.8 ns a
	// unit of indent): the breaks past ASCII are U+0085 (C2 85) and
	// U+2028/9 (E2 80 A8/A9), and a lead byte such as C2 or E2 is never
	// inside another code point's encoding, so matching them where they
	// are is what decoding finds
	for i := start; i < len(s); i++ {
		switch s[i] {
		case '\n', '\v', '\f', 0x1c, 0x1d, 0x1e:
			return s[start:i], i + 1
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				return s[start:i], i + 2
			}
			return s[start:i], i + 1
		case 0xc2:
			if i+1 < len(s) && s[i+1] == 0x85 {
				return s[start:i], i + 2
			}
		case 0xe2:
			if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9) {
				return s[start:i], i + 3
			}
		}
	}
	return s[start:], len(s)
}

// pyLower and pyUpper are Python's str.lower and str.upper (full case
// mappings and Final_Sigma, shared with the str methods in strcase.go).
func pyLower(s string) string { return PyLower(s) }

// pyUpper is Python's str.upper.
func pyUpper(s string) string { return PyUpper(s) }

// decodeRune decodes the code point at byte i (an invalid byte is one
// code point of width 1).
func decodeRune(s string, i int) (rune, int) {
	return utf8.DecodeRuneInString(s[i:])
}

// runePrefix returns the first n code points of s (Python s[:n], n >= 0).
func runePrefix(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if n >= len(s) {
		return s // no more code points than bytes
	}
	// an ASCII prefix is its bytes, with no decoding
	i := strutil.ASCIIPrefixLen(s, n)
	if i == n {
		return s[:n]
	}
	base := i // bytes and code points so far: all ASCII
	for pos := range s[base:] {
		if i == n {
			return s[:base+pos]
		}
		i++
	}
	return s
}

// runeSet is membership in the code points of chars in constant time a
// test: an ASCII bitmap, and the other code points sorted for a binary
// search (their array charged before it is made). Stripping with
// strings.ContainsRune scanned chars for every stripped character, a
// quadratic cost the bytes charged did not cover (red team round 3:
// trim of 300,000 characters with 300,000 chars took 3.4 s).
func runeSet(c value.Ctx, chars string, op string) func(rune) bool {
	var ascii [2]uint64
	wide := 0
	for i := 0; i < len(chars); i++ {
		if b := chars[i]; b < utf8.RuneSelf {
			ascii[b>>6] |= 1 << (b & 63)
		} else if utf8.RuneStart(b) {
			wide++
		}
	}
	var others []rune
	if wide > 0 {
		c.Charge(budget.Mul(int64(wide), 4), op)
		others = make([]rune, 0, wide) //scratch: charged above, 4 bytes a code point
		for _, r := range chars {
			if r >= utf8.RuneSelf {
				others = append(others, r)
			}
		}
		slices.Sort(others)
	}
	return func(r rune) bool {
		if r < utf8.RuneSelf {
			return ascii[r>>6]&(1<<(r&63)) != 0
		}
		_, found := slices.BinarySearch(others, r)
		return found
	}
}

// chargeStripChars is what stripping s of chars costs in Python, whose
// strip tests each stripped character against chars with a scan of chars:
// a unit a byte of chars for every 64 bytes of s. jinjabox's own test is a
// constant-time runeSet, so this is an upper bound of its work; it keeps
// trim(chars) and str.strip(chars) priced alike (red team round 3 found
// trim uncharged).
func chargeStripChars(c value.Ctx, s, chars, op string) {
	c.Charge(budget.Mul(int64(len(chars)), int64(len(s))/64+1), op)
}
