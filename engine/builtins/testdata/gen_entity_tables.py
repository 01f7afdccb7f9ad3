# One-off generator (run with /usr/bin/python3, CPython 3.11):
#   /usr/bin/python3 engine/builtins/testdata/gen_entity_tables.py <output .go file>
import sys, html.entities as he, html
src='''// Code generated from CPython 3.11's html module by a one-off script; DO NOT EDIT.

package builtins

// html5Entities is html.entities.html5: entity name (with or without the
// semicolon) to replacement text, used by Markup.unescape and striptags.
var html5Entities = map[string]string{
'''
def q(s):
    return '"'+''.join(('\\u%04X'%ord(x) if ord(x)<0x10000 else '\\U%08X'%ord(x)) if (ord(x)>126 or ord(x)<32 or x in '"\\') else x for x in s)+'"'
for k in sorted(he.html5):
    src+='\t%s: %s,\n'%(q(k),q(he.html5[k]))
src+='}\n\n// invalidCharrefs is html._invalid_charrefs.\nvar invalidCharrefs = map[int64]string{\n'
for k in sorted(html._invalid_charrefs):
    src+='\t0x%X: %s,\n'%(k,q(html._invalid_charrefs[k]))
src+='}\n\n// invalidCodepoints is html._invalid_codepoints.\nvar invalidCodepoints = map[int64]bool{\n'
ks=sorted(html._invalid_codepoints)
for i in range(0,len(ks),8):
    src+='\t'+' '.join('0x%X: true,'%k for k in ks[i:i+8])+'\n'
src+='}\n'
open(sys.argv[1],'w').write(src)
