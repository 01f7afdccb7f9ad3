#!/usr/bin/python3
"""Regenerates unescape.json from Python's html.unescape (the oracle of
Markup.unescape and striptags' entity decoding, HTMLUnescape).

Run: /usr/bin/python3 gen_unescape.py  (from this directory)
Each entry is [input, html.unescape(input)]: every named entity with and
without what follows it, the legacy names (no ';') before long tails,
numeric references at the edges of every special range, and random
strings of entity fragments.
"""
import html
import html.entities
import json
import random

random.seed(20261206)
names = list(html.entities.html5.keys())
legacy = [n for n in names if not n.endswith(';')]
alpha = ['&', '#', 'x', 'X', ';', ' ', '\t', '\n', 'a', 'z', '0', '9', 'f', 'F', '<', 'é', '😀', '\f',
         'amp', 'lt', 'gt', 'notin', 'not', 'AElig', 'ccedil', '1', '00000', '110000', 'd800', '80',
         '9f', 'fdd0', 'fffe', '10ffff']
cases = set()
for n in names[:400] + random.sample(names, 300):
    cases.add('&' + n)
    cases.add('&' + n + 'x')
    cases.add('&' + n + ';x')
    cases.add('a&' + n[:-1] if n.endswith(';') else '&' + n + 'zz;')
for l in legacy:
    cases.add('&' + l + 'zzzz;')
    cases.add('&' + l + 'z' * 28)
    cases.add('&' + l + 'z' * 30 + ';')
for i in range(2500):
    k = random.randint(1, 8)
    cases.add(''.join(random.choice(alpha) for _ in range(k)))
for num in [0, 1, 8, 9, 0xb, 0xd, 0x1f, 0x7f, 0x80, 0x81, 0x9f, 0xa0, 0xd7ff, 0xd800, 0xdfff, 0xe000,
            0xfdd0, 0xfdef, 0xfffe, 0xffff, 0x1fffe, 0x10ffff, 0x110000, 10**20]:
    cases.add('&#%d;' % num)
    cases.add('&#x%x;' % num)
    cases.add('&#X%X' % num)
    cases.add('&#000%d' % num)
cases.update(['&' + 'z' * 40, '&' + 'a' * 33 + ';', '&#', '&#x', '&#;', '&;', '&'])
out = [[c, html.unescape(c)] for c in sorted(cases)]
json.dump(out, open('unescape.json', 'w'), ensure_ascii=False, indent=0)
