package value

import (
	"math"
	"math/big"
	"strings"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
)

func overflow(c Ctx, op string) {
	errs.Raise(&budget.Error{Limit: budget.LimitIntegerWidth, Phase: c.Meter().Phase, Op: "integer " + op,
		Configured: 64, Observed: 65})
}

func typeErr(op string, a, b Value) {
	errs.Throwf(errs.Type, "unsupported operand type(s) for %s: %s and %s", op, errs.Quote(a.TypeName()), errs.Quote(b.TypeName()))
}

func undefCheck(a, b Value) {
	if a.k == Undefined {
		throwUndefined(a)
	}
	if b.k == Undefined {
		throwUndefined(b)
	}
}

// throwUndefined raises the undefined error for using u
// (vops.ThrowUndefined outside this package).
func throwUndefined(u Value) {
	errs.Throw(errs.Undefined, errs.UndefinedMessage(u.UndefHintText(), u.ref == missingMarker, u.s))
}

func isIntLike(v Value) bool { return v.k == Int || v.k == Bool }

// addInt adds with the 64-bit rule.
func addInt(c Ctx, a, b int64) int64 {
	s := a + b
	if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
		overflow(c, "+")
	}
	return s
}

// mulInt multiplies with the 64-bit rule.
func mulInt(c Ctx, a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		overflow(c, "*")
	}
	return p
}

// ConcatPlain is the plain string of a's text then b's (two string
// values, their markup flags dropped): Python's str + str, and Jinja's ~
// of two strings. Inputs read, then the result allocated, are charged
// first (a lazy operand is built only then): doubling adds up twice.
func ConcatPlain(c Ctx, a, b Value) Value {
	c.Charge(2*(int64(a.byteLen())+int64(b.byteLen())), "string concatenation")
	if size := a.byteLen() + b.byteLen(); size >= LazyMin {
		// a lazy join: built on its first read a chunk at a time, a
		// point where the goroutine can be preempted between two (Go's +
		// is one copy it cannot be); a doubling never read again is never
		// built
		return lazyJoin(c, []string{a.Str(), b.Str()}, size, int64(a.RuneCount()+b.RuneCount()), false)
	}
	return FromString(a.Str() + b.Str())
}

// Add is Python's a + b.
func Add(c Ctx, a, b Value) Value {
	undefCheck(a, b)
	if isIntLike(a) && isIntLike(b) {
		return FromInt(addInt(c, a.n, b.n))
	}
	if a.IsNumber() && b.IsNumber() {
		return FromFloat(a.Float() + b.Float())
	}
	if a.k == String && b.k == String {
		if a.safe || b.safe {
			c.Charge(2*(int64(a.byteLen())+int64(b.byteLen())), "string concatenation")
			return Safe(escapeStr(a) + escapeStr(b))
		}
		return ConcatPlain(c, a, b)
	}
	if (a.k == List && b.k == List) || (a.k == Tuple && b.k == Tuple) {
		if va, vb := viewOf(a), viewOf(b); va != "" || vb != "" {
			// a range or a dict view is no list: Python's list.__add__
			// refuses it, and the view has no __add__
			if va == "" {
				errs.Throwf(errs.Type, "can only concatenate list (not %q) to list", vb)
			}
			typeErr("+", a, b)
		}
		ai, bi := a.Items(), b.Items()
		c.Charge(2*int64(len(ai)+len(bi))*(budget.Slot+budget.Elem), "sequence concatenation")
		out := vmem.Fresh(make([]Value, 0, len(ai)+len(bi)))
		out = vmem.Append(vmem.Append(out, ai...), bi...)
		return Value{k: a.k, ref: &ListData{Items: out}}
	}
	typeErr("+", a, b)
	return Value{}
}

// escapeStr returns the markup text of a string value (escaping plain text).
func escapeStr(v Value) string {
	if v.safe {
		return v.Str()
	}
	return EscapeHTML(v.Str())
}

// Sub is Python's a - b.
func Sub(c Ctx, a, b Value) Value {
	undefCheck(a, b)
	if isIntLike(a) && isIntLike(b) {
		d := a.n - b.n
		if (a.n >= 0) != (b.n >= 0) && (d >= 0) != (a.n >= 0) {
			overflow(c, "-")
		}
		return FromInt(d)
	}
	if a.IsNumber() && b.IsNumber() {
		return FromFloat(a.Float() - b.Float())
	}
	typeErr("-", a, b)
	return Value{}
}

