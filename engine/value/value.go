// Package value is the closed value model of the engine. Nothing outside it
// is reachable from a template: host data is copied in (see copyin.go), and
// the only behaviours a value has are the ones written here and in the
// audited builtins.
//
// A host uses it to read and build values (Value, its constructors and
// accessors, DictData, ListData, OrderedMap, Export and Decode), to
// implement its own objects (ObjectImpl, CallableImpl and the optional
// interfaces beside them) and filters (Ctx, Args), and to treat values as
// the built-ins do (ToString, Repr, Equal, Compare, Iterate, Size...). The
// machinery only the evaluator needs lives in engine/internal: the text
// writer and repr (strutil), allocation sizes (vmem), operations written
// on this package's accessors (vops) and the raising of errors (errs);
// docs/api.md says how the package is split and why.
package value

import (
	"math"
	"strconv"

	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
)

// Kind is the closed set of value kinds.
type Kind uint8

// The value kinds.
const (
	Undefined Kind = iota
	None
	Bool
	Int
	Float
	String // Safe strings are String with the safe flag
	List
	Tuple
	Dict
	Callable // macros, builtin functions, bound methods
	Object   // runtime objects and template surfaces
)

var kindNames = [...]string{"undefined", "NoneType", "bool", "int", "float", "str", "list", "tuple", "dict", "function", "object"}

// String returns the kind's Python type name, as messages show it
// ("NoneType", "str", "dict"...).
func (k Kind) String() string { return kindNames[k] }

// Value is one template value. The zero Value is undefined.
// Scalars are stored unboxed; containers and objects behind ref.
type Value struct {
	k    Kind
	safe bool   // String: markup (already escaped)
	n    int64  // Int, Bool (0/1), Float bits; String: its rune count plus one once known (0: not yet)
	s    string // String content; Undefined: the missing name (for messages)
	ref  any    // *ListData for List/Tuple, *DictData, CallableImpl, ObjectImpl; Undefined: *undefInfo
}

// ListData backs lists and tuples. Templates cannot mutate them.
type ListData struct {
	Items []Value
	// meta is what few lists and tuples have (a named tuple's field
	// names, a view's type): nil for the others, whose header is then 56
	// bytes, not 104.
	meta *listMeta
	// size caches Size plus one once computed in full (0: not yet).
	size int64
	// hmemo memoizes a tuple's hashability and hash (hash.go).
	hmemo uint64
	// dataOnly records that CheckData found no callable inside.
	dataOnly bool
}

// listMeta is the rare part of a list or tuple.
type listMeta struct {
	// names are the field names of a named tuple (groupby's (grouper,
	// list)).
	names []string
	// view names the Python type a materialised list stands for (range,
	// dict_items, dict_keys, dict_values): it prints as that type, and
	// everything else treats it as the list it is.
	view string
	// viewArgs, when set, is what prints between the view's parentheses
	// (range(0, 3)); otherwise the items' repr does.
	viewArgs string
	// rng is a range's start, stop and step (NewRange).
	rng [3]int64
	// lazy marks a range made without its items (NewLazyRange).
	lazy bool
}

// NewView returns a list that prints as the Python view or range it
// stands for.
func NewView(view, args string, items []Value) Value {
	return Value{k: List, ref: &ListData{Items: items, meta: &listMeta{view: view, viewArgs: args}}}
}

// View is the Python view or range type the list stands for, "" for a
// plain list.
func (d *ListData) View() string {
	if d.meta == nil {
		return ""
	}
	return d.meta.view
}

// undefInfo explains where an undefined value came from.
type undefInfo struct {
	Hint string // e.g. "'dict object' has no attribute 'x'"
	// owner, when set, is the type whose attribute is missing: the hint
	// is made from it and the name when asked for (UndefHintText), not
	// on every missing attribute a template tests ({% if doc.tags %}).
	owner string
	// param marks a macro parameter no argument filled: its hint is made
	// from the name when asked for, not at every call of a macro with
	// many parameters (50,000 hints a call, each a string and a record)
	param bool
}

// unboundParam is the shared undefInfo of UndefParam.
var unboundParam = &undefInfo{param: true}

// UndefParam returns the undefined value of a macro parameter no argument
// filled: "parameter '<name>' was not provided".
func UndefParam(name string) Value { return Value{k: Undefined, s: name, ref: unboundParam} }

// attrOwners are the shared undefInfo of the types whose attributes a
// template most often finds missing (read-only after init).
var attrOwners = map[string]*undefInfo{}

