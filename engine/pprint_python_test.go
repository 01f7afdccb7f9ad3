package engine

import (
	"encoding/json"
	"testing"
)

// pprintLongStrings are long strings, alone and nested, with the
// pformat of Python 3.11 (pprint's _pprint_str: lines and word parts
// become adjacent literals): U+0085 and U+2028 end lines as \r\n does, a
// key's repr widens the indent past the width.
const pprintLongStrings = `[
{
"v": "a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 a\u0085\ud83d\ude00 ",
"out": "('a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 a\\x85'\n '\ud83d\ude00 ')"
},
{
"v": "line one\r\nline two\u2028line one\r\nline two\u2028line one\r\nline two\u2028line one\r\nline two\u2028line one\r\nline two\u2028line one\r\nline two\u2028line one\r\nline two\u2028line one\r\nline two\u2028",
"out": "('line one\\r\\n'\n 'line two\\u2028'\n 'line one\\r\\n'\n 'line two\\u2028'\n 'line one\\r\\n'\n 'line two\\u2028'\n 'line one\\r\\n'\n 'line two\\u2028'\n 'line one\\r\\n'\n 'line two\\u2028'\n 'line one\\r\\n'\n 'line two\\u2028'\n 'line one\\r\\n'\n 'line two\\u2028'\n 'line one\\r\\n'\n 'line two\\u2028')"
},
{
"v": "it's \"quoted\" it's \"quoted\" it's \"quoted\" it's \"quoted\" it's \"quoted\" it's \"quoted\" it's \"quoted\" it's \"quoted\" it's \"quoted\" it's \"quoted\" it's \"quoted\" it's \"quoted\" ",
"out": "('it\\'s \"quoted\" it\\'s \"quoted\" it\\'s \"quoted\" it\\'s \"quoted\" it\\'s \"quoted\" '\n 'it\\'s \"quoted\" it\\'s \"quoted\" it\\'s \"quoted\" it\\'s \"quoted\" it\\'s \"quoted\" '\n 'it\\'s \"quoted\" it\\'s \"quoted\" ')"
},
{
"v": " \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t \t",
"out": "' \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t \\t'"
},
{
"v": "lorem ipsum dolor lorem ipsum dolor lorem ipsum dolor lorem ipsum dolor lorem ipsum dolor lorem ipsum dolor lorem ipsum dolor lorem ipsum dolor lorem ipsum dolor lorem ipsum dolor ",
"out": "('lorem ipsum dolor lorem ipsum dolor lorem ipsum dolor lorem ipsum dolor '\n 'lorem ipsum dolor lorem ipsum dolor lorem ipsum dolor lorem ipsum dolor '\n 'lorem ipsum dolor lorem ipsum dolor ')"
},
{
"v": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
"out": "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'"
},
{
"v": {
"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk": "word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word "
},
"out": "{'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk': 'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '\n                                                                                               'word '}"
},
{
"v": [
"\u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 \u00e9\ud83d\ude00\u0000 ",
{
"a": [
"\u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 \u0378 "
]
}
],
"out": "['\u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 '\n '\u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 '\n '\u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 \u00e9\ud83d\ude00\\x00 ',\n {'a': ['\\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 '\n        '\\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 '\n        '\\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 '\n        '\\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 \\u0378 '\n        '\\u0378 ']}]"
},
{
"v": "\u3000\u0378\u0378 yy \u0085\r\r\n yy xxxxxxxxxxxxxxxxxxxxxxxxxxxx\r\n\t\u0378\\\n \u3000word\ud83d\ude00\u0378\r\na yy  wordword\r'a\u0378\u00e9\u0378\u0085\r yy '\\xxxxxxxxxxxxxxxxxxxxxxxxxxxxa \u0378\"\u0000\u3000 \"\u00e9' yy \\a \u0085\t\ud83d\ude00\t\\\ud83d\ude00 aa\r\rwordxxxxxxxxxxxxxxxxxxxxxxxxxxxx\ud83d\ude00\ud83d\ude00\u0000 \u0085\r\"\u00e9 \\\u00e9a\u0000\t\n'\taword\u0378xxxxxxxxxxxxxxxxxxxxxxxxxxxx\r\n\u3000\r",
"out": "('\\u3000\\u0378\\u0378 yy \\x85'\n '\\r'\n '\\r\\n'\n ' yy xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\r\\n'\n '\\t\\u0378\\\\\\n'\n ' \\u3000word\ud83d\ude00\\u0378\\r\\n'\n 'a yy  wordword\\r'\n \"'a\\u0378\u00e9\\u0378\\x85\"\n '\\r'\n ' yy \\'\\\\xxxxxxxxxxxxxxxxxxxxxxxxxxxxa \\u0378\"\\x00\\u3000 \"\u00e9\\' yy \\\\a \\x85'\n '\\t\ud83d\ude00\\t\\\\\ud83d\ude00 aa\\r'\n '\\r'\n 'wordxxxxxxxxxxxxxxxxxxxxxxxxxxxx\ud83d\ude00\ud83d\ude00\\x00 \\x85'\n '\\r'\n '\"\u00e9 \\\\\u00e9a\\x00\\t\\n'\n \"'\\taword\\u0378xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\r\\n\"\n '\\u3000\\r')"
},
{
"v": " yy \r\n\u0000\ud83d\ude00\t\ud83d\ude00\u0000\ra\"\u0085\\a\r\r\n\ud83d\ude00\u0085\tword\n\r\u0378\"a\u00e9\\\ud83d\ude00   \r\u0085'a\u2028\u2028\u0378\n\u0085xxxxxxxxxxxxxxxxxxxxxxxxxxxx\u0085\n\ud83d\ude00\r\n\n\\''\r\r\n\u3000\r\ud83d\ude00xxxxxxxxxxxxxxxxxxxxxxxxxxxx \u0000word\t\tword yy \"'\ud83d\ude00\"\u0000xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\ yy \r\n \n'xxxxxxxxxxxxxxxxxxxxxxxxxxxx\u3000 \"\r\ra \"\u0000\u0378'wordword",
"out": "(' yy \\r\\n'\n '\\x00\ud83d\ude00\\t\ud83d\ude00\\x00\\r'\n 'a\"\\x85'\n '\\\\a\\r'\n '\\r\\n'\n '\ud83d\ude00\\x85'\n '\\tword\\n'\n '\\r'\n '\\u0378\"a\u00e9\\\\\ud83d\ude00   \\r'\n '\\x85'\n \"'a\\u2028\"\n '\\u2028'\n '\\u0378\\n'\n '\\x85'\n 'xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\x85'\n '\\n'\n '\ud83d\ude00\\r\\n'\n '\\n'\n \"\\\\''\\r\"\n '\\r\\n'\n '\\u3000\\r'\n '\ud83d\ude00xxxxxxxxxxxxxxxxxxxxxxxxxxxx \\x00word\\t\\tword yy '\n '\"\\'\ud83d\ude00\"\\x00xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\\\ yy \\r\\n'\n ' \\n'\n '\\'xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\u3000 \"\\r'\n '\\r'\n 'a \"\\x00\\u0378\\'wordword')"
},
{
"v": "\\\u2028 yy \u0085\n \u2028\n\u0378\u00e9 yy \u0085\n\u0085wordaxxxxxxxxxxxxxxxxxxxxxxxxxxxx\u2028\\worda xxxxxxxxxxxxxxxxxxxxxxxxxxxx \\\u00e9\n  \u0378\u3000\u2028word\n\u00e9\u2028 xxxxxxxxxxxxxxxxxxxxxxxxxxxx \u0000axxxxxxxxxxxxxxxxxxxxxxxxxxxx\u0085a\ud83d\ude00\ud83d\ude00\u0085a   \t\"\u0000\u00e9\ud83d\ude00\u0085\u0378\u0378\u0378\u3000  yy  yy a\\ xxxxxxxxxxxxxxxxxxxxxxxxxxxxa'\t",
"out": "('\\\\\\u2028'\n ' yy \\x85'\n '\\n'\n ' \\u2028'\n '\\n'\n '\\u0378\u00e9 yy \\x85'\n '\\n'\n '\\x85'\n 'wordaxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\u2028'\n '\\\\worda xxxxxxxxxxxxxxxxxxxxxxxxxxxx \\\\\u00e9\\n'\n '  \\u0378\\u3000\\u2028'\n 'word\\n'\n '\u00e9\\u2028'\n ' xxxxxxxxxxxxxxxxxxxxxxxxxxxx \\x00axxxxxxxxxxxxxxxxxxxxxxxxxxxx\\x85'\n 'a\ud83d\ude00\ud83d\ude00\\x85'\n 'a   \\t\"\\x00\u00e9\ud83d\ude00\\x85'\n \"\\u0378\\u0378\\u0378\\u3000  yy  yy a\\\\ xxxxxxxxxxxxxxxxxxxxxxxxxxxxa'\\t\")"
},
{
"v": "xxxxxxxxxxxxxxxxxxxxxxxxxxxx\"a\u2028\\\n\r yy \r\n\u00e9\u0378xxxxxxxxxxxxxxxxxxxxxxxxxxxx'\u00e9\ud83d\ude00\"\r\u0000\r\r\ud83d\ude00'\u0085\u00e9\r\n\nxxxxxxxxxxxxxxxxxxxxxxxxxxxx\u2028word \"\r\n\t\u0378xxxxxxxxxxxxxxxxxxxxxxxxxxxx\"\r\u0000\ud83d\ude00 yy xxxxxxxxxxxxxxxxxxxxxxxxxxxx\u00e9\u0378\u00e9 word\"word\"\u0085\u2028\\\u0085a\n\ud83d\ude00\u0378\ra\"'\nword\t\u0378\t\u3000\u2028 \r\rxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"\r\naxxxxxxxxxxxxxxxxxxxxxxxxxxxx\u3000word\r\n'\"\u2028\u3000 yy  yy \r\n\ud83d\ude00' \u0000",
"out": "('xxxxxxxxxxxxxxxxxxxxxxxxxxxx\"a\\u2028'\n '\\\\\\n'\n '\\r'\n ' yy \\r\\n'\n '\u00e9\\u0378xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\'\u00e9\ud83d\ude00\"\\r'\n '\\x00\\r'\n '\\r'\n \"\ud83d\ude00'\\x85\"\n '\u00e9\\r\\n'\n '\\n'\n 'xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\u2028'\n 'word \"\\r\\n'\n '\\t\\u0378xxxxxxxxxxxxxxxxxxxxxxxxxxxx\"\\r'\n '\\x00\ud83d\ude00 yy xxxxxxxxxxxxxxxxxxxxxxxxxxxx\u00e9\\u0378\u00e9 word\"word\"\\x85'\n '\\u2028'\n '\\\\\\x85'\n 'a\\n'\n '\ud83d\ude00\\u0378\\r'\n 'a\"\\'\\n'\n 'word\\t\\u0378\\t\\u3000\\u2028'\n ' \\r'\n '\\r'\n 'xxxxxxxxxxxxxxxxxxxxxxxxxxxx\"\\r\\n'\n 'axxxxxxxxxxxxxxxxxxxxxxxxxxxx\\u3000word\\r\\n'\n '\\'\"\\u2028'\n '\\u3000 yy  yy \\r\\n'\n \"\ud83d\ude00' \\x00\")"
},
{
"v": "\ud83d\ude00\n\u0378\u0378\ra\ud83d\ude00\u3000\u0085 yy \u00e9\u0378\u00e9\r\t\t\r'\ud83d\ude00 \\\u3000\u00e9\"a\u2028 yy  word\u0378\u00e9\u3000\u0000\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxa\r \u0000word\r\n\u3000\u00e9\nxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n yy  yy \u0378xxxxxxxxxxxxxxxxxxxxxxxxxxxx\u0085 '\u0378 yy \u3000\\\u3000\r\n yy  yy \u3000\"\\\ud83d\ude00\r\\\n\u3000 yy \"\u0085xxxxxxxxxxxxxxxxxxxxxxxxxxxx\r\u0000\u3000\t yy a\ud83d\ude00a\u3000word yy \ud83d\ude00\u3000\u0085\txxxxxxxxxxxxxxxxxxxxxxxxxxxx \r\n \u3000\u0378\u0000\ud83d\ude00\"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n\u00e9\u0000xxxxxxxxxxxxxxxxxxxxxxxxxxxx yy \u00e9\t\r\u0000a\"\naword\r\n'a\\",
"out": "('\ud83d\ude00\\n'\n '\\u0378\\u0378\\r'\n 'a\ud83d\ude00\\u3000\\x85'\n ' yy \u00e9\\u0378\u00e9\\r'\n '\\t\\t\\r'\n '\\'\ud83d\ude00 \\\\\\u3000\u00e9\"a\\u2028'\n ' yy  word\\u0378\u00e9\\u3000\\x00\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxa\\r'\n ' \\x00word\\r\\n'\n '\\u3000\u00e9\\n'\n 'xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\n'\n ' yy  yy \\u0378xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\x85'\n \" '\\u0378 yy \\u3000\\\\\\u3000\\r\\n\"\n ' yy  yy \\u3000\"\\\\\ud83d\ude00\\r'\n '\\\\\\n'\n '\\u3000 yy \"\\x85'\n 'xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\r'\n '\\x00\\u3000\\t yy a\ud83d\ude00a\\u3000word yy \ud83d\ude00\\u3000\\x85'\n '\\txxxxxxxxxxxxxxxxxxxxxxxxxxxx \\r\\n'\n ' \\u3000'\n '\\u0378\\x00\ud83d\ude00\"\\'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\n'\n '\u00e9\\x00xxxxxxxxxxxxxxxxxxxxxxxxxxxx yy \u00e9\\t\\r'\n '\\x00a\"\\n'\n 'aword\\r\\n'\n \"'a\\\\\")"
},
{
"v": "\u2028'xxxxxxxxxxxxxxxxxxxxxxxxxxxx\txxxxxxxxxxxxxxxxxxxxxxxxxxxx\u0085\t yy \"\r yy \u0000a\ud83d\ude00\u0000 yy \r\n\u3000\r\u3000\r yy \r\u3000\u0085\n'\u2028\r\n\u00e9\u00e9\r\r\r\t\n'\n \"\ud83d\ude00\t\u0000\u0000\u3000\n\r\ud83d\ude00a\t\r\u0085\u2028\u2028\t yy \u00e9 yy \r xxxxxxxxxxxxxxxxxxxxxxxxxxxx\taword\u3000 yy \u0085xxxxxxxxxxxxxxxxxxxxxxxxxxxx\n\r\r\n\t\r\r\n\r\n\\\t\u0085word\n",
"out": "('\\u2028'\n \"'xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\txxxxxxxxxxxxxxxxxxxxxxxxxxxx\\x85\"\n '\\t yy \"\\r'\n ' yy \\x00a\ud83d\ude00\\x00 yy \\r\\n'\n '\\u3000\\r'\n '\\u3000\\r'\n ' yy \\r'\n '\\u3000\\x85'\n '\\n'\n \"'\\u2028\"\n '\\r\\n'\n '\u00e9\u00e9\\r'\n '\\r'\n '\\r'\n '\\t\\n'\n \"'\\n\"\n ' \"\ud83d\ude00\\t\\x00\\x00\\u3000\\n'\n '\\r'\n '\ud83d\ude00a\\t\\r'\n '\\x85'\n '\\u2028'\n '\\u2028'\n '\\t yy \u00e9 yy \\r'\n ' xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\taword\\u3000 yy \\x85'\n 'xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\n'\n '\\r'\n '\\r\\n'\n '\\t\\r'\n '\\r\\n'\n '\\r\\n'\n '\\\\\\t\\x85'\n 'word\\n')"
},
{
"v": "\u0378 \t\u00e9\ud83d\ude00\u0378\u0000 yy \u2028\u0000\r\u2028aword\r\r\n\u0000\u0378\u2028\u2028\ud83d\ude00\r\r\n\t yy a\u00e9 \ud83d\ude00\u0085\r yy \u0085\u00e9\"\"\t\r\n\ud83d\ude00\n\u00e9\u3000\u2028\u0000\r\n\ud83d\ude00\r\r\n \u00e9\\xxxxxxxxxxxxxxxxxxxxxxxxxxxx\ta\u2028word'\"\\\u00e9\r\ud83d\ude00\u0085\r\n\u3000 \ud83d\ude00 yy xxxxxxxxxxxxxxxxxxxxxxxxxxxx\r\t\ud83d\ude00\u0085a\t\t'\"\u0378\ud83d\ude00 yy word\r\ud83d\ude00a\t\"\"\"\u00e9\u3000\u3000 yy \u0000 yy \u0085\t\u0378 \u3000word\ud83d\ude00\r\n\ud83d\ude00xxxxxxxxxxxxxxxxxxxxxxxxxxxx\r\nxxxxxxxxxxxxxxxxxxxxxxxxxxxx\u3000word\u0000xxxxxxxxxxxxxxxxxxxxxxxxxxxx\u0000\\ yy \ud83d\ude00\\\u2028 yy \\xxxxxxxxxxxxxxxxxxxxxxxxxxxx",
"out": "('\\u0378 \\t\u00e9\ud83d\ude00\\u0378\\x00 yy \\u2028'\n '\\x00\\r'\n '\\u2028'\n 'aword\\r'\n '\\r\\n'\n '\\x00\\u0378\\u2028'\n '\\u2028'\n '\ud83d\ude00\\r'\n '\\r\\n'\n '\\t yy a\u00e9 \ud83d\ude00\\x85'\n '\\r'\n ' yy \\x85'\n '\u00e9\"\"\\t\\r\\n'\n '\ud83d\ude00\\n'\n '\u00e9\\u3000\\u2028'\n '\\x00\\r\\n'\n '\ud83d\ude00\\r'\n '\\r\\n'\n ' \u00e9\\\\xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\ta\\u2028'\n 'word\\'\"\\\\\u00e9\\r'\n '\ud83d\ude00\\x85'\n '\\r\\n'\n '\\u3000 \ud83d\ude00 yy xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\r'\n '\\t\ud83d\ude00\\x85'\n 'a\\t\\t\\'\"\\u0378\ud83d\ude00 yy word\\r'\n '\ud83d\ude00a\\t\"\"\"\u00e9\\u3000\\u3000 yy \\x00 yy \\x85'\n '\\t\\u0378 \\u3000word\ud83d\ude00\\r\\n'\n '\ud83d\ude00xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\r\\n'\n 'xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\u3000word\\x00xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\x00\\\\ '\n 'yy \ud83d\ude00\\\\\\u2028'\n ' yy \\\\xxxxxxxxxxxxxxxxxxxxxxxxxxxx')"
},
{
"v": "\"\u3000\\\\aa'\u0085word\r\n\u0000\ud83d\ude00word\u00e9\ud83d\ude00word\u0085\u00e9 '\u0000xxxxxxxxxxxxxxxxxxxxxxxxxxxx\"'word yy \t\u0378\n'\tword\u0000\u0378\t\rword\u2028 yy \n\t\u2028\u0378\n\u0000\u0378\"\u0085\u0000\u2028 yy \n\\\n'xxxxxxxxxxxxxxxxxxxxxxxxxxxx\t yy \\ yy \u2028\"\"\u0085\u0085\r\"'\r' yy \rwordworda\"\"\u0000aword\t'\u3000\"  \r\n\u3000'\u2028xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\u2028\r\u00e9\u00e9xxxxxxxxxxxxxxxxxxxxxxxxxxxx\n \t\u0378",
"out": "('\"\\u3000\\\\\\\\aa\\'\\x85'\n 'word\\r\\n'\n '\\x00\ud83d\ude00word\u00e9\ud83d\ude00word\\x85'\n '\u00e9 \\'\\x00xxxxxxxxxxxxxxxxxxxxxxxxxxxx\"\\'word yy \\t\\u0378\\n'\n \"'\\tword\\x00\\u0378\\t\\r\"\n 'word\\u2028'\n ' yy \\n'\n '\\t\\u2028'\n '\\u0378\\n'\n '\\x00\\u0378\"\\x85'\n '\\x00\\u2028'\n ' yy \\n'\n '\\\\\\n'\n \"'xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\t yy \\\\ yy \\u2028\"\n '\"\"\\x85'\n '\\x85'\n '\\r'\n '\"\\'\\r'\n \"' yy \\r\"\n 'wordworda\"\"\\x00aword\\t\\'\\u3000\"  \\r\\n'\n \"\\u3000'\\u2028\"\n 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\u2028'\n '\\r'\n '\u00e9\u00e9xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\n'\n ' \\t\\u0378')"
},
{
"v": "\r\u0378\u0000\"\ud83d\ude00\n\u2028\n\u00e9\\\u3000\r\n\u0000\u2028\u0085\t\u0378\u00e9 \u3000 \u0000\u0085\u0085xxxxxxxxxxxxxxxxxxxxxxxxxxxx\u0378\\a \\\r \\xxxxxxxxxxxxxxxxxxxxxxxxxxxx\u00e9\\\n'\u2028\u00e9\u2028\t\u00e9\u0378\u0085\"\u0378 yy \\\u0378\u00e9'\ud83d\ude00 yy ' \u2028\u2028a\u2028\ud83d\ude00\u0085\ud83d\ude00\r\u0085\u2028\ud83d\ude00\u3000\n\u0085\u0085\r\n\r\n \u0378\\a' yy word\u3000\r\n\u0085\\a\u0000 \u0085\u3000\\\u3000 \u00e9 \"\t\u00e9 a\n\t\u0000''xxxxxxxxxxxxxxxxxxxxxxxxxxxx yy \u00e9\u0378\ud83d\ude00\u2028\u00e9",
"out": "('\\r'\n '\\u0378\\x00\"\ud83d\ude00\\n'\n '\\u2028'\n '\\n'\n '\u00e9\\\\\\u3000\\r\\n'\n '\\x00\\u2028'\n '\\x85'\n '\\t\\u0378\u00e9 \\u3000 \\x00\\x85'\n '\\x85'\n 'xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\u0378\\\\a \\\\\\r'\n ' \\\\xxxxxxxxxxxxxxxxxxxxxxxxxxxx\u00e9\\\\\\n'\n \"'\\u2028\"\n '\u00e9\\u2028'\n '\\t\u00e9\\u0378\\x85'\n '\"\\u0378 yy \\\\\\u0378\u00e9\\'\ud83d\ude00 yy \\' \\u2028'\n '\\u2028'\n 'a\\u2028'\n '\ud83d\ude00\\x85'\n '\ud83d\ude00\\r'\n '\\x85'\n '\\u2028'\n '\ud83d\ude00\\u3000\\n'\n '\\x85'\n '\\x85'\n '\\r\\n'\n '\\r\\n'\n \" \\u0378\\\\a' yy word\\u3000\\r\\n\"\n '\\x85'\n '\\\\a\\x00 \\x85'\n '\\u3000\\\\\\u3000 \u00e9 \"\\t\u00e9 a\\n'\n \"\\t\\x00''xxxxxxxxxxxxxxxxxxxxxxxxxxxx yy \u00e9\\u0378\ud83d\ude00\\u2028\"\n '\u00e9')"
},
{
"v": "\u00e9\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\u3000 word\u0000\u2028a\ud83d\ude00 \u0378\u3000a yy \u2028a\t\u0000\u0000\n'\r\n\ud83d\ude00\r\n\u00e9\r\ud83d\ude00\u0000 yy \\\"wordxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\\t\\\n\r\nword\u0378a\u0085xxxxxxxxxxxxxxxxxxxxxxxxxxxxword\u00e9\t\r\r\n\u2028\r\u0085'xxxxxxxxxxxxxxxxxxxxxxxxxxxx yy '\u0378\r\n\"\ud83d\ude00\r\n\\\u3000\u3000xxxxxxxxxxxxxxxxxxxxxxxxxxxx\"xxxxxxxxxxxxxxxxxxxxxxxxxxxx\ud83d\ude00\u00e9\u3000 xxxxxxxxxxxxxxxxxxxxxxxxxxxx'\ud83d\ude00word\r\n\ud83d\ude00 yy  yy \"word'axxxxxxxxxxxxxxxxxxxxxxxxxxxx\u2028\u0378'\u0000\r\n\u0000\r\n\u00e9\n\" yy \n\" yy \u3000word\n\u0085\r\na\r\n\n \u2028",
"out": "('\u00e9\\n'\n 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\u3000 word\\x00\\u2028'\n 'a\ud83d\ude00 \\u0378\\u3000a yy \\u2028'\n 'a\\t\\x00\\x00\\n'\n \"'\\r\\n\"\n '\ud83d\ude00\\r\\n'\n '\u00e9\\r'\n '\ud83d\ude00\\x00 yy \\\\\"wordxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\\\\\t\\\\\\n'\n '\\r\\n'\n 'word\\u0378a\\x85'\n 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxword\u00e9\\t\\r'\n '\\r\\n'\n '\\u2028'\n '\\r'\n '\\x85'\n \"'xxxxxxxxxxxxxxxxxxxxxxxxxxxx yy '\\u0378\\r\\n\"\n '\"\ud83d\ude00\\r\\n'\n '\\\\\\u3000\\u3000'\n 'xxxxxxxxxxxxxxxxxxxxxxxxxxxx\"xxxxxxxxxxxxxxxxxxxxxxxxxxxx\ud83d\ude00\u00e9\\u3000 '\n \"xxxxxxxxxxxxxxxxxxxxxxxxxxxx'\ud83d\ude00word\\r\\n\"\n '\ud83d\ude00 yy  yy \"word\\'axxxxxxxxxxxxxxxxxxxxxxxxxxxx\\u2028'\n \"\\u0378'\\x00\\r\\n\"\n '\\x00\\r\\n'\n '\u00e9\\n'\n '\" yy \\n'\n '\" yy \\u3000word\\n'\n '\\x85'\n '\\r\\n'\n 'a\\r\\n'\n '\\n'\n ' \\u2028')"
},
{
"v": " yy \txxxxxxxxxxxxxxxxxxxxxxxxxxxx\u0378 \u0085\u3000 yy \\a\r\u0000\r \u0378\rword\u3000\u0000 yy xxxxxxxxxxxxxxxxxxxxxxxxxxxx\r\n\\\u00e9\\\ud83d\ude00 \u3000\\\u0378 \u2028 \n\t\ud83d\ude00\u0378\t\u0378a\ud83d\ude00xxxxxxxxxxxxxxxxxxxxxxxxxxxx'\\\u0085\t\u0378a\r\n\\\ud83d\ude00\u3000\\\u00e9\ud83d\ude00\u3000 \"\r\r\ud83d\ude00\t\u00e9\\\"\u0085xxxxxxxxxxxxxxxxxxxxxxxxxxxx\u00e9\u0378\ud83d\ude00 \t\n\t\n\r\n",
"out": "(' yy \\txxxxxxxxxxxxxxxxxxxxxxxxxxxx\\u0378 \\x85'\n '\\u3000 yy \\\\a\\r'\n '\\x00\\r'\n ' \\u0378\\r'\n 'word\\u3000\\x00 yy xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\r\\n'\n '\\\\\u00e9\\\\\ud83d\ude00 \\u3000\\\\\\u0378 \\u2028'\n ' \\n'\n \"\\t\ud83d\ude00\\u0378\\t\\u0378a\ud83d\ude00xxxxxxxxxxxxxxxxxxxxxxxxxxxx'\\\\\\x85\"\n '\\t\\u0378a\\r\\n'\n '\\\\\ud83d\ude00\\u3000\\\\\u00e9\ud83d\ude00\\u3000 \"\\r'\n '\\r'\n '\ud83d\ude00\\t\u00e9\\\\\"\\x85'\n 'xxxxxxxxxxxxxxxxxxxxxxxxxxxx\u00e9\\u0378\ud83d\ude00 \\t\\n'\n '\\t\\n'\n '\\r\\n')"
},
{
"v": "\r\ud83d\ude00word\u0378\u0085 \t'word\r\n\t\u0000\u0000 \u00e9\u0000 yy \n\r\n\ud83d\ude00xxxxxxxxxxxxxxxxxxxxxxxxxxxx\u00e9\u0000a\ud83d\ude00\u00e9' yy a\"\u00e9\r\u00e9\\\u0378\t\u3000\ud83d\ude00\r yy \u00e9\\\t\r\n\"\u3000\\\u3000'\u2028 yy  yy \n\u0085\r yy \r\u0085a\r \n'xxxxxxxxxxxxxxxxxxxxxxxxxxxx\u0085\u0000\u00e9\u00e9 \u2028",
"out": "('\\r'\n '\ud83d\ude00word\\u0378\\x85'\n \" \\t'word\\r\\n\"\n '\\t\\x00\\x00 \u00e9\\x00 yy \\n'\n '\\r\\n'\n '\ud83d\ude00xxxxxxxxxxxxxxxxxxxxxxxxxxxx\u00e9\\x00a\ud83d\ude00\u00e9\\' yy a\"\u00e9\\r'\n '\u00e9\\\\\\u0378\\t\\u3000\ud83d\ude00\\r'\n ' yy \u00e9\\\\\\t\\r\\n'\n '\"\\u3000\\\\\\u3000\\'\\u2028'\n ' yy  yy \\n'\n '\\x85'\n '\\r'\n ' yy \\r'\n '\\x85'\n 'a\\r'\n ' \\n'\n \"'xxxxxxxxxxxxxxxxxxxxxxxxxxxx\\x85\"\n '\\x00\u00e9\u00e9 \\u2028')"
}
]`

// TestPprintLongStringsMatchPython holds pprint's chunking of long
// strings to Python's, the output the counted chunking (strChunks) must
// write byte for byte. (splitlines cut one byte into the code point after
// a two-byte line break, U+0085, before it.)
func TestPprintLongStringsMatchPython(t *testing.T) {
	var cases []struct {
		V   any    `json:"v"`
		Out string `json:"out"`
	}
	if err := json.Unmarshal([]byte(pprintLongStrings), &cases); err != nil {
		t.Fatal(err)
	}
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		res, err := env.RenderString("pprint", "{{ v|pprint }}", map[string]any{"v": c.V}, RenderOptions{})
		if err != nil || res.Output != c.Out {
			t.Errorf("pprint of %q:\n got %q (%v)\nwant %q", c.V, res.Output, err, c.Out)
		}
	}
}
