package policy

// The audited tables. Each allowed entry is pure: it reads its receiver and
// arguments and builds a new value; none mutates, none reaches host state.

const (
	mutates   = "mutates the receiver; template values are immutable (Jinja's ImmutableSandboxedEnvironment)"
	bytesType = "produces bytes, a type outside the closed value model"
)

// strMethods is the surface of a plain str (and, with markupExtra, of a
// Markup string). Markup variants escape their string arguments and return
// Markup where markupsafe does.
var strMethods = []Method{
	{Name: "capitalize", Cost: LinearInReceiver, Doc: "first character title-cased, the rest lower-cased (full Unicode case mapping)"},
	{Name: "casefold", Cost: LinearInReceiver, Doc: "aggressive lower-casing for caseless comparison"},
	{Name: "center", Cost: LinearInOutput, Estimate: "max(width, len) * fill bytes", Doc: "pads to width on both sides"},
	{Name: "count", Cost: LinearInReceiver, Doc: "non-overlapping occurrences of a substring"},
	{Name: "endswith", Cost: LinearInReceiver, Doc: "suffix test; a tuple of suffixes is accepted"},
	{Name: "expandtabs", Cost: LinearInOutput, Estimate: "len + tabs * tabsize", Doc: "replaces tabs by spaces up to the next tab stop"},
	{Name: "find", Cost: LinearInReceiver, Doc: "lowest code-point index of a substring, or -1"},
	{Name: "format", Cost: LinearInOutput, Estimate: "literal text + every field's str() size + every width (nested widths included)", Doc: "str.format, sandboxed: field lookups go through the attribute/item chokepoint (P1/P2)"},
	{Name: "format_map", Cost: LinearInOutput, Estimate: "as format", Doc: "str.format_map, sandboxed like format"},
	{Name: "index", Cost: LinearInReceiver, Doc: "like find but a missing substring is an error"},
	{Name: "isalnum", Cost: LinearInReceiver, Doc: "character class predicate"},
	{Name: "isalpha", Cost: LinearInReceiver, Doc: "character class predicate"},
	{Name: "isascii", Cost: LinearInReceiver, Doc: "character class predicate"},
	{Name: "isdecimal", Cost: LinearInReceiver, Doc: "character class predicate"},
	{Name: "isdigit", Cost: LinearInReceiver, Doc: "character class predicate"},
	{Name: "isidentifier", Cost: LinearInReceiver, Doc: "Python identifier syntax predicate"},
	{Name: "islower", Cost: LinearInReceiver, Doc: "case predicate"},
	{Name: "isnumeric", Cost: LinearInReceiver, Doc: "character class predicate"},
	{Name: "isprintable", Cost: LinearInReceiver, Doc: "character class predicate"},
	{Name: "isspace", Cost: LinearInReceiver, Doc: "character class predicate"},
	{Name: "istitle", Cost: LinearInReceiver, Doc: "case predicate"},
	{Name: "isupper", Cost: LinearInReceiver, Doc: "case predicate"},
	{Name: "join", Cost: LinearInOutput, Estimate: "sum of item sizes + (n-1) * len(sep)", Doc: "joins strings with the receiver as separator"},
	{Name: "ljust", Cost: LinearInOutput, Estimate: "max(width, len) * fill bytes", Doc: "pads on the right to width"},
	{Name: "lower", Cost: LinearInReceiver, Doc: "lower-cases (full Unicode case mapping)"},
	{Name: "lstrip", Cost: LinearInReceiver, Doc: "strips leading whitespace or the given characters"},
	{Name: "maketrans", Cost: LinearInReceiver, Doc: "builds a translation dict for translate"},
	{Name: "partition", Cost: LinearInReceiver, Doc: "splits at the first separator into a 3-tuple"},
	{Name: "removeprefix", Cost: LinearInReceiver, Doc: "drops a prefix if present"},
	{Name: "removesuffix", Cost: LinearInReceiver, Doc: "drops a suffix if present"},
	{Name: "replace", Cost: LinearInOutput, Estimate: "len + occurrences * (len(new) - len(old)); an empty old inserts between every character", Doc: "replaces occurrences of a substring"},
	{Name: "rfind", Cost: LinearInReceiver, Doc: "highest code-point index of a substring, or -1"},
	{Name: "rindex", Cost: LinearInReceiver, Doc: "like rfind but a missing substring is an error"},
	{Name: "rjust", Cost: LinearInOutput, Estimate: "max(width, len) * fill bytes", Doc: "pads on the left to width"},
	{Name: "rpartition", Cost: LinearInReceiver, Doc: "splits at the last separator into a 3-tuple"},
	{Name: "rsplit", Cost: LinearInReceiver, Doc: "splits from the right; each part is charged as an element"},
	{Name: "rstrip", Cost: LinearInReceiver, Doc: "strips trailing whitespace or the given characters"},
	{Name: "split", Cost: LinearInReceiver, Doc: "splits; each part is charged as an element"},
	{Name: "splitlines", Cost: LinearInReceiver, Doc: "splits at line boundaries"},
	{Name: "startswith", Cost: LinearInReceiver, Doc: "prefix test; a tuple of prefixes is accepted"},
	{Name: "strip", Cost: LinearInReceiver, Doc: "strips whitespace or the given characters at both ends"},
	{Name: "swapcase", Cost: LinearInReceiver, Doc: "swaps upper and lower case"},
	{Name: "title", Cost: LinearInReceiver, Doc: "title-cases words"},
	{Name: "translate", Cost: LinearInOutput, Estimate: "len(receiver) * longest replacement", Doc: "maps code points through a dict (from maketrans)"},
	{Name: "upper", Cost: LinearInReceiver, Doc: "upper-cases (full Unicode case mapping)"},
	{Name: "zfill", Cost: LinearInOutput, Estimate: "max(width, len)", Doc: "pads with zeros on the left after any sign"},
}