func init() {
	for _, t := range []string{"dict", "str", "Markup", "int", "float", "bool", "list", "tuple", "NoneType", "range"} {
		attrOwners[t] = &undefInfo{owner: t}
	}
}

// UndefAttr returns the undefined value of a missing attribute name of a
// value of type owner: "'<owner> object' has no attribute '<name>'".
func UndefAttr(owner, name string) Value {
	u := attrOwners[owner]
	if u == nil {
		u = &undefInfo{owner: owner}
	}
	return Value{k: Undefined, s: name, ref: u}
}

// CallableImpl is implemented by macros, builtin functions and bound methods.
type CallableImpl interface {
	// CallName is the name used in messages.
	CallName() string
	// Call runs the callable. Errors are raised by panicking with *errs.Error.
	Call(c Ctx, args *Args) Value
}

// ObjectImpl is implemented by runtime objects (loop, cycler, joiner,
// namespace) and template surfaces.
type ObjectImpl interface {
	// TypeName is the type name used in messages.
	TypeName() string
	// Attr returns the attribute value; ok is false when the object has no
	// such attribute. The policy check on the name has already run.
	Attr(c Ctx, name string) (v Value, ok bool)
}

// Constructors.
var (
	UndefinedValue = Value{}
	NoneValue      = Value{k: None}
	True           = Value{k: Bool, n: 1}
	False          = Value{k: Bool, n: 0}
	EmptyString    = Value{k: String, n: 1}
)

// Undef returns an undefined value remembering the missing name.
func Undef(name string) Value { return Value{k: Undefined, s: name} }

// UndefHint returns an undefined value with an explanation for messages.
func UndefHint(name, hint string) Value {
	return Value{k: Undefined, s: name, ref: &undefInfo{Hint: hint}}
}

// FromBool returns True or False.
func FromBool(b bool) Value {
	if b {
		return True
	}
	return False
}

// FromInt returns an int value.
func FromInt(i int64) Value { return Value{k: Int, n: i} }

// FromFloat returns a float value.
func FromFloat(f float64) Value { return Value{k: Float, n: int64(math.Float64bits(f))} }

// FromString returns a plain string value. A string value knows its
// length in code points, counted here: whoever made s paid for its bytes
// (the scan is a fraction of making them), and len() of the value is then
// O(1) however often a template asks, as Python's is (a loop asking the
// length of a 60 MB string took 20 s on 256-unit steps).
func FromString(s string) Value { return Value{k: String, s: s, n: int64(strutil.RuneLen(s)) + 1} }

// Safe returns a markup string value (already escaped), counted as
// FromString.
func Safe(s string) Value {
	return Value{k: String, s: s, safe: true, n: int64(strutil.RuneLen(s)) + 1}
}

// MarkSafe returns the string value v as markup. It keeps the code-point
// count v already knows, so `s|safe` on a long string is O(1) as Markup(s)
// is in Python, not a scan of every byte for one step's charge.
func (v Value) MarkSafe() Value {
	if v.k != String {
		panic("value: MarkSafe of a non-string")
	}
	v.safe = true
	return v
}

// Plain returns the string value v without its markup flag, keeping its
// count as MarkSafe does (the str methods markupsafe leaves alone run on
// the plain text of a Markup receiver).
func (v Value) Plain() Value {
	if v.k != String {
		panic("value: Plain of a non-string")
	}
	v.safe = false
	return v
}

// StringLike returns s as a string value carrying like's markup flag. When
// s is like's own text (a method or slice that changed nothing returns its
// receiver's string, compared in O(1) when it shares the bytes), like's
// code-point count is kept rather than counted again.
func StringLike(like Value, s string) Value {
	if like.k == String && like.n > 0 && len(s) == like.byteLen() && s == like.Str() {
		return like
	}
	if like.IsSafe() {
		return Safe(s)
	}
	return FromString(s)
}

// StringLikeCounted is StringLike for a string of runes code points
// that its maker counted while it built it (padding knows its widths, a
// case mapping the code points it wrote): counting the result again was
// a third of their time. A wrong count is a wrong len(): the builtins'
// golden tests check every string result's count.
func StringLikeCounted(like Value, s string, runes int) Value {
	return Value{k: String, s: s, safe: like.IsSafe(), n: int64(runes) + 1}
}

// RuneCount is the length of a string value in code points: O(1) when the
// value knows it (FromString, Safe, repetition), a scan otherwise.
func (v Value) RuneCount() int {
	if v.k == String && v.n > 0 {
		return int(v.n - 1)
	}
	return strutil.RuneLen(v.Str())
}

