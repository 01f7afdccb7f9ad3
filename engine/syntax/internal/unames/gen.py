#!/usr/bin/python3
"""Generates names.dat, the \\N{...} name table of package unames.

Run (go generate ./engine/syntax/internal/unames, see generate.go):
    /usr/bin/python3 gen.py names.dat   # writes the gzip'ed table
    /usr/bin/python3 gen.py --raw       # prints the table uncompressed
    /usr/bin/python3 gen.py --named-sequences   # prints NAME\\tHEX HEX ... lines

The table is CPython 3.11's own Unicode database (unicodedata 14.0.0) on
purpose: Jinja2 decodes string literals with Python's unicode-escape
codec, whose \\N{NAME} resolves names by that database. The generator
refuses another Python or Unicode version.

Uncompressed format (ASCII text, one item a line):
    unicodedata 14.0.0
    cjk FIRST-LAST ...          the ranges named CJK UNIFIED IDEOGRAPH-XXXX
    names COUNT
    COUNT lines in code point order: one character P = chr(0x20+k) (the
    line shares its first k bytes with the previous name), the rest of the
    name, then "\\tGAP" (hex) when the code point is not the previous
    one + 1 (the first previous code point is -1)
    aliases COUNT
    COUNT lines NAME\\tHEX (the name aliases of NameAliases.txt that
    Python resolves, in order of Python's own alias table)
Names Python computes (CJK UNIFIED IDEOGRAPH-XXXX, HANGUL SYLLABLE ...)
are not listed: package unames computes them as Python does. Named
sequences are not listed: the unicode-escape codec rejects them.
"""
import ctypes
import gzip
import io
import sys
import unicodedata

if sys.version_info[:2] != (3, 11) or unicodedata.unidata_version != "14.0.0":
    sys.exit("gen.py: needs CPython 3.11 with unicodedata 14.0.0, not %s / %s"
             % (sys.version.split()[0], unicodedata.unidata_version))

CJK = "CJK UNIFIED IDEOGRAPH-"
HANGUL = "HANGUL SYLLABLE "


def _getname():
    """The getname function of the unicodedata._ucnhash_CAPI capsule:
    with with_alias_and_seq set it names Python's private code points
    U+F0000.. (aliases) and U+F0200.. (named sequences), the only way to
    list exactly the aliases and named sequences this Python knows."""
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    p = get(unicodedata._ucnhash_CAPI, b"unicodedata._ucnhash_CAPI")
    fn = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_uint32, ctypes.c_char_p, ctypes.c_int, ctypes.c_int)
    getname = fn(ctypes.cast(p, ctypes.POINTER(ctypes.c_void_p))[0])
    buf = ctypes.create_string_buffer(256)

    def name(cp):
        return buf.value.decode("ascii") if getname(cp, buf, 256, 1) else None
    return name


def private_names():
    """(aliases, named sequences): lists of (name, value string)."""
    name = _getname()
    aliases, seqs = [], []
    for cp in range(0xF0000, 0xF0400):
        n = name(cp)
        if n is None:
            continue
        v = unicodedata.lookup(n)
        (aliases if cp < 0xF0200 else seqs).append((n, v))
    return aliases, seqs


def cjk_ranges():
    out = []
    for cp in range(0x110000):
        n = unicodedata.name(chr(cp), "")
        if n == CJK + "%04X" % cp:
            if out and out[-1][1] == cp - 1:
                out[-1][1] = cp
            else:
                out.append([cp, cp])
    return out


def table():
    names = []
    for cp in range(0x110000):
        n = unicodedata.name(chr(cp), None)
        if n is None or n.startswith(CJK) or n.startswith(HANGUL):
            continue
        names.append((n, cp))
    aliases, _ = private_names()
    known = {n for n, _ in names}
    for n, v in aliases:
        assert len(v) == 1 and n not in known, n
    # every listed name must decode as listed through the codec Jinja2 uses
    for n, cp in names + [(n, ord(v)) for n, v in aliases]:
        assert ("\\N{%s}" % n).encode().decode("unicode-escape") == chr(cp), n
        assert not n.startswith(CJK) and not n.startswith(HANGUL), n
    out = ["unicodedata %s\n" % unicodedata.unidata_version,
           "cjk " + " ".join("%04X-%04X" % (a, b) for a, b in cjk_ranges()) + "\n",
           "names %d\n" % len(names)]
    prev, pn = -1, ""
    for n, cp in names:
        k = 0
        while k < len(n) and k < len(pn) and n[k] == pn[k] and k < 94:
            k += 1
        line = chr(0x20 + k) + n[k:]
        if cp != prev + 1:
            line += "\t%X" % (cp - prev - 1)
        out.append(line + "\n")
        prev, pn = cp, n
    out.append("aliases %d\n" % len(aliases))
    for n, v in aliases:
        out.append("%s\t%X\n" % (n, ord(v)))
    return "".join(out).encode("ascii")


def main():
    if sys.argv[1:] == ["--raw"]:
        sys.stdout.buffer.write(table())
    elif sys.argv[1:] == ["--named-sequences"]:
        for n, v in private_names()[1]:
            print(n + "\t" + " ".join("%X" % ord(c) for c in v))
    elif len(sys.argv) == 2:
        buf = io.BytesIO()
        with gzip.GzipFile(fileobj=buf, mode="wb", compresslevel=9, mtime=0, filename="") as f:
            f.write(table())
        with open(sys.argv[1], "wb") as f:
            f.write(buf.getvalue())
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
