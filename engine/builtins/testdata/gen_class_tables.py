# One-off generator (run with /usr/bin/python3, CPython 3.11):
#   /usr/bin/python3 engine/builtins/testdata/gen_class_tables.py <output .go file>
import sys
def ranges(pred):
    rs=[]; start=None; prev=None
    for cp in range(0x110000):
        if 0xd800<=cp<0xe000: ok=False
        else: ok=pred(chr(cp))
        if ok:
            if start is None: start=cp
            prev=cp
        elif start is not None:
            rs.append((start,prev)); start=None
    if start is not None: rs.append((start,prev))
    return rs
def tab(name, pred):
    rs=ranges(pred)
    s="var %s = []runeRange{\n" % name
    for i in range(0,len(rs),4):
        s+="\t"+" ".join("{0x%X, 0x%X},"%r for r in rs[i:i+4])+"\n"
    return s+"}\n\n"
src="""// Code generated from CPython 3.11's Unicode database by a one-off script; DO NOT EDIT.

package builtins

// Character classes of Python's str predicates that Go's unicode package
// does not give directly (Numeric_Type, Python's whitespace set).

"""
src+=tab("pyDigitRanges", lambda c: c.isdigit())
src+=tab("pyNumericRanges", lambda c: c.isnumeric())
src+=tab("pySpaceRanges", lambda c: c.isspace())
src+=tab("pyDecimalRanges", lambda c: c.isdecimal())
open(sys.argv[1],'w').write(src)