// markupExtra is what markupsafe's Markup adds to str.
var markupExtra = []Method{
	{Name: "escape", Cost: LinearInOutput, Estimate: "6 * len(arg)", Doc: "Markup.escape classmethod: escapes its argument into Markup"},
	{Name: "striptags", Cost: LinearInReceiver, Doc: "removes tags and comments, unescapes and normalises whitespace (linear time)"},
	{Name: "unescape", Cost: LinearInReceiver, Doc: "converts HTML entities back to text (a plain str)"},
}

var strRefused = []Refusal{
	{Name: "encode", Reason: bytesType},
}

var dictMethods = []Method{
	{Name: "copy", Cost: LinearInReceiver, Doc: "a shallow copy (a new dict)"},
	{Name: "fromkeys", Cost: LinearInReceiver, Doc: "a new dict from an iterable of keys"},
	{Name: "get", Cost: Const, Doc: "value for a key, or the default (None)"},
	{Name: "items", Cost: LinearInReceiver, Doc: "a list of (key, value) tuples, in insertion order"},
	{Name: "keys", Cost: LinearInReceiver, Doc: "a list of the keys, in insertion order"},
	{Name: "values", Cost: LinearInReceiver, Doc: "a list of the values, in insertion order"},
}

var dictRefused = []Refusal{
	{Name: "clear", Reason: mutates},
	{Name: "pop", Reason: mutates},
	{Name: "popitem", Reason: mutates},
	{Name: "setdefault", Reason: mutates},
	{Name: "update", Reason: mutates},
}

var seqMethods = []Method{
	{Name: "count", Cost: LinearInReceiver, Doc: "occurrences of a value (Python ==)"},
	{Name: "index", Cost: LinearInReceiver, Doc: "first index of a value, optionally within [start, stop); missing is an error"},
}

var listOnly = []Method{
	{Name: "copy", Cost: LinearInReceiver, Doc: "a shallow copy (a new list)"},
}

var listRefused = []Refusal{
	{Name: "append", Reason: mutates},
	{Name: "clear", Reason: mutates},
	{Name: "extend", Reason: mutates},
	{Name: "insert", Reason: mutates},
	{Name: "pop", Reason: mutates},
	{Name: "remove", Reason: mutates},
	{Name: "reverse", Reason: mutates},
	{Name: "sort", Reason: mutates},
}

var intMethods = []Method{
	{Name: "as_integer_ratio", Cost: Const, Doc: "(n, 1)"},
	{Name: "bit_count", Cost: Const, Doc: "number of one bits of abs(n)"},
	{Name: "bit_length", Cost: Const, Doc: "bits needed to represent abs(n)"},
	{Name: "conjugate", Cost: Const, Doc: "n itself"},
	{Name: "denominator", Cost: Const, Attr: true, Doc: "1"},
	{Name: "imag", Cost: Const, Attr: true, Doc: "0"},
	{Name: "numerator", Cost: Const, Attr: true, Doc: "n itself"},
	{Name: "real", Cost: Const, Attr: true, Doc: "n itself"},
}

var intRefused = []Refusal{
	{Name: "to_bytes", Reason: bytesType},
	{Name: "from_bytes", Reason: "reads bytes into an integer of unbounded width (rule P6)"},
}

var floatMethods = []Method{
	{Name: "as_integer_ratio", Cost: Const, Doc: "exact (numerator, denominator); an error when it does not fit 64 bits"},
	{Name: "conjugate", Cost: Const, Doc: "x itself"},
	{Name: "hex", Cost: Const, Doc: "hexadecimal representation"},
	{Name: "imag", Cost: Const, Attr: true, Doc: "0.0"},
	{Name: "is_integer", Cost: Const, Doc: "whether x is integral"},
	{Name: "real", Cost: Const, Attr: true, Doc: "x itself"},
}

func init() {
	build(Str, strMethods, strRefused)
	build(Markup, append(append([]Method{}, strMethods...), markupExtra...), strRefused)
	build(Dict, dictMethods, dictRefused)
	build(List, append(append([]Method{}, seqMethods...), listOnly...), listRefused)
	build(Tuple, seqMethods, nil)
	build(Int, intMethods, intRefused)
	build(Float, floatMethods, nil)
}
