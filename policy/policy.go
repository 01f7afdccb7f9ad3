// Package policy is the audited surface of plain template values: which
// methods of str, Markup, dict, list, tuple, int and float a template may
// read and call, what each one costs, which methods exist on the Python type
// but are refused (and why), and the underscore name rule.
//
// It is a leaf package (standard library only) so the parser, the evaluator
// and the builtins can all consult the same tables. The tables are data; the
// implementations live in engine/internal/builtins/methods*.go.
package policy

import "github.com/jinjabox/jinjabox/engine/ordered"

// Receiver is the plain value type a method belongs to.
type Receiver uint8

// The receivers. Bool shares Int's surface (Python's bool is an int).
const (
	Str Receiver = iota + 1
	Markup
	Dict
	List
	Tuple
	Int
	Float
)

var receiverNames = [...]string{"", "str", "Markup", "dict", "list", "tuple", "int", "float"}

func (r Receiver) String() string {
	if int(r) < len(receiverNames) {
		return receiverNames[r]
	}
	return "unknown"
}

// Cost is the cost class of a method: how its work grows, so the
// implementation knows what to charge before it allocates. Every call is
// also charged budget.Call by the implementation.
type Cost uint8

// The cost classes.
const (
	// Const does a bounded amount of work (a flag, a lookup, a small
	// number).
	Const Cost = iota + 1
	// LinearInReceiver reads the receiver (and its arguments) once and
	// produces output no larger than the receiver: charge its size.
	LinearInReceiver
	// LinearInOutput may produce output much larger than its inputs: the
	// implementation must compute the Estimate before allocating and
	// charge it.
	LinearInOutput
)

var costNames = [...]string{"", "const", "linear-in-receiver", "linear-in-output"}

func (c Cost) String() string {
	if int(c) < len(costNames) {
		return costNames[c]
	}
	return "unknown"
}

// Method is one allowed entry of a surface.
type Method struct {
	Name string
	Cost Cost
	// Estimate says, for LinearInOutput, how the output size is bounded
	// before any allocation (in bytes).
	Estimate string
	// Attr marks a data attribute (int.real) rather than a method: reading
	// it yields the value, not a bound method.
	Attr bool
	// Doc says what the entry does and why it is safe.
	Doc string
}

// Status is the outcome of a lookup.
type Status uint8

// Lookup outcomes.
const (
	// NotFound: the name is not on the surface; the caller falls back
	// (a dict to its keys) or yields undefined.
	NotFound Status = iota
	// Allowed: the name is an audited entry.
	Allowed
	// Refused: the name exists on the Python type but is refused by policy
	// (a security error); the reason explains why.
	Refused
)

// Refusal is a method that exists on the Python type but is refused.
type Refusal struct {
	Name   string
	Reason string
}

type table struct {
	allowed map[string]Method
	refused map[string]string
	// shape has bit c&63 of shape[n] set when a name of n bytes starting
	// with byte c is allowed or refused: most names a template reads on a
	// dict are its keys, and a name no entry has the shape of is not on
	// the surface without a map lookup (it only ever says "not found").
	shape [maxShape]uint64
	// longest is the length of the longest name: a longer one is no
	// entry, answered without hashing it (a megabyte name read as an
	// attribute was hashed by two map lookups, uncharged: 40,000
	// lookups ran 1.25 s on 50 M units)
	longest int
}

// maxShape bounds the name lengths shape records; longer names are
// looked up.
const maxShape = 32

// mayHave reports whether name can be an entry of t.
func (t *table) mayHave(name string) bool {
	n := len(name)
	if n >= maxShape {
		return n <= t.longest
	}
	return n == 0 || t.shape[n]&(1<<(name[0]&63)) != 0
}

func (t *table) addShape(name string) {
	t.longest = max(t.longest, len(name))
	if n := len(name); n > 0 && n < maxShape {
		t.shape[n] |= 1 << (name[0] & 63)
	}
}

// tables is indexed by Receiver: an attribute lookup on a dict asks it
// first (a method name wins over a key), so it is an array, not a map.
var tables [len(receiverNames)]*table

func build(r Receiver, ms []Method, refs []Refusal) {
	t := &table{allowed: make(map[string]Method, len(ms)), refused: make(map[string]string, len(refs))}
	for _, m := range ms {
		if _, dup := t.allowed[m.Name]; dup {
			panic("policy: duplicate entry " + r.String() + "." + m.Name)
		}
		t.allowed[m.Name] = m
		t.addShape(m.Name)
	}
	for _, f := range refs {
		if _, dup := t.allowed[f.Name]; dup {
			panic("policy: entry both allowed and refused " + r.String() + "." + f.Name)
		}
		t.refused[f.Name] = f.Reason
		t.addShape(f.Name)
	}
	tables[r] = t
}

// MayHave reports whether name can be an entry (allowed or refused) of
// r's surface: false means Lookup would say NotFound. It reads a bit
// mask only, for the hot path of an attribute lookup on a dict (where a
// method name wins over a key).
func MayHave(r Receiver, name string) bool {
	return int(r) < len(tables) && tables[r] != nil && tables[r].mayHave(name)
}

// Lookup returns the entry for name on r's surface. The underscore rule is
// not applied here (callers refuse private names first, see IsPrivateName);
// a private name is simply not found.
func Lookup(r Receiver, name string) (Method, Status, string) {
	if int(r) >= len(tables) {
		return Method{}, NotFound, ""
	}
	t := tables[r]
	if t == nil || !t.mayHave(name) {
		return Method{}, NotFound, ""
	}
	if m, ok := t.allowed[name]; ok {
		return m, Allowed, ""
	}
	if why, ok := t.refused[name]; ok {
		return Method{}, Refused, why
	}
	return Method{}, NotFound, ""
}

// Methods returns r's allowed entries sorted by name: the audited surface
// a template can call on a plain value of that type (engine/internal/builtins
// checks every entry is implemented and nothing else is).
func Methods(r Receiver) []Method {
	if int(r) >= len(tables) {
		return nil
	}
	t := tables[r]
	if t == nil {
		return nil
	}
	out := make([]Method, 0, len(t.allowed))
	for _, name := range ordered.Keys(t.allowed) { // allowed is keyed by Name
		out = append(out, t.allowed[name])
	}
	return out
}

// IsPrivateName reports whether an attribute name is private: it starts
// with an underscore. Private names are refused on every attribute-like
// lookup because every Python sandbox escape walks dunder names
// (__class__, __globals__, __init__, ...); refusing the whole underscore
// space is simpler to audit than a list of dangerous names.
func IsPrivateName(name string) bool {
	return len(name) > 0 && name[0] == '_'
}
