#!/usr/bin/python3
"""Label every disagreement of a fuzz run.

    classify.py DIFFS+POLICY+RERUNS.jsonl UNEXPLAINED.jsonl [LABELS.json]

Input: compare.py's DIFFS.jsonl after three more oracle.py passes
(`--policy`, `--seed 1 --key rerun1`, `--seed 2 --key rerun2`). Each
disagreement gets one label, in this order:

  policy:<rule>     jinjabox gives what the project's policy model gives
                    (policy_oracle.py beside it: rules P1-P12, the
                    documented departures from Jinja2) and the model names
                    the rule; same matching rule
  nondeterministic  both rendered, and Jinja2's own output changes with
                    Python's random seed (the random filter, lipsum):
                    jinjabox documents a seeded generator, so no engine can
                    match it. (An output that changes between runs of a
                    template without random or lipsum holds an object
                    address a filter transformed: labelled repr.)
  repr              both rendered, and the texts differ only inside Python
                    object reprs (<built-in method ... at 0x...>, <generator
                    object ...>, <reversed object ...>) and in the
                    spaces a width filter padded one with, outputs the
                    conformance oracle drops as non-portable
  documented:<row>  a difference jinjabox keeps on purpose, the row of
                    docs/COMPATIBILITY.md that says why (DOCUMENTED below;
                    this module's copy adds it)
  unexplained       everything else: written to UNEXPLAINED.jsonl with a
                    coarse signature for triage
"""
import collections
import json
import re
import sys

# A Python object repr that carries an address or names a Python-only object (what the
# conformance oracle drops as "python-repr-in-output"), raw or HTML-escaped.
REPRS = re.compile(
    r"(?:<|&lt;)(?:built-in |function |generator |bound method |class |module |method |jinja2\.|markupsafe\."
    r"|[A-Za-z_.]+ object|list_reverseiterator|reversed |range_iterator|dict_[a-z]+iterator|itertools\.)"
    r"[^<>&]*?(?:>|&gt;)"
)
ADDR = re.compile(r" at 0x[0-9a-fA-F]+")


def nk(k):
    return "type/render" if k in ("type", "render") else k


def same(a, b):
    if a is None or b is None:
        return False
    if "output" in a:
        return "output" in b and a["output"] == b["output"]
    return "error" in b and nk(a["error"]) == nk(b["error"])


def norm_msg(m):
    m = m or ""
    m = re.sub(r"\d+", "N", m)
    m = re.sub(r"'[^']*'", "'Q'", m)
    m = re.sub(r'"[^"]*"', '"Q"', m)
    return m[:70]


def signature(d):
    e, g = d["expect"], d["jinjabox"]
    js = ("out" if "output" in e else "%s:%s" % (e["python_error"], norm_msg(e.get("message"))))
    bs = ("out" if "output" in g else "%s:%s" % (g.get("error"), norm_msg(g.get("message"))))
    return "%s | J %s | B %s" % (d["category"], js, bs)


_PADDED = re.compile(r" *R *")


def _noaddr(r):
    if r is None:
        return None
    r = {k: v for k, v in r.items() if k in ("output", "error")}
    if "output" in r:
        r["output"] = ADDR.sub("", r["output"])
    return r