// Mul is Python's a * b, estimating repetition before allocating.
func Mul(c Ctx, a, b Value) Value {
	undefCheck(a, b)
	if isIntLike(a) && isIntLike(b) {
		return FromInt(mulInt(c, a.n, b.n))
	}
	if a.IsNumber() && b.IsNumber() {
		return FromFloat(a.Float() * b.Float())
	}
	if viewOf(a) != "" || viewOf(b) != "" {
		typeErr("*", a, b) // neither a range nor a dict view repeats
	}
	if isIntLike(a) && (b.k == String || b.k == List || b.k == Tuple) {
		a, b = b, a
	}
	if isIntLike(b) {
		n := b.n
		if n < 0 {
			n = 0
		}
		switch a.k {
		case String:
			c.Charge(budget.Mul(int64(a.byteLen()), n), "string repetition")
			runes := int64(a.RuneCount()) * n // within the bytes just charged
			if size := int64(a.byteLen()) * n; size >= LazyMin {
				return lazyRepeat(c, a.Str(), int(n), a.safe, runes)
			}
			return Value{k: String, safe: a.safe, s: strutil.RepeatPolled(c, a.Str(), int(n)), n: runes + 1}
		case List, Tuple:
			items := a.Items()
			if len(items) == 0 || n == 0 {
				// nothing to repeat: no per-round work to charge or run
				return Value{k: a.k, ref: &ListData{}}
			}
			per := Size(a, c.Meter().Left()) + int64(len(items))*budget.Elem
			c.Charge(budget.Mul(per, n), "sequence repetition")
			out := vmem.Fresh(make([]Value, 0, len(items)*int(n)))
			for i := int64(0); i < n; i++ {
				out = vmem.Append(out, items...)
			}
			return Value{k: a.k, ref: &ListData{Items: out}}
		}
	}
	typeErr("*", a, b)
	return Value{}
}

func zeroDiv(op string) {
	v := errs.New(errs.Render, op+" by zero")
	v.PyError = "ZeroDivisionError"
	panic(v)
}

// Div is Python's true division.
func Div(c Ctx, a, b Value) Value {
	undefCheck(a, b)
	if !a.IsNumber() || !b.IsNumber() {
		typeErr("/", a, b)
	}
	if b.Float() == 0 {
		zeroDiv("division")
	}
	if isIntLike(a) && isIntLike(b) && (!exactFloat(a.n) || !exactFloat(b.n)) {
		// Python divides integers exactly and rounds the quotient once
		// (long_true_divide); converting first would round twice. Past
		// 2**53 an int64 is not a float64, so the quotient is taken as a
		// fraction (one step: a fixed cost, two 64-bit integers).
		c.Charge(budget.Step, "integer true division")
		q, _ := new(big.Rat).SetFrac(big.NewInt(a.n), big.NewInt(b.n)).Float64()
		if q == 0 && (a.n < 0) != (b.n < 0) {
			q = math.Copysign(0, -1) // a zero quotient keeps the signs' sign
		}
		return FromFloat(q)
	}
	return FromFloat(a.Float() / b.Float())
}

// exactFloat reports whether n converts to a float64 exactly (|n| <= 2**53).
func exactFloat(n int64) bool { return n >= -1<<53 && n <= 1<<53 }

// FloorDiv is Python's a // b.
func FloorDiv(c Ctx, a, b Value) Value {
	undefCheck(a, b)
	if isIntLike(a) && isIntLike(b) {
		if b.n == 0 {
			zeroDiv("integer division")
		}
		if a.n == math.MinInt64 && b.n == -1 {
			overflow(c, "//")
		}
		q := a.n / b.n
		if (a.n%b.n != 0) && ((a.n < 0) != (b.n < 0)) {
			q--
		}
		return FromInt(q)
	}
	if a.IsNumber() && b.IsNumber() {
		if b.Float() == 0 {
			zeroDiv("float floor division")
		}
		return FromFloat(floatFloorDiv(a.Float(), b.Float()))
	}
	typeErr("//", a, b)
	return Value{}
}

