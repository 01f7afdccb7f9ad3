# Regenerates tests_golden.json from real Jinja2 (ImmutableSandboxedEnvironment):
#   /usr/bin/python3 engine/internal/builtins/testdata/gen_tests.py > engine/internal/builtins/testdata/tests_golden.json
import json, sys
sys.path.insert(0, __file__.rsplit("/", 1)[0])
from golden_util import enc, kind, env, M

vals = [0, 1, 2, -3, 7, True, False, None, 2.0, 3.5, "abc", "ABC", "Abc", "", M("<b>"), [1, 2], (1,), {"a": 1}, "upper", "odd"]
noarg = ["odd", "even", "defined", "none", "boolean", "false", "true", "integer", "float", "lower", "upper", "string", "mapping",
         "number", "sequence", "iterable", "callable", "escaped", "filter", "test"]
cmp = ["eq", "==", "equalto", "ne", "!=", "gt", ">", "greaterthan", "ge", ">=", "lt", "<", "lessthan", "le", "<="]
cases = []
for v in vals:
    for t in noarg:
        cases.append((v, t, []))
    for o in [1, 2.0, "abc", None]:
        for t in cmp:
            cases.append((v, t, [o]))
    cases.append((v, "divisibleby", [3]))
    cases.append((v, "divisibleby", [0]))
    cases.append((v, "sameas", [v], True))
    cases.append((v, "in", [[1, "abc", None]]))
    cases.append((v, "in", ["xabcx"]))
    cases.append((v, "in", [{"a": 1, 1: 2}]))
cases += [(1, "sameas", [1.0]), (1, "sameas", [True]), ([1], "sameas", [[1]]), (2, "even", [42]), (2, "divisibleby", []), ("a", "filter", [])]
out = []
for case in cases:
    v, t, a = case[:3]
    # select() calls the registered test like the is-operator does
    tpl = env.from_string("{{ ([v]|select(t, *a)|list|length) == 1 }}")
    try:
        res = {"want": tpl.render(v=v, a=a, t=t)}
    except Exception as e:
        res = {"error": kind(e), "py": type(e).__name__}
    out.append(dict(v=enc(v), test=t, args=[enc(x) for x in a], same=len(case) > 3, **res))
json.dump(out, sys.stdout, ensure_ascii=False, indent=0)