# Differences jinjabox keeps on purpose, each a row of docs/COMPATIBILITY.md
# (module copy: the shared classifier knows the policy rules only). A rule
# matches what the row describes and nothing wider; testsuite's
# TestDiffFuzzLabelsNameRows holds every label to an existing row.
DOCUMENTED = [
    # C1: template arithmetic stops at 64 bits; the policy model covers the
    # operators, not %d formatting of a huge float or as_integer_ratio
    ("C1", lambda d: d["jinjabox"].get("error") == "budget"
     and "integer wider than 64 bits" in (d["jinjabox"].get("message") or "")),
    # C3: random and lipsum draw from a generator seeded per render; Jinja2's
    # draw is Python's (the nondeterministic label catches most, when the
    # reruns differ; a draw that happens to repeat across them lands here)
    # (a draw decides branches and errors too: lipsum(...).index('o') fails
    # or not, lipsum(...) <= 'T' picks a branch; any category)
    ("C3", lambda d: re.search(r"\|\s*random\b|\blipsum\s*\(", d["template"]) is not None),
    # C2: no complex numbers; Jinja2 computes (-8) ** 0.5 as one
    ("C2", lambda d: "complex result of power is not supported" in (d["jinjabox"].get("message") or "")),
    # C9: Jinja2 folds a constant float expression to inf or nan and then
    # generates code naming `inf`/`nan`, a NameError; jinjabox computes it
    ("C9", lambda d: d["expect"].get("python_error") == "NameError"
     and re.search(r"name '(inf|nan)' is not defined", d["expect"].get("message") or "") is not None),
    # C10: a keyword repeated in a filter or test of constants whose fold
    # fails: Jinja2's compiler refuses the call, jinjabox raises the call's
    # own error when it runs
    ("C10", lambda d: "keyword argument repeated" in (d["expect"].get("message") or "")
     and "error" in d["jinjabox"] and "keyword argument repeated" not in (d["jinjabox"].get("message") or "")),
    # C12: a float power one ulp from glibc's: jinjabox's is correctly
    # rounded (value.floatPow, checked against decimal), glibc's pow is
    # within 0.52 ulp and misrounds about one power in a few thousand
    ("C12", lambda d: d["category"] == "diff_output" and "**" in d["template"] and _one_ulp(d)),
    # C13: an object's repr, whatever a filter did to it afterwards
    # (upper-cased, title-cased, escaped): Python prints a class and an
    # address, jinjabox a fixed text
    ("C13", lambda d: d["category"] == "diff_output" and _only_reprs_differ(d)),
    # C11: Jinja2 folds a negative constant base and emits `-2 ** n`, which
    # Python reads as -(2 ** n); jinjabox computes (-2) ** n
    ("C11", lambda d: d["category"] == "diff_output" and "**" in d["template"]
     and re.search(r"\(\s*-\s*\d", d["template"]) is not None and _sign_flip(d)),
    # C14: to_bytes on a bool (an int in Python) is refused as on an int:
    # bytes are outside the value model (the policy model refuses it on ints)
    ("C14", lambda d: d["jinjabox"].get("error") == "security" and "to_bytes" in (d["jinjabox"].get("message") or "")
     and re.search(r"\.\s*to_bytes\b", d["template"]) is not None),
    # C5: an operation that alone needs more than a sixteenth of the default
    # budget (8 Mi units: megabytes of memory, or tens of milliseconds) is
    # refused where Jinja2 goes on, whatever it does next
    ("C5", lambda d: d["jinjabox"].get("error") == "budget" and _big_refusal(d)),
    # C13 counted (last: a number that differs for a reason above is that
    # reason's): the template reads a method without calling it and a
    # filter measured its repr (wordcount, length): the outputs differ in
    # numbers only
    ("C13", lambda d: d["category"] == "diff_output" and _METHOD_REF.search(d["template"]) is not None
     and _NUM.sub("#", d["expect"]["output"]) == _NUM.sub("#", d["jinjabox"]["output"])),
]

# A negative numeric constant as the base of a power: parenthesised
# ("(-2) ** n") or not ("-2.0 ** n", the minus unary).
_NEG_BASE = re.compile(r"\(\s*-\s*(\d[\d_]*(?:\.\d*)?(?:[eE][-+]?\d+)?)\s*\)(?=\s*\*\*)"
                       r"|-\s*(\d[\d_]*(?:\.\d*)?(?:[eE][-+]?\d+)?)(?=\s*\*\*)")
_KEYWORDS = {"if", "else", "and", "or", "not", "in", "is"}