// StrLen is len() of a string value inside the render c: O(1) when the
// value knows its length, otherwise a scan charged by its bytes (the few
// values built field by field: a string's characters, dict keys).
func StrLen(c Ctx, v Value) int {
	if v.n <= 0 {
		c.Charge(int64(v.byteLen()), "string length")
	}
	return v.RuneCount()
}

// NewList returns a list value owning items.
func NewList(items []Value) Value {
	return Value{k: List, ref: &ListData{Items: items, size: knownSize(items)}}
}

// NewTuple returns a tuple value owning items.
func NewTuple(items []Value) Value {
	return Value{k: Tuple, ref: &ListData{Items: items, size: knownSize(items)}}
}

// NewNamedTuple returns a tuple whose items are also readable as the named
// attributes (like Python's namedtuple).
func NewNamedTuple(names []string, items []Value) Value {
	return Value{k: Tuple, ref: &ListData{Items: items, meta: &listMeta{names: names}}}
}

// TupleField returns the named field of a named tuple.
func (v Value) TupleField(name string) (Value, bool) {
	if d, ok := v.ref.(*ListData); ok && d.meta != nil {
		for i, n := range d.meta.names {
			if n == name && i < len(d.Items) {
				return d.Items[i], true
			}
		}
	}
	return Value{}, false
}

// FromDict returns a dict value.
func FromDict(d *DictData) Value { return Value{k: Dict, ref: d} }

// FromCallable wraps a callable.
func FromCallable(c CallableImpl) Value { return Value{k: Callable, ref: c} }

// FromObject wraps a runtime object or surface.
func FromObject(o ObjectImpl) Value { return Value{k: Object, ref: o} }

// Kind returns the value's kind.
func (v Value) Kind() Kind { return v.k }

// IsUndefined reports whether v is undefined.
func (v Value) IsUndefined() bool { return v.k == Undefined }

// IsNone reports whether v is None.
func (v Value) IsNone() bool { return v.k == None }

// IsSafe reports whether v is a markup string.
func (v Value) IsSafe() bool { return v.k == String && v.safe }

// IsString reports whether v is a string (plain or markup).
func (v Value) IsString() bool { return v.k == String }

// IsNumber reports whether v is an int, float or bool (Python's numbers).
func (v Value) IsNumber() bool { return v.k == Int || v.k == Float || v.k == Bool }

// IsSeq reports whether v is a list or tuple.
func (v Value) IsSeq() bool { return v.k == List || v.k == Tuple }

// Int returns the integer of an Int or Bool.
func (v Value) Int() int64 { return v.n }

// Float returns the float of a Float, or the integer of an Int/Bool as float.
func (v Value) Float() float64 {
	if v.k == Float {
		return math.Float64frombits(uint64(v.n))
	}
	return float64(v.n)
}

// Bool returns the bool of a Bool value.
func (v Value) Bool() bool { return v.n != 0 }

// Str returns the content of a String value. A lazy string (LazyJoin,
// repetition) is built on its first read; StrIn builds it polling the
// render.
func (v Value) Str() string {
	if v.ref == nil {
		return v.s
	}
	return v.lazyText()
}

// lazyText is Str for a value with a reference: a lazy string's text, or
// s of any other kind. Never inlined, so that Str is: Str is the most
// called method of the value model, and the reference it takes is rare
// for a string.
//
//go:noinline
func (v *Value) lazyText() string {
	if l, ok := v.ref.(*lazyStr); ok {
		return l.text()
	}
	return v.s
}

// UndefName returns the missing name of an undefined value.
func (v Value) UndefName() string { return v.s }

// UndefHintText returns the explanation of an undefined value, if any.
func (v Value) UndefHintText() string {
	if u, ok := v.ref.(*undefInfo); ok {
		switch {
		case u.owner != "":
			return errs.Quote(u.owner+" object") + " has no attribute " + errs.Quote(v.s)
		case u.param:
			return "parameter " + errs.Quote(v.s) + " was not provided"
		}
		return u.Hint
	}
	return ""
}

// Items returns the items of a list or tuple (not to be modified).
func (v Value) Items() []Value {
	if d, ok := v.ref.(*ListData); ok {
		if d.Items == nil && d.meta != nil && d.meta.lazy {
			r := d.meta.rng // made as the call would have, which charged them
			d.Items = RangeItems(r[0], r[1], r[2], 0)
		}
		return d.Items
	}
	return nil
}

