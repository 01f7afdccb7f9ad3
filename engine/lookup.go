package engine

import (
	"strconv"
	"sync/atomic"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/builtins"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/policy"
)

// This file is the one lookup chokepoint: dot attributes, subscripts,
// |attr, attribute-path arguments and str.format fields all come through
// Attr, Item or Lookup, and the name rule runs before any lookup.

func privateName(name string) bool { return policy.IsPrivateName(name) }

// DeclaredSurface is implemented by a host type that declares its template
// surface on the type, never from an instance (a value cannot widen its
// own surface): ReadsPrivate
// names the underscore names it exposes (its metadata); Undeclared names
// what its host type has but does not expose (methods off the surface).
// The chokepoint consults it on every path: a declared underscore name
// reads on the surface only, and an undeclared host name is a security
// error rather than undefined, so a probe learns nothing.
type DeclaredSurface interface {
	ReadsPrivate(name string) bool
	Undeclared(name string) bool
}

// Indexer is implemented by objects that support subscripts; ok is false
// when the key is not there (the chokepoint then tries the attribute).
type Indexer interface {
	Item(c value.Ctx, key value.Value) (value.Value, bool)
}

func (r *renderer) refuseName(v value.Value, name string) {
	errs.Throwf(errs.Security, "access to attribute %s of %s object is unsafe", errs.Quote(name), errs.Quote(v.TypeName()))
}

func surfaceOf(v value.Value) DeclaredSurface {
	if v.Kind() != value.Object {
		return nil
	}
	s, _ := v.ObjectImpl().(DeclaredSurface)
	return s
}

// checkName is the name rule, run before any lookup (P1): an underscore
// name is refused unless v is a surface that declares it readable.
func (r *renderer) checkName(v value.Value, name string) {
	if !privateName(name) {
		return
	}
	if s := surfaceOf(v); s != nil && s.ReadsPrivate(name) {
		return
	}
	r.refuseName(v, name)
}

func noAttr(v value.Value, name string) value.Value {
	return value.UndefAttr(v.TypeName(), name)
}

// Attr reads v.name (value.Ctx).
func (r *renderer) Attr(v value.Value, name string) value.Value {
	r.checkName(v, name)
	switch v.Kind() {
	case value.Undefined:
		vops.ThrowUndefined(v)
	case value.Dict:
		return r.dictAttr(v, name, nil)
	case value.Object:
		if x, ok := v.ObjectImpl().Attr(r, name); ok {
			return x
		}
		if s := surfaceOf(v); s != nil && s.Undeclared(name) {
			errs.Throwf(errs.Security, "access to attribute %s of %s object is unsafe (not on its declared surface)", errs.Quote(name), errs.Quote(v.TypeName()))
		}
		return noAttr(v, name)
	case value.Tuple:
		if x, ok := v.TupleField(name); ok {
			return x
		}
	case value.Callable:
		if m, ok := v.CallableImpl().(*macro); ok {
			if x, ok := m.attr(name); ok {
				return x
			}
		}
		return noAttr(v, name)
	}
	if m, ok := r.method(v, name); ok {
		return m
	}
	return noAttr(v, name)
}

// dictAttr is Attr of a dict v (whose name passed checkName): its
// method first, as Jinja's getattr finds dict.items before d['items'],
// then its item. slot, when not nil, is the index guess of the Attr node
// being evaluated (syntax.Attr.Slot), updated when the name moved.
func (r *renderer) dictAttr(v value.Value, name string, slot *atomic.Int32) value.Value {
	if m, ok := r.method(v, name); ok {
		return m
	}
	return dictItemAttr(v, name, slot)
}

// dictItemAttr is the item half of dictAttr: v's key name, through the
// index guess slot (nil: none).
func dictItemAttr(v value.Value, name string, slot *atomic.Int32) value.Value {
	d := v.DictData()
	if i := slotIndex(d, name, slot); i >= 0 {
		return d.ValAt(i)
	}
	return noAttr(v, name)
}

