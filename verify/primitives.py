"""The table "seed primitive -> spec -> lowerings -> targets proved"
(docs/primitives.md), generated from the catalogue and the proof records so
that it never drifts (tests/test_primitives_table.py regenerates it).

Each row is a primitive the seeds name (shared/seeds/, issue 13's list)
with a pattern for the names of the specs that state it; the specs come
from the spec library, the lowerings are the catalogue's lowerings of
those specs, and a target counts as proved when the lowering's record for
it is current and proved (verify.proofs.current_proof: a stale or missing
record does not count).  A row with no spec or no lowering yet shows as
empty, which is honest.

    python -m verify.primitives            # print the table
    python -m verify.primitives --write    # rewrite docs/primitives.md
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import catalog, proofs, revisions
from .ir import Lowering
from .lowering_file import load_lowering
from .target import ORDER


@dataclass(frozen=True)
class Primitive:
    name: str  # as the seed names it
    seed: str  # where: a seed file or API
    specs: str  # a regular expression over spec names (full match)


_Q = "Quadrants"
_CUDA = "CUDA"
_CG = "CUDA cooperative groups"
_LLVM = "LLVM AMDGPU"

PRIMITIVES: list[Primitive] = [
    Primitive("ballot", _Q, r"(vote|quadrants)\.ballot"),
    Primitive("ballot_first_n", _Q, r"(vote|quadrants)\.ballot_first_n"),
    Primitive("all_true, all_true_tiled", _Q, r"(vote|quadrants)\.all_true(_tiled)?"),
    Primitive("any_true, any_true_tiled", _Q, r"(vote|quadrants)\.any_true(_tiled)?"),
    Primitive("all_equal (i32, f32), all_equal_tiled", _Q, r"(vote|quadrants)\.all_equal\w*"),
    Primitive("elect", _Q, r"(vote|quadrants)\.elect\w*"),
    Primitive("invocation_id", _Q, r"(vote|quadrants)\.invocation_id"),
    *[Primitive(f"lanemask_{k}", _Q, rf"(vote|quadrants)\.lanemask_{k}") for k in ("lt", "le", "eq", "gt", "ge")],
    Primitive("bitonic_sort_kv, bitonic_sort_kv_tiled", _Q, r"quadrants\.bitonic_sort_kv(_tiled)?"),
    Primitive("readfirstlane (lowest active lane)", _LLVM, r"(vote|wave|lane)\.readfirstlane"),
    Primitive("wave.reduce.sub", _LLVM, r"wave\.reduce_sub"),
    Primitive("wave.reduce.fsub", _LLVM, r"wave\.reduce_fsub"),
    Primitive("__ballot_sync", _CUDA, r"cuda\.ballot(_sync)?"),
    Primitive("__any_sync", _CUDA, r"cuda\.any(_sync)?"),
    Primitive("__all_sync", _CUDA, r"cuda\.all(_sync)?"),
    Primitive("__activemask", _CUDA, r"cuda\.activemask"),
    Primitive("__match_any_sync", _CUDA, r"cuda\.match_any(_sync)?"),
    Primitive("__match_all_sync", _CUDA, r"cuda\.match_all(_sync)?"),
    Primitive("cg::reduce", _CG, r"cg\.reduce\w*"),
    Primitive("cg::inclusive_scan", _CG, r"cg\.inclusive_scan\w*"),
    Primitive("cg::exclusive_scan", _CG, r"cg\.exclusive_scan\w*"),
    Primitive("64-bit shuffles (i64, u64, f64)", f"{_Q}, {_CUDA}", r"\w+\.shfl\w*_(i|u|f)64"),
    Primitive("64-bit reductions and scans (i64, u64, f64)", f"{_Q}, {_LLVM}", r"\w+\.(reduce|scan)\w*_(i|u|f)64"),
    # issue 33
    Primitive("shfl.sync's predicate p", "PTX", r"ptx\.shfl_\w+_p"),
    Primitive("__fns", _CUDA, r"cuda\.fns"),
    Primitive("popc(__ballot_sync(m, p) & __lanemask_lt())", f"{_CUDA}, HIP", r"(cuda|hip)\.ballot_rank"),
    Primitive("coalesced_threads(): thread_rank, num_threads, shfl, shfl_up, shfl_down", _CG, r"cg\.coalesced_\w+"),
    Primitive("labeled_partition, binary_partition: reduce, scans, rank, size", _CG, r"cg\.(labeled|binary)_\w+"),
    Primitive("__match_any_sync, __match_all_sync on 64-bit values and float", _CUDA,
              r"cuda\.match_(any|all)_(b64|f32)"),
    Primitive("typed shuffles: short, char, __half, __nv_bfloat16, __half2", _CUDA, r"cuda\.shfl_typed"),
    # covered before issue 13
    Primitive("__shfl_sync, __shfl_xor_sync, __shfl_up_sync, __shfl_down_sync", _CUDA,
              r"cuda(64)?\.shfl_(idx|xor|up|down)"),
    Primitive("reduce_*, reduce_all_* (and _tiled)", _Q, r"quadrants\.reduce\w*"),
    Primitive("inclusive_*, exclusive_* (and _tiled)", _Q, r"quadrants\.(inclusive|exclusive)"),
    Primitive("segmented_reduce_*", _Q, r"quadrants\.segmented_reduce"),
]


@dataclass
class Row:
    primitive: Primitive
    specs: list[str]
    lowerings: list[str]
    proved: dict[int, list[str]]  # wave -> targets with a current proved record


def _target_key(t: str) -> tuple[int, str]:
    return (ORDER.index(t) if t in ORDER else len(ORDER), t)


def proved_instances(low: Lowering, revs: dict[str, str], locks: dict[Any, Any]) -> set[tuple[str, int]]:
    """(target, wave) of `low` whose record is current and proved (as
    verify.proofs.current_proof decides, with the hashes, the record file and
    the lock read once per lowering)."""
    d = proofs.load(proofs.record_file(Path(low.path)))
    if d is None:
        return set()
    lp = proofs.lock_path(Path(low.path))
    if lp not in locks:
        locks[lp] = revisions.load_lock(lp)
    spec = ("spec", low.spec)  # the spec's hash depends on its name alone
    if spec not in locks:
        locks[spec] = proofs.spec_hash(low)
    now = {"lowering": proofs.lowering_hash(low), "spec": locks[spec], "solver": revs["solver"]}
    out = set()
    for key in proofs.instantiations(low):
        rec = d["records"].get(key)
        if rec is not None and rec["verdict"] == "proved" and not proofs.stale_reasons(
                rec, now, locks[lp], revs, low, (d["lowering"], d["spec"])):
            out.add(key)
    return out


def rows() -> list[Row]:
    """Every primitive's row, from the spec library, the catalogue and the records."""
    specs = sorted(catalog.speclib().specs)
    lows = [load_lowering(p) for p in catalog.lowering_files()]
    revs = {**revisions.current(), "solver": proofs.solver_id()}
    locks: dict[Any, Any] = {}
    out = []
    for prim in PRIMITIVES:
        names = [s for s in specs if re.fullmatch(prim.specs, s)]
        mine = [low for low in lows if low.spec in names]
        proved: dict[int, set[str]] = {}
        for low in mine:
            for target, wave in proved_instances(low, revs, locks):
                proved.setdefault(wave, set()).add(target)
        out.append(Row(prim, names, sorted(low.name for low in mine),
                       {w: sorted(ts, key=_target_key) for w, ts in sorted(proved.items())}))
    return out


