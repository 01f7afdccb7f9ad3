# Regenerates unicode_golden.json (Python 3.11's per-code-point str behaviour):
#   /usr/bin/python3 engine/internal/builtins/testdata/gen_unicode.py > engine/internal/builtins/testdata/unicode_golden.json
import json, sys, unicodedata
assigned = [cp for cp in range(0x110000) if not (0xD800 <= cp < 0xE000) and unicodedata.category(chr(cp)) != "Cn"]
out = {"unidata": unicodedata.unidata_version, "maps": {}, "preds": {}}
for name in ["upper", "lower", "title", "casefold", "capitalize", "swapcase"]:
    m = {}
    for cp in assigned:
        r = getattr(chr(cp), name)()
        if r != chr(cp):
            m[cp] = r
    out["maps"][name] = m
for name in ["isalpha", "isalnum", "isprintable", "isspace", "islower", "isupper", "istitle", "isidentifier", "isdigit", "isnumeric", "isdecimal"]:
    out["preds"][name] = [cp for cp in assigned if getattr(chr(cp), name)()]
out["assigned"] = assigned
json.dump(out, sys.stdout, ensure_ascii=False, separators=(",", ":"))