// Mod is Python's a % b for numbers (floor modulo); the built-ins' Mod
// adds string formatting, str % args, which is theirs.
func Mod(c Ctx, a, b Value) Value {
	undefCheck(a, b)
	if isIntLike(a) && isIntLike(b) {
		if b.n == 0 {
			zeroDiv("integer modulo")
		}
		if b.n == -1 {
			return FromInt(0)
		}
		m := a.n % b.n
		if m != 0 && ((m < 0) != (b.n < 0)) {
			m += b.n
		}
		return FromInt(m)
	}
	if a.IsNumber() && b.IsNumber() {
		x, y := a.Float(), b.Float()
		if y == 0 {
			zeroDiv("float modulo")
		}
		return FromFloat(floatMod(x, y))
	}
	typeErr("%", a, b)
	return Value{}
}

// Pow is Python's a ** b.
func Pow(c Ctx, a, b Value) Value {
	undefCheck(a, b)
	if isIntLike(a) && isIntLike(b) {
		if b.n < 0 {
			if a.n == 0 {
				zeroDiv("0.0 cannot be raised to a negative power; division")
			}
			c.Charge(powUnits, "float power")
			return FromFloat(floatPow(float64(a.n), float64(b.n)))
		}
		base, exp, res := a.n, b.n, int64(1)
		if base == 0 || base == 1 {
			if exp == 0 {
				return FromInt(1)
			}
			return FromInt(base)
		}
		if base == -1 {
			if exp%2 == 0 {
				return FromInt(1)
			}
			return FromInt(-1)
		}
		for exp > 0 {
			c.Charge(budget.Step/16, "integer power")
			if exp&1 == 1 {
				res = mulInt(c, res, base)
			}
			exp >>= 1
			if exp > 0 {
				base = mulInt(c, base, base)
			}
		}
		return FromInt(res)
	}
	if a.IsNumber() && b.IsNumber() {
		x, y := a.Float(), b.Float()
		if x == 0 && y < 0 {
			zeroDiv("0.0 cannot be raised to a negative power; division")
		}
		if x < 0 && y != math.Trunc(y) {
			errs.Throw(errs.Type, "complex result of power is not supported")
		}
		c.Charge(powUnits, "float power")
		r := floatPow(x, y)
		if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
			errs.Throw(errs.Render, "numerical result out of range")
		}
		return FromFloat(r)
	}
	typeErr("** or pow()", a, b)
	return Value{}
}

// Neg is unary minus.
func Neg(c Ctx, a Value) Value {
	if a.k == Undefined {
		throwUndefined(a)
	}
	switch a.k {
	case Int, Bool:
		if a.n == math.MinInt64 {
			overflow(c, "unary -")
		}
		return FromInt(-a.n)
	case Float:
		return FromFloat(-a.Float())
	}
	errs.Throwf(errs.Type, "bad operand type for unary -: %s", errs.Quote(a.TypeName()))
	return Value{}
}

// Pos is unary plus.
func Pos(c Ctx, a Value) Value {
	if a.k == Undefined {
		throwUndefined(a)
	}
	switch a.k {
	case Int, Bool:
		return FromInt(a.n)
	case Float:
		return a
	}
	errs.Throwf(errs.Type, "bad operand type for unary +: %s", errs.Quote(a.TypeName()))
	return Value{}
}

// Equal is Python's ==, charging for the bytes compared.
func Equal(c Ctx, a, b Value) bool { return EqualFrom(c, nil, a, b) }

// strEqual is EqualFrom of a and the string b: a equals b when it is a
// string of b's length and of b's bytes, which are charged (strings of
// different lengths are not compared). Neither text is read before the
// charge: a lazy string is built only for a comparison charged.
func strEqual(c Ctx, m *budget.Meter, a, b *Value) bool {
	if a.k != String || a.byteLen() != b.byteLen() {
		return false
	}
	if n := int64(b.byteLen()); !strutil.Spent(m, n) {
		c.Charge(n, "string comparison")
	}
	return a.Str() == b.Str()
}