def markdown(table: list[Row]) -> str:
    """docs/primitives.md."""
    lines = [
        "# Seed primitives: spec, lowerings, targets proved",
        "",
        "Generated by `python -m verify.primitives --write` from the spec library, the catalogue and the",
        "proof records (a target counts when its record is current and proved); `tests/test_primitives_table.py`",
        "regenerates it and fails when this file differs. An empty cell is a gap: no spec, no lowering, or no",
        "current proof yet.",
        "",
        "| primitive | seed | specs | lowerings | targets proved |",
        "|---|---|---|---|---|",
    ]
    for r in table:
        specs = ", ".join(f"`{s}`" for s in r.specs)
        lows = ", ".join(r.lowerings) if len(r.lowerings) <= 12 else \
            f"{len(r.lowerings)} lowerings: {', '.join(r.lowerings[:8])}, ..."
        proved = "; ".join(f"wave{w}: {', '.join(ts)}" for w, ts in r.proved.items())
        lines.append(f"| {r.primitive.name} | {r.primitive.seed} | {specs} | {lows} | {proved} |")
    return "\n".join(lines) + "\n"


DOC = Path(__file__).resolve().parent.parent / "docs" / "primitives.md"


def main(argv: list[str]) -> int:
    text = markdown(rows())
    if "--write" in argv:
        DOC.write_text(text)
        print(f"wrote {DOC}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