// slotIndex is the index of d's key name (-1: absent) through the inline
// cache slot of the node being evaluated (syntax.Attr.Slot,
// syntax.Name.Slot; nil: none): the guess is tried first and moved to
// where name was found.
func slotIndex(d *value.DictData, name string, slot *atomic.Int32) int {
	if slot == nil {
		return d.IndexStr(name, -1)
	}
	guess := int(slot.Load())
	i := d.IndexStr(name, guess)
	if i >= 0 && i != guess {
		slot.Store(int32(i))
	}
	return i
}

// method looks name up in the audited method surface of a plain value; a
// refused method is a security error.
func (r *renderer) method(v value.Value, name string) (value.Value, bool) {
	m, st, reason := builtins.LookupMethod(r, v, name)
	switch st {
	case builtins.MethodFound:
		return m, true
	case builtins.MethodRefused:
		msg := "access to attribute " + errs.Quote(name) + " of " + errs.Quote(v.TypeName()) + " object is unsafe"
		if reason != "" {
			msg += " (" + reason + ")"
		}
		errs.Throw(errs.Security, msg)
	}
	return value.Value{}, false
}

// Item reads v[key] (value.Ctx) with Jinja's getitem-then-getattr rule.
func (r *renderer) Item(v value.Value, key value.Value) value.Value {
	if key.IsString() && privateName(key.Str()) {
		if v.Kind() == value.Dict {
			if x, ok := v.DictData().Get(key); ok {
				return x // P2: a plain dict's own key is data
			}
		}
		r.checkName(v, key.Str())
	}
	switch v.Kind() {
	case value.Undefined:
		vops.ThrowUndefined(v)
	}
	if key.IsUndefined() && v.Kind() != value.Dict {
		// Jinja2's getitem: obj[Undefined] fails (no index), getattr with
		// a non-string name fails too, and the result is an undefined
		// naming the object, not an error. A dict looks it up: Undefined
		// hashes, and a dict may hold it as a key.
		return value.UndefHint("", errs.Quote(v.TypeName()+" object")+" has no element Undefined")
	}
	switch v.Kind() {
	case value.Dict:
		r.hashKey(key)
		return r.dictItem(v, key)
	case value.List, value.Tuple:
		if vops.IsDictView(v) {
			// a dict view takes no subscript: getitem's undefined
			return value.UndefHint("", errs.Quote(v.TypeName()+" object")+" is not subscriptable")
		}
		if key.Kind() == value.Int || key.Kind() == value.Bool {
			items := v.Items()
			i := key.Int()
			if i < 0 {
				i += int64(len(items))
			}
			if i >= 0 && i < int64(len(items)) {
				return items[i]
			}
			return value.UndefHint("", v.TypeName()+" index out of range")
		}
	case value.String:
		if key.Kind() == value.Int || key.Kind() == value.Bool {
			r.Charge(int64(v.ByteLen()), "string index") // before a lazy string is built
			s := v.Str()
			if c, ok := runeAt(s, int64(v.RuneCount()), key.Int()); ok {
				return value.StringLike(v, c)
			}
			return value.UndefHint("", "string index out of range")
		}
	case value.Object:
		if ix, ok := v.ObjectImpl().(Indexer); ok {
			if x, ok := ix.Item(r, key); ok {
				return x
			}
		}
	}
	if key.IsString() {
		return r.Attr(v, key.Str())
	}
	return value.UndefHint("", errs.Quote(v.TypeName()+" object")+" has no element "+errs.Quote(shownValue(key)))
}

// dictItem is v[key] on a dict, the key's hash charged: the entry, else
// the dict method of that name, else undefined.
func (r *renderer) dictItem(v value.Value, key value.Value) value.Value {
	if x, ok := v.DictData().Get(key); ok {
		return x
	}
	if key.IsString() {
		if m, ok := r.method(v, key.Str()); ok {
			return m
		}
	}
	return value.UndefHint("", errs.Quote("dict object")+" has no attribute "+errs.Quote(shownValue(key)))
}