def _unfold_negative_bases(template, context):
    """The template with each negative constant power base read from a
    context variable, and that context; None when there is none."""
    ctx = dict(context)
    out, last, n = [], 0, 0
    for m in _NEG_BASE.finditer(template):
        if m.group(2) is not None:
            # the minus must be unary: nothing that ends an operand before
            # it, and no whitespace control ({{- or {%-)
            if template[:m.start()].endswith(("{{", "{%")):
                continue
            before = template[:m.start()].rstrip()
            word = re.search(r"[A-Za-z_]\w*$", before)
            if before and (before[-1] in ")]}'\"" or (before[-1].isalnum() or before[-1] == "_")) \
                    and not (word and word.group(0) in _KEYWORDS):
                continue
        lit = (m.group(1) or m.group(2)).replace("_", "")
        name = "jbnegbase%d" % n
        n += 1
        try:
            ctx[name] = -(float(lit) if any(c in lit for c in ".eE") else int(lit))
        except ValueError:
            return None, None
        out.append(template[last:m.start()])
        out.append("(%s)" % name)
        last = m.end()
    if n == 0:
        return None, None
    out.append(template[last:])
    return "".join(out), ctx


def _unfolded_matches(d):
    """Jinja2, given the template with each negative constant base read
    from the context, gives jinjabox's outcome (an output, or an error of
    the same kind)."""
    from jinja2.sandbox import ImmutableSandboxedEnvironment
    opts = {k: bool(v) for k, v in (d.get("options") or {}).items()
            if k in ("autoescape", "trim_blocks", "lstrip_blocks", "keep_trailing_newline")}
    t, ctx = _unfold_negative_bases(d["template"], d.get("context") or {})
    if t is None:
        # a base no literal shows, folded from a filter or an operator
        # (('-0.0'|float) ** n): the same template with Jinja2's optimizer
        # off, so that nothing is folded
        t, ctx, opts = d["template"], d.get("context") or {}, dict(opts, optimized=False)
    return same(_render_outcome(ImmutableSandboxedEnvironment(**opts), t, ctx), d["jinjabox"])


def _correct_pow(a, b):
    """a ** b as Python computes it, but a float power correctly rounded
    (jinjabox's value.floatPow): an integer exponent through exact
    fractions, any other through 80-digit decimals."""
    import decimal
    import fractions
    import math
    if not (isinstance(a, float) or isinstance(b, float) or (isinstance(b, int) and b < 0)) \
            or isinstance(a, bool) or isinstance(b, bool):
        return a ** b
    try:
        x, y = float(a), float(b)
    except (TypeError, ValueError, OverflowError):
        return a ** b
    if not (math.isfinite(x) and math.isfinite(y)) or x in (0.0, 1.0) or y in (0.0, 1.0) or (x < 0 and not y.is_integer()):
        return a ** b
    try:
        if y.is_integer() and abs(y) <= 4096:
            r = float(fractions.Fraction(x) ** int(y))
        else:
            with decimal.localcontext() as ctx:
                ctx.prec = 80
                r = float(decimal.Decimal(x) ** decimal.Decimal(y))
    except (OverflowError, ZeroDivisionError, decimal.InvalidOperation):
        return a ** b
    if math.isinf(r):
        return a ** b  # Python's OverflowError, as the real power raises it
    return r


def _correct_pow_matches(d):
    """Jinja2 with every ** computed by _correct_pow (and its optimizer
    off, so that no power is folded at compile time) gives jinjabox's
    output."""
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    class PowEnv(ImmutableSandboxedEnvironment):
        intercepted_binops = frozenset(["**"])

        def call_binop(self, context, operator, left, right):
            if operator == "**":
                return _correct_pow(left, right)
            return super().call_binop(context, operator, left, right)

    opts = {k: bool(v) for k, v in (d.get("options") or {}).items()
            if k in ("autoescape", "trim_blocks", "lstrip_blocks", "keep_trailing_newline")}
    got = _render_outcome(PowEnv(optimized=False, **opts), d["template"], d.get("context") or {})
    return "output" in got and got == {"output": d["jinjabox"].get("output")}


class _Method:
    """A looked-up method printed as jinjabox prints it (C13) and, with
    identity set, equal only to itself (C15)."""
    __slots__ = ("f", "identity")

    def __init__(self, f, identity):
        self.f, self.identity = f, identity

    def __call__(self, *a, **k):
        return self.f(*a, **k)

    def __eq__(self, other):
        if self.identity:
            return self is other
        return isinstance(other, _Method) and self.f == other.f

    def __hash__(self):
        return id(self) if self.identity else hash(self.f)

    def __repr__(self):
        owner = type(getattr(self.f, "__self__", None)).__name__
        name = getattr(self.f, "__name__", "?")
        if owner == "Cycler":
            return "<function %s>" % name
        if owner == "LoopContext":
            return "<function loop.%s>" % name
        return "<function %s.%s>" % (owner, name)

    __str__ = __repr__


