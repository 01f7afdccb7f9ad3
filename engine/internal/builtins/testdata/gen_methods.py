# Regenerates methods_golden.json from real Jinja2 (ImmutableSandboxedEnvironment):
#   /usr/bin/python3 engine/internal/builtins/testdata/gen_methods.py > engine/internal/builtins/testdata/methods_golden.json
import json, sys
sys.path.insert(0, __file__.rsplit("/", 1)[0])
from golden_util import enc, kind, env, M, Undefined

S = "héllo wörld"
cases = []
def add(recv, meth, *a, **k):
    cases.append((recv, meth, list(a), k))

for r in ["hello world", "", "Hello World", "ﬁne straße", "ΑΣ ΟΔΟΣ", "ǅungla", "x1 y2", "  pad  ", S, "a\tb\tc", "ab\r\ncd\ne", "3rd-Place_x"]:
    for m in ["capitalize", "casefold", "lower", "upper", "swapcase", "title", "isalnum", "isalpha", "isascii",
              "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric", "isprintable", "isspace", "istitle",
              "isupper", "strip", "lstrip", "rstrip", "split", "rsplit", "splitlines", "expandtabs"]:
        add(r, m)
for r in ["²³", "٣", "一二", "Ⅻ", "½", "\x1c\x1f \xa0", "\u2028", "_a1", "1a", "é", "\x07"]:
    for m in ["isdigit", "isdecimal", "isnumeric", "isalnum", "isspace", "isidentifier", "isprintable", "split", "splitlines"]:
        add(r, m)
add("abc", "center", 9); add("abc", "center", 8, "*"); add("abc", "center", 2); add("ab", "center", 5, "é")
add("abc", "ljust", 6, "-"); add("abc", "rjust", 6); add("é", "rjust", 3, "ü"); add("abc", "center", 6)
add("42", "zfill", 5); add("-42", "zfill", 5); add("+x", "zfill", 1); add("", "zfill", 3)
add("a\tbc\tdef\n\tx", "expandtabs", 4); add("a\tb", "expandtabs", 0); add("a\tb", "expandtabs", -1); add("a\tb", "expandtabs", tabsize=3)
for args in [("a",), ("",), ("a", 1), ("a", -3), ("", 5), ("", 3), ("a", 2, 1), ("a", None, 2)]:
    for m in ["count", "find", "rfind", "index", "rindex"]:
        add("banana", m, *args)
add(S, "find", "w"); add(S, "rfind", "ö"); add(S, "count", "l", 3); add(S, "index", "zz")
for m in ["startswith", "endswith"]:
    for args in [("ba",), ("na",), (("x", "ban"),), ("", 6), ("", 7), ("an", 1), ("an", 1, 3), ("a", -1)]:
        add("banana", m, *args)
    add("banana", m, 3)
add("banana", "replace", "a", "o"); add("banana", "replace", "a", "o", 2); add("abc", "replace", "", "-"); add("abc", "replace", "", "-", 2)
add("banana", "replace", "na", ""); add(S, "replace", "", "|")
add("a,b,,c", "split", ","); add("a,b,,c", "split", ",", 1); add("a,b,,c", "rsplit", ",", 1); add("  a  b  c  ", "split", None, 1)
add("  a  b  c  ", "rsplit", None, 1); add("a b", "split", sep=" ", maxsplit=0); add("a", "split", ""); add("a--b--c", "rsplit", "--")
add("  a  b  c  ", "split", maxsplit=0); add("  a  b  c  ", "rsplit", maxsplit=0)
add("x\ny\r\n", "splitlines", True); add("x\ny\r\n", "splitlines", keepends=True)
add("xxhixx", "strip", "x"); add("xyhiyx", "lstrip", "xy"); add("xyhiyx", "rstrip", "yx"); add("abc", "strip", None)
add("a=b=c", "partition", "="); add("a=b=c", "rpartition", "="); add("abc", "partition", "x"); add("abc", "rpartition", "x"); add("abc", "partition", "")
add("prefix-x", "removeprefix", "prefix-"); add("x.txt", "removesuffix", ".txt"); add("x", "removesuffix", "")
add(", ", "join", ["a", "b"]); add("", "join", "abc"); add("-", "join", []); add("-", "join", ["a", 1]); add("-", "join", {"k": 1, "j": 2})
add("abc", "translate", {97: "A", 98: None, 99: 100}); add("abc", "maketrans", "ab", "xy"); add("abc", "maketrans", "ab", "xy", "c")
add("abc", "maketrans", {"a": "b", 99: None})
add("abc", "encode"); add("abc", "upper", 1); add("abc", "center"); add("abc", "center", 3.0); add("abc", "center", 5, "ab"); add("abc", "center", width=5)
# Markup
for m, a in [("upper", ()), ("replace", ("&", "<")), ("center", (9, "&")), ("strip", ("<",)), ("partition", ("<",)), ("split", ("&",)),
             ("join", (["<a>", M("<b>"), 1],)), ("striptags", ()), ("unescape", ()), ("escape", ("<&>",)), ("count", ("&",)),
             ("find", ("<",)), ("casefold", ()), ("removeprefix", ("<",)), ("zfill", (10,)), ("title", ()), ("splitlines", ()), ("rpartition", ("b",)),
             ("startswith", ("&",)), ("isupper", ()), ("translate", ({60: "&"},)), ("expandtabs", ())]:
    add(M("a &amp; <b>b</b>&lt; &gt;\tΣ"), m, *a)