// Lookup reads one attribute-path segment (value.Ctx).
func (r *renderer) Lookup(v value.Value, seg string) value.Value {
	// the name rule before Item: a plain dict holding the key is no
	// exception on an attribute path (P1)
	r.checkName(v, seg)
	// every branch reads the segment (a digit scan, a hash, the name an
	// undefined result carries): its bytes are charged with the lookup,
	// once an item (the cost search found groupby over 10^5 items by a
	// 10^5-byte name at 13 ns a unit when only the lookup was)
	if allDigits(seg) {
		r.Charge(budget.Elem+int64(len(seg)), "attribute path")
		if v.Kind() == value.String && len(seg) <= 18 {
			// Item's string branch for an int key, taken here: a digit
			// segment on a string (a character of it) went through
			// ParseInt, an int value and Item's checks for other keys,
			// most of its time (redteam3/cpu/attr-path-digit-segments-
			// on-strings); 18 digits cannot overflow
			var i int64
			for k := 0; k < len(seg); k++ {
				i = i*10 + int64(seg[k]-'0')
			}
			r.Charge(int64(v.ByteLen()), "string index") // before a lazy string is built
			s := v.Str()
			if c, ok := runeAt(s, int64(v.RuneCount()), i); ok {
				if len(c) == 1 {
					return value.StringLikeCounted(v, c, 1) // one byte, one code point
				}
				return value.StringLike(v, c)
			}
			return value.UndefHint("", "string index out of range")
		}
		if i, err := strconv.ParseInt(seg, 10, 64); err == nil {
			return r.Item(v, value.FromInt(i))
		}
		return r.Item(v, value.FromString(seg))
	}
	if v.Kind() == value.Dict {
		// the commonest segment, a dict's key (map, sort, join, select
		// by attribute): the lookup and the key's hash charged at once,
		// and the name rule, which ran, not run again (a lookup ran 120
		// ns on a two-key dict)
		r.Charge(budget.Elem+int64(len(seg)), "attribute path")
		return r.missedSegment(r.dictItem(v, value.FromString(seg)), seg)
	}
	r.Charge(budget.Elem+int64(len(seg)), "attribute path")
	return r.missedSegment(r.Item(v, value.FromString(seg)), seg)
}

// missedSegment charges a lookup that found nothing for the undefined it
// made: its record and the hint naming the receiver and the segment (the
// cost search found join(attribute=) over a string's characters at 2.6
// bytes a unit when only the lookup was charged). Charged after the
// allocation, which is of a fixed size beside the segment charged before.
func (r *renderer) missedSegment(u value.Value, seg string) value.Value {
	if u.IsUndefined() {
		r.Charge(2*budget.Elem+int64(len(seg)), "attribute path")
	}
	return u
}

// allDigits reports a non-empty run of ASCII digits (strings.Trim with a
// cutset built its set at every call: a tenth of an attribute lookup).
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i]-'0' > 9 {
			return false
		}
	}
	return s != ""
}

// runeAt returns the i-th code point of s, which has n (Python indexing:
// negative from the end), as a slice of s, scanning without building a
// rune list. The count comes from the value, which mostly knows it: a
// count here scanned the whole string again before the scan to i.
func runeAt(s string, n, i int64) (string, bool) {
	if i < 0 {
		i += n
	}
	if i < 0 || i >= n {
		return "", false
	}
	if n == int64(len(s)) {
		return s[i : i+1], true
	}
	var k int64
	for off, c := range s {
		if k == i {
			if c == utf8.RuneError {
				return string(utf8.RuneError), true
			}
			return s[off : off+utf8.RuneLen(c)], true
		}
		k++
	}
	return "", false
}

// maxShown is the size past which a message shows a value by its type.
const maxShown = 512

// shownValue is a value as a message or an undefined hint shows it: its
// str() when small, else its type. Python builds such a hint lazily, when
// it is shown; building it eagerly must not print a huge value (a shared
// list nested 24 times prints 2^24 leaves) for free.
func shownValue(v value.Value) string {
	if value.Size(v, maxShown) > maxShown {
		return "<" + v.TypeName() + " too large to show>"
	}
	return value.ToString(v)
}
