"""The checker of docs/json.md's schema: the part of JSON Schema that page
uses (type, enum, required, properties, items, anyOf, $ref, pattern,
minimum, maximum) and `values` (every value of an object), no more."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}
KNOWN = {"type", "enum", "required", "properties", "items", "anyOf", "$ref", "pattern", "minimum", "maximum", "values",
         "$defs"}


def schema() -> dict[str, Any]:
    """The schema block of docs/json.md."""
    text = (ROOT / "docs/json.md").read_text()
    m = re.search(r"```json schema\n(.*?)\n```", text, re.S)
    assert m is not None, "docs/json.md has no ```json schema block"
    out: dict[str, Any] = json.loads(m.group(1))
    return out


def _is(value: Any, t: str) -> bool:
    if t == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, TYPES[t])


def errors(value: Any, s: dict[str, Any], root: dict[str, Any], at: str = "$") -> list[str]:
    """Where `value` breaks schema `s` (empty: it conforms)."""
    unknown = set(s) - KNOWN
    if unknown:
        raise ValueError(f"{at}: the checker does not implement {sorted(unknown)}")
    if "$ref" in s:
        name = s["$ref"].removeprefix("#/$defs/")
        return errors(value, root["$defs"][name], root, at)
    if "anyOf" in s:
        options = [errors(value, o, root, at) for o in s["anyOf"]]
        return [] if any(not e for e in options) else [f"{at}: matches none of anyOf ({options})"]
    out: list[str] = []
    if "type" in s:
        ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(_is(value, t) for t in ts):
            return [f"{at}: {type(value).__name__} is not {ts}"]
    if "enum" in s and value not in s["enum"]:
        out.append(f"{at}: {value!r} not in {s['enum']}")
    if "pattern" in s and isinstance(value, str) and not re.search(s["pattern"], value):
        out.append(f"{at}: {value!r} does not match {s['pattern']}")
    if "minimum" in s and isinstance(value, int) and value < s["minimum"]:
        out.append(f"{at}: {value} < {s['minimum']}")
    if "maximum" in s and isinstance(value, int) and value > s["maximum"]:
        out.append(f"{at}: {value} > {s['maximum']}")
    if isinstance(value, dict):
        out += [f"{at}: missing {k!r}" for k in s.get("required", []) if k not in value]
        for k, sub in s.get("properties", {}).items():
            if k in value:
                out += errors(value[k], sub, root, f"{at}.{k}")
        if "values" in s:
            for k, v in value.items():
                out += errors(v, s["values"], root, f"{at}.{k}")
    if isinstance(value, list) and "items" in s:
        for i, v in enumerate(value):
            out += errors(v, s["items"], root, f"{at}[{i}]")
    return out