// EqualFrom is Equal spending from m, c.Spender(), where it can (strutil.Spent):
// for a sort, which compares n log n times.
func EqualFrom(c Ctx, m *budget.Meter, a, b Value) bool {
	switch a.k {
	case Bool, Int, Float:
		return b.IsNumber() && numCompare(&a, &b) == 0
	case String:
		return b.k == String && strEqual(c, m, &a, &b)
	case None:
		return b.k == None
	case Undefined:
		return b.k == Undefined
	case List, Tuple:
		if b.k != a.k {
			return false
		}
		va := viewOf(a)
		if va != viewOf(b) {
			return false // a range or a view equals none of another type
		}
		ai, bi := a.Items(), b.Items()
		if len(ai) != len(bi) {
			return false
		}
		switch va {
		case "dict_values":
			return a.ref == b.ref // values views compare by identity
		case "dict_keys", "dict_items":
			return setEqual(c, m, ai, bi) // set-like views compare as sets
		}
		for i := range ai {
			if !strutil.Spent(m, budget.Elem) {
				c.Charge(budget.Elem, "sequence comparison")
			}
			if !EqualFrom(c, m, ai[i], bi[i]) {
				return false
			}
		}
		return true
	case Dict:
		if b.k != Dict {
			return false
		}
		ad, bd := a.DictData(), b.DictData()
		if ad.Len() != bd.Len() {
			return false
		}
		for i := 0; i < ad.Len(); i++ {
			if !strutil.Spent(m, budget.Elem) {
				c.Charge(budget.Elem, "dict comparison")
			}
			bv, ok := bd.Get(ad.keys[i])
			if !ok || !EqualFrom(c, m, ad.vals[i], bv) {
				return false
			}
		}
		return true
	}
	return a.k == b.k && a.ref == b.ref
}

