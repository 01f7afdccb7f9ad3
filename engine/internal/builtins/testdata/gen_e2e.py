#!/usr/bin/python3
"""Regenerates e2e_filters.jsonl: filter chains rendered end to end by real
Jinja2 3.1.2 (run with /usr/bin/python3), in the shared corpus format, for
filters_e2e_test.go. Three families with fixed seeds: random chains of
filters over a small context, random text through the text filters, random
nested data through the structure filters. Cases where Jinja printed a
generator's address (at any step of the chain) are dropped, and so are
integers past 64 bits (policy P6 departs from Jinja there).
"""
import copy, json, random, sys

from jinja2 import __version__
from jinja2.exceptions import SecurityError, UndefinedError
from jinja2.sandbox import ImmutableSandboxedEnvironment

assert __version__ == "3.1.2", __version__

ENVS = {ae: ImmutableSandboxedEnvironment(autoescape=ae) for ae in (False, True)}


def expect(src, ctx, ae):
    try:
        return {"output": ENVS[ae].from_string(src).render(copy.deepcopy(ctx))}
    except UndefinedError:
        return {"error": "undefined"}
    except SecurityError:
        return {"error": "security"}
    except Exception as e:  # TypeError, ValueError, FilterArgumentError...
        return {"error": "render", "python_error": type(e).__name__}


def leaks(v, chain, ctx):
    """Whether a step of the chain prints a generator (its address)."""
    parts = chain.split("|")
    for k in range(1, len(parts) + 1):
        try:
            o = ENVS[False].from_string("{{ (%s)|%s }}" % (v, "|".join(parts[:k]))).render(copy.deepcopy(ctx))
        except Exception:
            return False
        if "0x" in o.lower() or "object" in o:
            return True
    return False

CTX = {"s": "hello world", "h": "Hello <b>World</b> & 'you'", "ml": "a\nb  c\n\nd", "e": "", "n": 3, "f": -2.5, "z": 0,
       "l": [3, 1, 2], "sl": ["b", "A", "a", "B"], "ol": [{"n": "x", "v": 2}, {"n": "Y", "v": 1}, {"n": "x", "v": 3}],
       "d": {"b": 1, "a": 2}, "nn": None, "u": "http://example.com/a?b=1 and www.x.org, mail me@x.com.",
       "t": "the quick brown fox jumps over the lazy dog", "big": 1234567, "fl": [1.5, 2.25, -1],
       "nested": [[1, 2], [3]], "mixed": [1, "a"], "uni": "ǆemal Σας straße",
       "html": "<p class='x'>Hi &amp; <b>bye</b><!-- c --></p>", "nums": ["10", "0x1f", "3.7", "-2", "1e3", "abc", "1_000"],
       "long": "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore",
       "hy": "a well-known long-winded text--with dashes", "dd": {"x": {"y": [1, {"z": "<"}]}, "k": None},
       "people": [{"name": "Ann", "city": "Rome", "age": 30}, {"name": "bob", "city": "paris", "age": 25},
                  {"name": "Cid", "city": "Paris", "age": 30}], "tl": [[1, "b"], [0, "a"], [1, "a"]]}
VALS = list(CTX) + ["'<b>'|safe + 'x'", "'%s-%d'", "'a\\tb'", "-0.5", "2.5", "true", "missing", "'<i>x</i>'|safe", "(1, 2)", "'aBc'", "42", "[]", "{}"]
CHAIN_FILTERS = ['upper', 'lower', 'title', 'capitalize', 'trim', 'center(9)', 'replace("a", "<x>")', 'replace("", "-")',
           'truncate(8)', 'truncate(8, true)', 'truncate(12, false, "~", 0)', 'wordcount', 'string', 'indent(2)',
           'indent(2, true, true)', 'abs', 'int', 'float', 'round(1)', 'round(0, "floor")', 'round', 'filesizeformat',
           'filesizeformat(true)', 'escape', 'e', 'forceescape', 'safe', 'striptags', 'xmlattr', 'urlize', 'urlize(10)',
           'urlencode', 'first', 'last', 'length', 'count', 'list', 'reverse', 'batch(2)', 'batch(2, 0)', 'slice(2)',
           'slice(2, "-")', 'join(",")', 'join', 'items', 'default("d")', 'd("x", true)', 'attr("n")', 'sum', 'sum(start=10)',
           'sort', 'sort(reverse=true)', 'sort(attribute="v")', 'sort(attribute="n,v")', 'dictsort', 'dictsort(by="value")',
           'unique', 'unique(attribute="n")', 'min', 'max', 'max(attribute="v")', 'groupby("n")', 'map("upper")',
           'map(attribute="n")', 'map(attribute="q", default=0)', 'select', 'reject', 'select("odd")', 'reject("none")',
           'selectattr("v", "odd")', 'rejectattr("n", "eq", "x")', 'tojson', 'tojson(2)', 'pprint', 'wordwrap(5)',
           'wordwrap(7, false, "|")', 'list|sort|first', 'format(1, 2)', 'join(attribute="n")', 'sum(attribute="v")',
           'map("int")', 'map("float")', 'map("int", 0, 16)', 'groupby("city")', 'groupby("city", case_sensitive=true)',
           'groupby("age")|map(attribute="grouper")', 'sort(attribute="age,name")', 'sort(attribute="1,0")', 'groupby(0)',
           'map(attribute="name")|join(", ")', 'selectattr("age", "gt", 26)', 'rejectattr("city", "in", ["Rome"])',
           'map(attribute="x.y.1.z")', 'wordwrap(10, break_on_hyphens=false)', 'wordwrap(3)', 'truncate(20, leeway=0)',
           'center(30)', 'indent("> ")', 'urlize(nofollow=true, target="_t")', 'replace(" ", "")', 'replace("o", "0", 1)',
           'title|wordcount', 'dictsort(true, reverse=true)', 'batch(3, "")', 'slice(3)|list', 'unique(true)', 'min(attribute="age")',
           'max(case_sensitive=true)', 'string|length', 'tojson|safe', 'pprint|length', 'xmlattr(false)', 'float(1.5)', 'int(7)',
           'round(2, "ceil")', 'round(-1)', 'abs|string', 'sum(start=[])', 'select("string")', 'reject("number")',
           'select("defined")', 'map("default", "z")', 'map("length")', 'map("first")', 'map("last")', 'items|list|length']