// RangeLen is len(range(start, stop, step)) (step != 0), in unsigned
// arithmetic so that no bounds overflow.
func RangeLen(start, stop, step int64) uint64 {
	if step > 0 && start < stop {
		return (uint64(stop)-uint64(start)-1)/uint64(step) + 1
	}
	if step < 0 && start > stop {
		return (uint64(start)-uint64(stop)-1)/(-uint64(step)) + 1
	}
	return 0
}

// RangeItem is item i of a range from start by step: computed in
// unsigned arithmetic, whose wrap gives the exact item whenever the item
// is in the range (an int64).
func RangeItem(start, step int64, i int) Value {
	return FromInt(int64(uint64(start) + uint64(i)*uint64(step)))
}

// RangeItems makes the items of range(start, stop, step) from item from
// on (step != 0), for its caller to have charged: range() makes them all,
// a for loop over a lazy range (NewLazyRange) the ones a read needs.
func RangeItems(start, stop, step int64, from int) []Value {
	//scratch:ok a range's items, charged in full by its call (builtins.globalRange), at most MaxRange
	out := vmem.Fresh(make([]Value, max(int(RangeLen(start, stop, step))-from, 0)))
	for i := range out {
		out[i] = RangeItem(start, step, from+i)
	}
	return out
}

// DictData returns the dict of a Dict value.
func (v Value) DictData() *DictData {
	d, _ := v.ref.(*DictData)
	return d
}

// CallableImpl returns the callable of a Callable value.
func (v Value) CallableImpl() CallableImpl {
	c, _ := v.ref.(CallableImpl)
	return c
}

// ObjectImpl returns the object of an Object value.
func (v Value) ObjectImpl() ObjectImpl {
	o, _ := v.ref.(ObjectImpl)
	return o
}

// Ref returns the reference part of a value (for identity checks).
func (v Value) Ref() any { return v.ref }

// TypeName returns the Python-style type name used in messages.
func (v Value) TypeName() string {
	switch v.k {
	case Object:
		if o := v.ObjectImpl(); o != nil {
			return o.TypeName()
		}
	case String:
		if v.safe {
			return "Markup"
		}
	case List:
		if vw := viewOf(v); vw != "" {
			return vw
		}
	}
	return v.k.String()
}

// viewOf is the Python type a list stands for (range, dict_keys,
// dict_values, dict_items), "" for a plain list or any other value. The
// list is what the view holds; the operations Python's view refuses or
// does otherwise (+, *, ==, subscripts, slices) check it.
func viewOf(v Value) string {
	if v.k != List {
		return ""
	}
	if d, ok := v.ref.(*ListData); ok {
		return d.View()
	}
	return ""
}

// NewRange returns the list range(start, stop, step) stands for
// (items): it prints as the range, range(0, 3) or range(0, 6, 2).
func NewRange(start, stop, step int64, items []Value) Value {
	args := strconv.FormatInt(start, 10) + ", " + strconv.FormatInt(stop, 10)
	if step != 1 {
		args += ", " + strconv.FormatInt(step, 10)
	}
	return Value{k: List, ref: &ListData{Items: items, meta: &listMeta{view: "range", viewArgs: args, rng: [3]int64{start, stop, step}}}}
}

// NewLazyRange is NewRange without the items, for a for loop that draws
// its numbers itself (builtins.LazyRanger): its items are made only if
// something reads them (Items), which nothing between the range call and
// the loop does. The call charged them in full either way.
func NewLazyRange(start, stop, step int64) Value {
	v := NewRange(start, stop, step, nil)
	v.ref.(*ListData).meta.lazy = true
	return v
}

// LazyRangeOf returns the start, stop and step of a range made by
// NewLazyRange whose items were never made.
func LazyRangeOf(v Value) (start, stop, step int64, ok bool) {
	ld, isList := v.ref.(*ListData)
	if !isList || ld.meta == nil || !ld.meta.lazy || ld.Items != nil {
		return 0, 0, 0, false
	}
	r := ld.meta.rng
	return r[0], r[1], r[2], true
}

// RangeOf returns the start, stop and step of a list made by NewRange.
func RangeOf(v Value) (start, stop, step int64, ok bool) {
	if viewOf(v) != "range" {
		return 0, 0, 0, false
	}
	r := v.ref.(*ListData).meta.rng
	return r[0], r[1], r[2], true
}

// Truth is Python's truthiness.
func (v Value) Truth() bool {
	switch v.k {
	case Undefined, None:
		return false
	case Bool, Int:
		return v.n != 0
	case Float:
		return v.Float() != 0
	case String:
		return v.byteLen() != 0
	case List, Tuple:
		return len(v.Items()) > 0
	case Dict:
		return v.DictData().Len() > 0
	}
	return true
}