// setEqual reports whether two lists of one length hold the same
// elements in any order (keys and items views are sets: their elements
// are distinct), a charged comparison each pair tried.
func setEqual(c Ctx, m *budget.Meter, a, b []Value) bool {
	for _, x := range a {
		found := false
		for _, y := range b {
			if !strutil.Spent(m, budget.Elem) {
				c.Charge(budget.Elem, "view comparison")
			}
			if EqualFrom(c, m, x, y) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// Compare orders a and b for <, <=, >, >= (Python rules); op names the
// operator for the type error.
func Compare(c Ctx, a, b Value, op string) int { return CompareFrom(c, nil, a, b, op) }

// CompareFrom is Compare spending from m, c.Spender(), where it can
// (strutil.Spent), as EqualFrom.
func CompareFrom(c Ctx, m *budget.Meter, a, b Value, op string) int {
	if a.IsNumber() && b.IsNumber() {
		return numCompare(&a, &b) // 2 for NaN: every comparison false
	}
	if a.k == String && b.k == String {
		n := min(a.byteLen(), b.byteLen())
		if !strutil.Spent(m, int64(n)) {
			c.Charge(int64(n), "string comparison")
		}
		return strings.Compare(a.Str(), b.Str())
	}
	if (a.k == List && b.k == List) || (a.k == Tuple && b.k == Tuple) {
		if va, vb := viewOf(a), viewOf(b); va != "" || vb != "" {
			// a range or a dict view is no list: Python's list.__add__
			// refuses it, and the view has no __add__
			if va == "" {
				errs.Throwf(errs.Type, "can only concatenate list (not %q) to list", vb)
			}
			typeErr("+", a, b)
		}
		ai, bi := a.Items(), b.Items()
		for i := 0; i < len(ai) && i < len(bi); i++ {
			if !strutil.Spent(m, budget.Elem) {
				c.Charge(budget.Elem, "sequence comparison")
			}
			if !EqualFrom(c, m, ai[i], bi[i]) {
				return CompareFrom(c, m, ai[i], bi[i], op)
			}
		}
		switch {
		case len(ai) < len(bi):
			return -1
		case len(ai) > len(bi):
			return 1
		}
		return 0
	}
	if a.k == Undefined {
		throwUndefined(a)
	}
	if b.k == Undefined {
		throwUndefined(b)
	}
	errs.Throwf(errs.Type, "%s not supported between instances of %s and %s", errs.Quote(op), errs.Quote(a.TypeName()), errs.Quote(b.TypeName()))
	return 0
}

// Contains is Python's needle in hay.
func Contains(c Ctx, hay, needle Value) bool {
	switch hay.k {
	case String:
		if needle.k != String {
			// str.__contains__ refuses an Undefined as any non-string:
			// a TypeError, not an UndefinedError (nothing of it is called)
			errs.Throwf(errs.Type, "'in <string>' requires string as left operand, not %s", needle.TypeName())
		}
		c.Charge(int64(hay.byteLen()), "substring search")
		return strutil.Contains(hay.Str(), needle.Str()) // linear whatever the needle
	case List, Tuple:
		// set-like views look the needle up by its hash
		// (dictkeys_contains, dictitems_contains): an unhashable key is
		// Python's TypeError, whatever the view holds; an item needle
		// that is no pair is simply absent
		switch viewOf(hay) {
		case "dict_keys":
			ChargeKey(c, needle, "membership test")
		case "dict_items":
			if needle.k != Tuple || len(needle.Items()) != 2 {
				return false
			}
			ChargeKey(c, needle.Items()[0], "membership test")
		}
		// the hot loop spends straight from the meter (strutil.Spent) and falls
		// back to Charge for the refusal: the same units either way
		m := c.Spender()
		items := hay.Items()
		for i := range items {
			if !strutil.Spent(m, budget.Elem) {
				c.Charge(budget.Elem, "membership test")
			}
			// a string needle, which only a string item can equal, is
			// EqualFrom's string case without the call and the copies
			if needle.k == String && strEqual(c, m, &items[i], &needle) ||
				needle.k != String && EqualFrom(c, m, items[i], needle) {
				return true
			}
		}
		return false
	case Dict:
		c.Charge(budget.Elem, "membership test")
		ChargeKey(c, needle, "membership test")
		_, ok := hay.DictData().Get(needle)
		return ok
	case Undefined:
		return false
	case Object:
		if it, ok := hay.ref.(Iterable); ok {
			for _, v := range it.Iter(c) {
				c.Charge(budget.Elem, "membership test")
				if Equal(c, v, needle) {
					return true
				}
			}
			return false
		}
	}
	errs.Throwf(errs.Type, "argument of type %s is not iterable", errs.Quote(hay.TypeName()))
	return false
}

// Iterable is implemented by objects that can be iterated (e.g. surfaces).
type Iterable interface {
	Iter(c Ctx) []Value
}

// Lengther is implemented by objects that have a length.
type Lengther interface {
	Len() int
}

// Iterate returns the items a for loop or filter draws from v: a string's
// characters, a sequence's items, a dict's keys. Undefined iterates empty.
func Iterate(c Ctx, v Value) []Value {
	switch v.k {
	case List, Tuple:
		return v.Items()
	case Dict:
		return v.DictData().keys
	case String:
		// the bytes scanned, then 64 an element drawn (P11), both before
		// the list of characters is made (48 bytes a character: 3 MB of
		// text was a 144 MB list before any element was charged)
		c.Charge(int64(v.byteLen())*2, "string iteration")
		n := v.RuneCount()
		c.Charge(budget.Mul(int64(n), budget.Elem), "string iteration")
		out := vmem.Fresh(make([]Value, 0, n))
		// Python iterates a Markup string as plain str characters.
		for _, r := range v.Str() {
			//scratch:ok pre-sized: made with its final capacity above, it never grows
			out = append(out, Value{k: String, s: string(r), n: 2})
		}
		return out
	case Undefined:
		if c.Strict() {
			throwUndefined(v)
		}
		return nil
	case Object:
		if it, ok := v.ref.(Iterable); ok {
			return it.Iter(c)
		}
	}
	errs.Throwf(errs.Type, "%s object is not iterable", errs.Quote(v.TypeName()))
	return nil
}

// Length is Python's len() inside the render c: O(1) for everything a
// template builds (a string's length is known or its scan charged).
func Length(c Ctx, v Value) (int, bool) {
	switch v.k {
	case String:
		return StrLen(c, v), true
	case List, Tuple:
		return len(v.Items()), true
	case Dict:
		return v.DictData().Len(), true
	case Undefined:
		return 0, true
	case Object:
		if l, ok := v.ref.(Lengther); ok {
			return l.Len(), true
		}
	}
	return 0, false
}
