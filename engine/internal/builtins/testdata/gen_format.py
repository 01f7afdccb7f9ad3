# Regenerates format_golden.json from real Jinja2 (ImmutableSandboxedEnvironment):
#   /usr/bin/python3 engine/internal/builtins/testdata/gen_format.py > engine/internal/builtins/testdata/format_golden.json
import json, sys
sys.path.insert(0, __file__.rsplit("/", 1)[0])
from golden_util import enc, kind, env, M

cases = []
def fmt(r, *a, **k): cases.append(("format", r, list(a), k))
def fmap(r, m): cases.append(("format_map", r, [m], {}))
def pct(r, a): cases.append(("%", r, [a], {}))

for spec in ["", "5", "<5", ">5", "^5", "*^6", "=8", "+", "-", " ", "08", "010,", "09,", "_", ",", "#x", "#o", "#b", "#X", "_x", "x", "X", "o", "b", "c",
             "d", "n", "e", ".2e", "E", "f", ".0f", "#.0f", "F", "g", ".3g", "#g", "G", "%", ".1%", ".3", ".1", ",.2f", "z.1f", "+08.2f", " 8.3e", "<08", "s", ",d", "0=10,"]:
    for v in [0, 7, -42, 1234567, True, 3.14159, -0.0, 1e16, 1234.5, -1e-7, float("inf"), float("nan"), "str", "é", None, [1]]:
        fmt("{:%s}" % spec, v)
fmt("{} {}", 1, 2); fmt("{0}{1}{0}", "a", "b"); fmt("{x}-{y}", x=1, y="z"); fmt("{}{0}", 1); fmt("{0}{}", 1); fmt("{2}", 1)
fmt("{a}", b=1); fmt("{{}} {{{0}}}", 5); fmt("}"); fmt("{"); fmt("a{0!r}b{0!s}c{0!a}", "é'"); fmt("{0!x}", 1); fmt("{0!}", 1)
fmt("{0.a.b}", {"a": {"b": "deep"}}); fmt("{0[0]}", ["z"]); fmt("{0[a]}", {"a": 1}); fmt("{0[_id]}", {"_id": 5}); fmt("{0[_x]}", {})
fmt("{0.__class__}", 1); fmt("{x.__class__}", x=1); fmt("{0[__class__]}", {}); fmt("{0.items}", {}); fmt("{0:{1}}", 3, 5); fmt("{:{}}", "x", 4)
fmt("{:>{w}}|{a}", "x", w="3", a=[1]); fmt("{0:{1.__class__}}", 1, 2); fmt("{0.missing}", {}); fmt("{0[missing]}", {}); fmt("{:{:{}}}", 1, 2, 3)
fmt("{0[0]x}", [1]); fmt("{0[}", [1]); fmt("{0.}", 1); fmt("{.a}", {"a": 1}); fmt("{0:s}", 1); fmt("{0:d}", "x"); fmt("{0:=5}", "x"); fmt("{0:+}", "x")
fmt("{0:,x}", 1); fmt("{0:.2d}", 1); fmt("{0:,,}", 1); fmt("{0:,_}", 1); fmt("{0:5.}", 1.0); fmt("{0:xx}", 1); fmt("{0:c}", 0x110000); fmt("{:>4}", "x")
fmt("{0[1]}", "abc"); fmt("{0[1]}", (7, 8)); fmt("{0[-1]}", [1]); fmt("{}", None); fmt("{:5}", None); fmt("{}", {"a": [1, (2,)]})
fmt("{}", M("<b>")); fmt("{:>6}", M("<b>")); fmt("{0.upper}", "x")
fmap("{a}", {"a": 1}); fmap("{x.__class__}", {"x": 1}); fmap("{_x}", {"_x": 3}); fmap("{_x}", {}); fmap("{x}", {}); fmap("{a:>{w}}", {"a": "y", "w": 2}); fmap("{0}", {"0": 1}); fmap("{a}", [1])
MK = M("<b>{0}</b>{1}")
fmt(MK, "<i>", M("<u>")); fmt(M("{0.__class__}"), 1); fmt(M("{0:>5}"), "<"); fmt(M("{0:>5}"), M("<")); fmt(M("{0!r}"), "<"); fmt(M("{}"), 1)
fmap(M("{a}"), {"a": "<&>"})
for f, a in [("%s", "x"), ("%s-%s", (1, 2)), ("%(a)s", {"a": "ok"}), ("%.2f", 3.14159), ("%05.1f|%s", (3.14159, "x")), ("%(a)s-%(a)s", {"a": 1}),
             ("%d", 3.7), ("%d", -3.7), ("%d", "3"), ("%x", 3.0), ("%x", 255), ("%#x %#o %#X", (255, 8, 255)), ("%5s|%-5s|%.1s", ("ab", "ab", "ab")),
             ("%c%c", (65, "b")), ("%c", "ab"), ("%a", "é"), ("%r", "x"), ("%g %g %g %#g", (1e6, 1e-5, 123456789, 1.0)), ("%05f", float("inf")),
             ("%05d", -3), ("%-05d|", 3), ("%.3d", -5), ("%+.2e", 12345.678), ("% d", 5), ("%i%u", (1, 2)), ("%*d", (5, 1)), ("%-*d|", (5, 1)),
             ("%.*f", (2, 1.0)), ("%*d", (-5, 1)), ("%%", ()), ("%s %s", (1,)), ("%s", (1, 2)), ("abc", 5), ("abc", {}), ("abc", []), ("%s", [1, 2]),
             ("%(a(b))s", {"a(b)": "x"}), ("%(", {}), ("%(a)s", [1]), ("%(a)s", 1), ("%(_x)s", {"_x": 1}), ("%(_x)s", {}), ("%(a)s", {}),
             ("%", ()), ("%5", 1), ("%y", 1), ("%s", None), ("%d", True), ("%s", True), ("%.0f", 0.5), ("%.0f", 1.5), ("%e", 0.0), ("%G", 1e-10),
             ("%F", float("nan")), ("%+f", float("-inf")), ("%ld", 5), ("%s", {"a": 1}), ("%s", (None,)), ("%5.3s|", "abcdef"), ("%c", 0x110000), ("%o", -8),
             ("%#.3o", 8), ("%x", -255), ("%#5x", 255), ("%#05x", 255), ("%-#5x|", 255), ("%e", 12345), ("%r", M("<b>")), ("%s", M("<b>"))]:
    pct(f, a)
for f, a in [("<b>%s</b>", "<i>"), ("%s", M("<i>")), ("%r", "<"), ("%(a)s", {"a": "<&>"}), ("%d|%s", (3, "&")), ("%.2f", 1.0), ("%s", ("<", )), ("%5s", "<")]:
    pct(M(f), a)

out = []
for op, r, a, k in cases:
    if op == "%":
        t = env.from_string("{{ f(r % a[0]) }}")
    else:
        t = env.from_string("{{ f(r.%s(*a, **k)) }}" % op)
    try:
        res = {"want": t.render(r=r, a=a, k=k, f=repr)}
    except Exception as e:
        res = {"error": kind(e), "py": type(e).__name__}
    out.append(dict(op=op, recv=enc(r), args=[enc(x) for x in a], kwargs={kk: enc(v) for kk, v in k.items()}, **res))
json.dump(out, sys.stdout, ensure_ascii=False, indent=0)