def _method_env(opts, identity=True):
    import types
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    def wrap(v, name):
        if isinstance(v, (types.BuiltinMethodType, types.MethodType)) and name not in ("format", "format_map"):
            return _Method(v, identity)
        return v

    class Env(ImmutableSandboxedEnvironment):
        def getattr(self, obj, attribute):
            return wrap(super().getattr(obj, attribute), attribute)

        def getitem(self, obj, argument):
            return wrap(super().getitem(obj, argument), argument)

    return Env(**opts)


def _render_outcome(env, template, context):
    import oracle
    try:
        return {"output": env.from_string(template).render(context)}
    except Exception as exc:  # noqa: BLE001
        return {"error": oracle.error_kind(exc)}


_METHOD_LOOKUP = re.compile(r"\.\s*[A-Za-z]\w*\b|attribute\s*=|\|\s*attr\s*\(|\[\s*['\"]")


def _wrapped_methods_match(d, identity=True):
    """Jinja2 with its methods printed (and, with identity, compared) as
    jinjabox's gives jinjabox's outcome (an output, or an error of the
    same kind)."""
    if _METHOD_LOOKUP.search(d["template"]) is None:
        return False
    opts = {k: bool(v) for k, v in (d.get("options") or {}).items()
            if k in ("autoescape", "trim_blocks", "lstrip_blocks", "keep_trailing_newline")}
    got = _render_outcome(_method_env(opts, identity), d["template"], d.get("context") or {})
    b = d["jinjabox"]
    if "output" in b:
        return got.get("output") == b["output"]
    return got.get("error") == b.get("error")


class _Iter:
    """An iterator a filter returned, printed as jinjabox prints it (C13):
    Python's repr without its address ("<list_reverseiterator object>",
    "<generator object sync_do_map>")."""
    __slots__ = ("it",)

    def __init__(self, it):
        self.it = it

    def __iter__(self):
        return self

    def __next__(self):
        return next(self.it)

    def __repr__(self):
        return re.sub(r" at 0x[0-9a-fA-F]+", "", repr(self.it))

    __str__ = __repr__


def _iter_filters_match(d):
    """Jinja2 with every iterator a filter returns printed as jinjabox
    prints it gives jinjabox's outcome: the repr's address went somewhere
    that changed more than the text (a loop over its characters, its
    length)."""
    import collections.abc
    import functools
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    opts = {k: bool(v) for k, v in (d.get("options") or {}).items()
            if k in ("autoescape", "trim_blocks", "lstrip_blocks", "keep_trailing_newline")}
    env = ImmutableSandboxedEnvironment(**opts)

    def wrap(f):
        @functools.wraps(f)  # keeps jinja_pass_arg (pass_context and the like)
        def g(*a, **k):
            r = f(*a, **k)
            if isinstance(r, collections.abc.Iterator):
                return _Iter(r)
            return r
        return g

    env.filters = {name: wrap(f) for name, f in env.filters.items()}
    got = _render_outcome(env, d["template"], d.get("context") or {})
    b = d["jinjabox"]
    if "output" in b:
        return got.get("output") == b["output"]
    return got.get("error") == b.get("error")


def _big_refusal(d):
    m = re.search(r"needs about ([\d,]+)", d["jinjabox"].get("message") or "")
    return m is not None and int(m.group(1).replace(",", "")) >= 8 << 20


def _sign_flip(d):
    """Both outputs are the same but for the sign of some numbers."""
    a, b = d["expect"].get("output"), d["jinjabox"].get("output")
    if a is None or b is None:
        return False
    strip = lambda s: re.sub(r"-(?=\d)", "", s)
    return a != b and strip(a) == strip(b)


