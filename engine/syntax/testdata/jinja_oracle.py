"""Differential oracle: reads JSON lines {"template", "opts"} on stdin and
writes, per line, Jinja2's token stream (as the parser sees it) and the
outcome of parsing and compiling. Used by TestDiffJinja."""
import json
import signal
import sys
import time

import jinja2
from jinja2 import nodes
from jinja2.exceptions import TemplateAssertionError, TemplateSyntaxError


def env_for(o):
    kw = dict(
        trim_blocks=o.get("trim", False),
        lstrip_blocks=o.get("lstrip", False),
        keep_trailing_newline=o.get("keep", False),
    )
    if o.get("lsp"):
        kw["line_statement_prefix"] = o["lsp"]
    if o.get("lcp"):
        kw["line_comment_prefix"] = o["lcp"]
    if o.get("nunjitsu"):
        kw["variable_start_string"] = "${{"
    return jinja2.Environment(optimized=False, **kw)


def tok(t):
    v = t.value
    if t.type == "float":
        v = repr(v)
    elif t.type == "integer":
        v = str(v)
    return [t.type, v]


class Timeout(Exception):
    pass


def on_alarm(*_):
    raise Timeout()


signal.signal(signal.SIGALRM, on_alarm)

def run(c):
    env = env_for(c.get("opts", {}))
    src = c["template"]
    out = {}
    try:
        out["tokens"] = [tok(t) for t in env._tokenize(src, None)]
    except TemplateSyntaxError as e:
        out["lex_error"] = e.message
        out["lex_line"] = e.lineno
    except Exception as e:  # noqa
        out["lex_error"] = "PY:" + type(e).__name__
    try:
        env.parse(src)
        out["parse"] = "ok"
        if not c.get("compile"):
            return out
        try:
            env.compile(src)
        except TemplateAssertionError as e:
            if not e.message.startswith("No filter named") and not e.message.startswith("No test named"):
                out["parse"] = "error"
                out["message"] = e.message
                out["line"] = e.lineno
        except Exception as e:  # noqa
            out["compile_other"] = type(e).__name__
    except TemplateSyntaxError as e:
        out["parse"] = "error"
        out["message"] = e.message
        out["line"] = e.lineno
    except Exception as e:  # noqa
        out["parse"] = "PY:" + type(e).__name__
    return out


for line in sys.stdin:
    c = json.loads(line)
    signal.alarm(2)
    t0 = time.time()
    try:
        out = run(c)
    except Timeout:
        out = {"timeout": True}
    signal.alarm(0)
    if time.time() - t0 > 0.3:
        sys.stderr.write("slow: %s %.1fs\n" % (c.get("id"), time.time() - t0))
    sys.stdout.write(json.dumps(out) + "\n")
