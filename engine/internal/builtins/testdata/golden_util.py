"""Shared helpers of the golden generators (run with /usr/bin/python3)."""
import json, math, sys
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.exceptions import SecurityError, UndefinedError
from markupsafe import Markup
from jinja2 import Undefined

env = ImmutableSandboxedEnvironment()
M = Markup

def enc(v):
    if isinstance(v, Undefined): return {"$u": v._undefined_name or ""}
    if isinstance(v, Markup): return {"$m": str(v)}
    if isinstance(v, bool) or v is None or isinstance(v, str): return v
    if isinstance(v, int): return v
    if isinstance(v, float):
        if math.isfinite(v): return {"$f": repr(v)}
        return {"$f": repr(v)}
    if isinstance(v, tuple): return {"$t": [enc(x) for x in v]}
    if isinstance(v, list): return [enc(x) for x in v]
    if isinstance(v, dict): return {"$d": [[enc(k), enc(x)] for k, x in v.items()]}
    raise TypeError(type(v))

def kind(e):
    if isinstance(e, SecurityError): return "security"
    if isinstance(e, UndefinedError): return "undefined"
    if isinstance(e, TypeError): return "type"
    return "render"