# A method named without a call after it (clusters.py's METHOD_REF).
_METHOD_REF = re.compile(
    r"\.(?:upper|lower|title|capitalize|strip|lstrip|rstrip|split|replace|format|join|startswith|endswith|find|count"
    r"|index|keys|values|items|get|copy|zfill|center|ljust|rjust|swapcase|casefold|isdigit|isalpha|hex|is_integer"
    r"|bit_length|conjugate|as_integer_ratio)\b(?!\s*\()")

_NUM = re.compile(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def _one_ulp(d):
    """The outputs differ only in numbers, and the first that differ are
    adjacent floats."""
    import math
    a, b = d["expect"].get("output"), d["jinjabox"].get("output")
    if a is None or b is None or _NUM.sub("#", a) != _NUM.sub("#", b):
        return False
    for x, y in zip(_NUM.findall(a), _NUM.findall(b)):
        if x != y:
            try:
                fx, fy = float(x), float(y)
            except ValueError:
                return False
            return fx != fy and math.nextafter(fx, fy) == fy
    return False


_ANY_REPR = re.compile(r"(?i)(?:<|&lt;)(?:built-in |function |generator |bound method |class |method |macro |[a-z_.]+ object)[^<>&]*?(?:>|&gt;)")


def _only_reprs_differ(d):
    a, b = d["expect"].get("output"), d["jinjabox"].get("output")
    if a is None or b is None or not _ANY_REPR.search(a):
        return False
    return _ANY_REPR.sub("R", a) == _ANY_REPR.sub("R", b)


# Rows whose rule renders the template again in Jinja2 with one departure
# of jinjabox's put in (slow: label() tries them last, on a difference
# nothing cheaper explains).
DOCUMENTED_RERENDER = [
    # C12 where the two powers cannot be read off the outputs (run together
    # with other numbers, formatted, summed): Jinja2, given the same
    # template with its float powers correctly rounded (as jinjabox's are),
    # renders exactly what jinjabox rendered
    ("C12", lambda d: d["category"] == "diff_output" and "**" in d["template"] and _correct_pow_matches(d)),
    # C11 where the sign does not survive to the output (the power is added
    # to, formatted, counted, compared): Jinja2, given the same template
    # with each negative constant base read from the context (so nothing is
    # folded), renders exactly what jinjabox rendered, or fails as it failed
    ("C11", lambda d: d["category"] in ("diff_output", "kind_mismatch", "out_vs_err", "err_vs_out")
     and "**" in d["template"] and _unfolded_matches(d)),
    # C13 wherever the repr went (iterated, measured, reformatted): Jinja2,
    # given the same template with each looked-up method printing as
    # jinjabox prints it, renders what jinjabox rendered
    ("C13", lambda d: d["category"] in ("diff_output", "kind_mismatch", "out_vs_err", "err_vs_out")
     and _wrapped_methods_match(d, identity=False)),
    # C13 for an iterator a filter returned (reverse, map, select): Jinja2,
    # given the same template with those iterators printing as jinjabox
    # prints them, renders what jinjabox rendered
    ("C13", lambda d: d["category"] in ("diff_output", "kind_mismatch", "out_vs_err", "err_vs_out")
     and _iter_filters_match(d)),
    # C15: a method looked up twice is two objects that are not equal in
    # jinjabox; Python compares a bound method's receiver by identity, which
    # CPython's interning decides. Jinja2, given the same template with every
    # looked-up method wrapped in an object equal only to itself, renders
    # exactly what jinjabox rendered
    ("C15", lambda d: d["category"] in ("diff_output", "kind_mismatch", "out_vs_err", "err_vs_out")
     and _wrapped_methods_match(d)),
]


# Policy rules of ../hostile/README.md the policy model applies in part
# only: jinjabox's refusal under the rule, named by its message.
POLICY_EXTRA = [
    # P10: a namespace holds data only, "wherever it sits in the stored
    # value" (the model checks the top level of a value)
    ("P10", lambda d: d["jinjabox"].get("error") == "security"
     and "may hold data only, not a callable" in (d["jinjabox"].get("message") or "")),
    # P5 where the policy model could not run the template: its
    # intercepted operators switch off Jinja2's constant folding, and an
    # inf or nan left unfolded is C9's NameError. jinjabox refused, by
    # name, a method P5 refuses (policy_oracle.refused_method)
    ("P5", lambda d: d["jinjabox"].get("error") == "security"
     and _P5_REFUSAL.search(d["jinjabox"].get("message") or "") is not None
     and re.search(r"name '(inf|nan)' is not defined", (d.get("policy") or {}).get("message") or "") is not None),
]

# jinjabox's refusal of a method policy_oracle.refused_method lists.
_P5_REFUSAL = re.compile(
    r'access to attribute "(?:(?:append|extend|insert|pop|remove|clear|sort|reverse)" of "list'
    r'|(?:update|pop|popitem|setdefault|clear)" of "dict'
    r'|encode" of "str|to_bytes" of "int)" object is unsafe')


def documented(d):
    for row, rule in DOCUMENTED:
        if rule(d):
            return "documented:%s" % row
    return None


def documented_by_rerender(d):
    """The rows whose rule renders the template again in Jinja2 (slow):
    tried only on a difference nothing else explains."""
    for row, rule in DOCUMENTED_RERENDER:
        if rule(d):
            return "documented:%s" % row
    return None


def label(d):
    doc = documented(d)
    if doc:
        return doc
    for rule, f in POLICY_EXTRA:
        if f(d):
            return "policy:%s" % rule
    p = d.get("policy")
    if p is not None and same(p, d["jinjabox"]) and p.get("rule"):
        # the policy model refused this case under a named rule (P1-P12) and jinjabox did the same.
        # (A policy result without a rule is not counted: the model's intercepted operators also
        # switch off Jinja2's constant folding, which changes some results for reasons of its own.)
        return "policy:%s" % p["rule"]
    e, g = d["expect"], d["jinjabox"]
    r1, r2, e0 = _noaddr(d.get("rerun1")), _noaddr(d.get("rerun2")), _noaddr(e)
    varies = (r1 is None) != (r2 is None) or (r1 is not None and (r1 != r2 or r1 != e0))
    if varies and "output" in e and "output" in g:
        if re.search(r"random|lipsum", d["template"]):
            return "nondeterministic"
        # no random draw: what changes between runs is an object address that a filter
        # transformed (upper-cased, wrapped, reversed, urlencoded) past _noaddr
        return "repr"
    if "output" in e and "output" in g and e.get("repr"):
        if REPRS.sub("R", e["output"]) == REPRS.sub("R", g["output"]):
            return "repr"
        # a width filter padded the repr (center, ljust, format widths): the
        # two reprs' lengths differ, so does the padding around them
        if _PADDED.sub("R", REPRS.sub("R", e["output"])) == _PADDED.sub("R", REPRS.sub("R", g["output"])):
            return "repr"
    return documented_by_rerender(d) or "unexplained"


def main():
    src, unexplained_path = sys.argv[1:3]
    labels_path = sys.argv[3] if len(sys.argv) > 3 else None
    counts = collections.Counter()
    by_cat = collections.defaultdict(collections.Counter)
    sigs = collections.Counter()
    labels = {}
    with open(src, encoding="utf-8") as f, open(unexplained_path, "w", encoding="utf-8") as out:
        for line in f:
            d = json.loads(line)
            lab = label(d)
            labels[d["id"]] = lab
            counts[lab.split(":")[0]] += 1
            by_cat[lab][d["category"]] += 1
            if lab == "unexplained":
                d["signature"] = signature(d)
                sigs[d["signature"]] += 1
                out.write(json.dumps(d, ensure_ascii=False) + "\n")
    total = sum(counts.values())
    print("disagreements %d:" % total)
    for k, v in counts.most_common():
        print("  %-18s %6d" % (k, v))
    print("by label and category:")
    for lab, cc in sorted(by_cat.items(), key=lambda kv: -sum(kv[1].values())):
        print("  %-28s %s" % (lab, dict(cc)))
    print("top unexplained signatures:")
    for s, v in sigs.most_common(40):
        print("  %5d  %s" % (v, s))
    if labels_path:
        with open(labels_path, "w") as f:
            json.dump({"counts": dict(counts), "by_label": {k: dict(v) for k, v in by_cat.items()},
                       "signatures": dict(sigs.most_common()), "labels": labels}, f, indent=0)


if __name__ == "__main__":
    main()
