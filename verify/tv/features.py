"""A function's subtarget: the RUN line's -mattr and the function's own
"target-features" attribute, in the order LLVM applies them  [S:fn-target-features].

llc appends its -mattr features to each function's "target-features"
(codegen::setFunctionAttributes), and the subtarget applies the list left to
right, so on a conflict the RUN line's feature wins; a function's attribute
decides what the RUN line leaves open.  verify models the same order for
what it models (real-true16: Target.with_llvm_attrs), and makes llvmlite's
compile follow it too (llvmlite's LLVM takes a function's attribute alone,
dropping the target machine's features, its wave size included)."""
from __future__ import annotations

import re
from typing import Any

from ..target import Target, get

_ATTR = re.compile(r'"target-features"="([^"]*)"')


def own_features(attrs: dict[str, str]) -> list[str]:
    """The function's "target-features", one feature each ('+a', '-b')."""
    return [f.strip() for f in attrs.get("target-features", "").split(",") if f.strip()]


def function_target(target: Target, mattr: tuple[str, ...] | list[str], fn: Any) -> Target:
    """The target `fn` is compiled for under an instance of `target` (its
    name) with RUN-line features `mattr`: the processor's defaults, then the
    function's own features, then the RUN line's (the last wins)."""
    feats = own_features(getattr(fn, "attrs", {}) or {})
    if not feats:
        return target
    return get(target.name).with_llvm_attrs([*feats, *mattr])


def append_features(text: str, feats: list[str]) -> str:
    """`text` with `feats` (the target machine's: the wave size, -mattr)
    appended to every "target-features" attribute, as llc's
    setFunctionAttributes appends -mattr.  The wave size is not appended
    where the function fixes its own (llc rejects the module: "must specify
    exactly one of wavefrontsize32 and wavefrontsize64"; verify checks such
    a function on its own wave only: runlines.wave_fits)."""
    if not feats:
        return text

    def one(m: re.Match[str]) -> str:
        own = [f.strip() for f in m.group(1).split(",") if f.strip()]
        fixed = any(re.fullmatch(r"[+-]wavefrontsize(32|64)", f) for f in own)
        add = [f for f in feats if not (fixed and re.fullmatch(r"[+-]wavefrontsize(32|64)", f))]
        return '"target-features"="' + ",".join([*own, *add]) + '"'
    return _ATTR.sub(one, text)