def chains(n, seed):
    rnd = random.Random(seed)
    seen = set()
    for i in range(n):
        v = rnd.choice(VALS)
        chain = "|".join(rnd.choice(CHAIN_FILTERS) for _ in range(rnd.choice([1, 1, 2, 2, 3])))
        src = "{{ (%s)|%s }}" % (v, chain)
        if rnd.random() < 0.3:
            src = "{{ (%s)|%s|list }}" % (v, chain)
        ae = rnd.random() < 0.3
        if (src, ae) in seen:
            continue
        seen.add((src, ae))
        ctx = {v: CTX[v]} if v in CTX else {}
        if leaks(v, chain, ctx):
            continue
        yield "chain", src, ctx, ae

TOKENS = ["a", "b", "Σ", "é", "ß", " ", "  ", "\t", "\n", "-", "--", "---", ".", ",", ")", "(", "<", ">", "&", "&amp;", "&lt;",
          "&gt;", "'", '"', "http://", "https://", "www.", "x.com", "ex.org", "/p?q=1", "@", "mailto:", "<!--", "-->", "<b>",
          "</b>", "word", "well-known", "A1", "_", "0", "9", "ǆ", "İ", "\u00a0", "\u2003", "😀", ":", "#", "%", "[", "]", "{", "}",
          "the", "quick", "re-", "x-y", "ab-cd", "1-2", "\r\n", "\x0b", "\x1c", "mail@ex.com", "a@b", "(www.a.com)", "ﬁ"]
TEXT_FILTERS = ["urlize", "urlize(5)", "urlize(nofollow=true)", "wordwrap(4)", "wordwrap(7)", "wordwrap(3, false)",
           "wordwrap(5, break_on_hyphens=false)", "wordwrap(1)", "wordwrap(12)", "wordwrap(20, true, '<br>')", "urlize(20, target='_b')", "truncate(30)", "pprint|length", "title", "capitalize", "upper", "lower", "striptags",
           "truncate(9)", "truncate(9, true)", "truncate(10, false, '..', 2)", "center(15)", "trim", "trim('-a ')", "wordcount",
           "indent(2)", "indent(1, true, true)", "pprint", "tojson", "urlencode", "escape", "replace('-', '+')", "reverse",
           "list|join('|')", "length", "first", "last", "filesizeformat", "int", "float", "striptags|wordcount", "title|length"]


def texts(n, seed):
    rnd = random.Random(seed)
    for i in range(n):
        s = "".join(rnd.choice(TOKENS) for _ in range(rnd.randint(0, 40)))
        yield "text", "{{ s|%s }}" % rnd.choice(TEXT_FILTERS), {"s": s}, rnd.random() < 0.25

WORDS = ["a", "bb", "ccc dd", "x" * 30, "y " * 20, "it's", 'q"t', "é😀", "line\nbreak", "tab\t", "<&>", "", " ", "z" * 85]
def rnd_value(rnd, d):
    r = rnd.random()
    if d > 3 or r < 0.35:
        return rnd.choice([rnd.choice(WORDS), rnd.randint(-1000, 10**12), None, True, 1.5, -0.0, 1e22])
    if r < 0.6:
        return [rnd_value(rnd, d + 1) for _ in range(rnd.randint(0, 6))]
    if r < 0.75:
        return {"$tuple": [rnd_value(rnd, d + 1) for _ in range(rnd.randint(0, 3))]}
    return {rnd.choice(["k", "a", "B", "key" * 5, "é", "z z"]) + str(rnd.randint(0, 9)): rnd_value(rnd, d + 1) for _ in range(rnd.randint(0, 5))}


def py(v):
    if isinstance(v, dict):
        if "$tuple" in v:
            return tuple(py(x) for x in v["$tuple"])
        return {k: py(x) for k, x in v.items()}
    if isinstance(v, list):
        return [py(x) for x in v]
    return v


def structures(n, seed):
    rnd = random.Random(seed)
    for i in range(n):
        v = py(rnd_value(rnd, 0))
        f = rnd.choice(["pprint", "tojson", "tojson(2)", "tojson('\\t')", "string", "list", "length", "sort",
                        "unique|list", "dictsort", "first", "last", "sum", "max", "min"])
        yield "data", "{{ (%s)|%s }}" % (repr(v), f), {}, False


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "e2e_filters.jsonl"
    n = 0
    with open(path, "w") as fh:
        for gen in (chains(900, 1), texts(700, 2), structures(400, 3)):
            for fam, src, ctx, ae in gen:
                exp = expect(src, ctx, ae)
                if "output" in exp and " at 0x" in exp["output"]:
                    continue
                case = {"id": "e2e/%s/%d" % (fam, n), "template": src, "context": ctx,
                        "options": {"autoescape": True} if ae else {}, "expect": exp}
                fh.write(json.dumps(case, ensure_ascii=False) + "\n")
                n += 1
    print(n, "cases")


if __name__ == "__main__":
    main()
