# One-off generator (run with /usr/bin/python3, CPython 3.11):
#   /usr/bin/python3 engine/builtins/testdata/gen_case_tables.py <output .go file>
import sys
def tab(name, f):
    out=[]
    for cp in range(0x110000):
        if 0xd800<=cp<0xe000: continue
        c=chr(cp)
        r=f(c)
        if r is not None:
            out.append((cp,r))
    s="var %s = map[rune]string{\n" % name
    for cp,r in out:
        s+="\t0x%04X: %s,\n" % (cp, '"'+''.join('\\u%04X'%ord(x) if ord(x)<0x10000 else '\\U%08X'%ord(x) for x in r)+'"')
    return s+"}\n\n"
src="""// Code generated from CPython 3.11's Unicode database by a one-off script; DO NOT EDIT.

package builtins

// Full (multi-code-point) case mappings of Python's str methods, where the
// result is not a single code point; single code points use Go's unicode
// tables.

"""
src+=tab("fullUpper", lambda c: c.upper() if len(c.upper())!=1 else None)
src+=tab("fullLower", lambda c: c.lower() if len(c.lower())!=1 else None)
src+=tab("fullTitle", lambda c: c.title() if len(c.title())!=1 else None)
src+=tab("fullFold", lambda c: c.casefold() if c.casefold()!=c.lower() else None)
open(sys.argv[1],'w').write(src)