for r in ["<!-- c -->a <b>x</b>\n\n  y &amp; &#65;&#x42;&copy &notin; &bogus; &#0; &#x110000; &#128;", "a <b unclosed", "<<a>>", "&amp &ampx &#99999999999999;"]:
    add(M(r), "striptags"); add(M(r), "unescape")
# dict / list / tuple / numbers
D = {"a": 1, "b": [2], 3: "c"}
add(D, "get", "a"); add(D, "get", "z"); add(D, "get", "z", 0); add(D, "get", 3); add(D, "get", 3.0); add(D, "get", []); add(D, "keys"); add(D, "values"); add(D, "items")
add(D, "copy"); add(D, "update", {}); add(D, "pop", "a"); add(D, "setdefault", "a"); add(D, "popitem"); add(D, "clear"); add(D, "fromkeys", ["x", "y"], 0)
add(D, "get", key="a")
L = [1, "a", 2.0, 1, [3]]
add(L, "count", 1); add(L, "count", [3]); add(L, "index", 2); add(L, "index", 1, 1); add(L, "index", 9); add(L, "index", 1, -2, -1)
add(L, "copy"); add(L, "append", 1); add(L, "pop"); add(L, "sort"); add(L, "reverse"); add(L, "clear"); add(L, "extend", []); add(L, "insert", 0, 1); add(L, "remove", 1)
T = (1, 2, 1)
add(T, "count", 1); add(T, "index", 2); add(T, "index", 5)
for n in [0, 5, -7, 2**62, True]:
    for m in ["bit_length", "bit_count", "conjugate", "as_integer_ratio"]:
        add(n, m)
add(255, "to_bytes", 2, "big")
for x in [0.0, -0.0, 1.5, -2.75, 3.0, 1e300, 5e-324, 0.1]:
    for m in ["is_integer", "hex", "conjugate", "as_integer_ratio"]:
        add(x, m)
add(float("inf"), "as_integer_ratio"); add(float("nan"), "is_integer"); add(float("inf"), "hex")

U = Undefined(name="nope")
for m, a in [("find", (U,)), ("center", (U,)), ("startswith", (U,)), ("join", (U,)), ("replace", (U, "x")), ("split", (U,)), ("strip", (U,)),
             ("format", (U,)), ("count", (U,)), ("zfill", (U,)), ("partition", (U,)), ("translate", (U,))]:
    add("abc", m, *a)
add({"a": 1}, "get", U); add([1], "index", U); add([1, U], "count", U)
for r in ["ΟΔΟΣ", "ΟΔΟΣ.", "Σ", "aΣ", "ΑΣ'Β", "ΑΣ'", "Α.Σ", "ΑΣ\u0301", "ΑΣΑ", "1Σ", "ὈΔΥΣΣΕΎΣ", "ǅǆǄ"]:
    for m in ["lower", "title", "capitalize", "swapcase", "casefold", "upper", "istitle", "islower", "isupper"]:
        add(r, m)
add("abc", "translate", [None, "x"]); add("abc", "translate", {97: 0x110000}); add("abc", "translate", {97: 1.5}); add("abc", "translate", 5)
add("abc", "maketrans", "ab", "x"); add("abc", "maketrans", {"ab": 1}); add("abc", "maketrans", {1.5: 1}); add("abc", "maketrans", 1)
add("é\x00\U0001F600", "format", 1); add("{0!a}", "format", "é\x00\U0001F600\u1234")
add(5, "real"); add(5, "imag"); add(2.5, "real"); add(2.5, "imag"); add(True, "numerator"); add(5, "denominator")
out = []
for recv, meth, a, k in cases:
    if meth in ("real", "imag", "numerator", "denominator"):
        t = env.from_string("{{ f(r.%s) }}" % meth)
    else:
        t = env.from_string("{{ f(r.%s(*a, **k)) }}" % meth)
    try:
        res = {"want": t.render(r=recv, a=a, k=k, f=repr)}
    except Exception as e:
        res = {"error": kind(e), "py": type(e).__name__}
    out.append(dict(recv=enc(recv), method=meth, args=[enc(x) for x in a], kwargs={kk: enc(v) for kk, v in k.items()}, **res))
json.dump(out, sys.stdout, ensure_ascii=False, indent=0)
