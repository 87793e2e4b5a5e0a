"""The table of cheapest proven lowerings: common shuffles x target
families x wave sizes, beside the ds_bpermute baseline.

``verify synth --table`` synthesises every entry (the columns in parallel),
writes the lowering files under ``lowerings/synth/`` (one file per distinct
program, shared by the columns it wins in; the test suite proves every one),
``docs/synthesis-table.json`` (the index) and ``docs/synthesis-table.md``.
``--check`` does not search: it checks that the Markdown is the rendering of
the index, that the index and the files agree, and re-synthesises a small
sample, which must reproduce its files byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any, TextIO

from .. import catalog
from .. import target as T
from ..diag import InputError
from ..ir import Lowering
from ..lowering_file import load_lowering
from ..workers import pool as worker_pool
from . import Outcome, synthesize
from .cost import model_for, program_cost

ROOT = catalog.ROOT
LOW_DIR = ROOT / "lowerings" / "synth"
INDEX = ROOT / "docs" / "synthesis-table.json"
MD = ROOT / "docs" / "synthesis-table.md"
MAX_OPS = 2
# the mark of a cell whose lowering relies on a default variant (Entry["relies_on"])
DEFAULT_MARK = "\u2020"

# an entry of the index (docs/synthesis-table.json), as JSON
Entry = dict[str, Any]
Row = tuple[str, dict[str, Any]]  # (spec, parameters)

# Columns: a family alias (targets whose relevant features agree, see
# verify/target.py) and a wave size.  The gfx9 column uses the components
# common to gfx900-gfx950; the cdna2 (gfx90a), cdna3 (gfx940-gfx942) and
# gfx950 columns add what those have beyond it (row_newbcast; the gfx950
# permlane swaps).
ALL_COLUMNS = [("gfx8", 64), ("gfx9", 64), ("gfx10", 32), ("gfx10", 64), ("gfx11", 32), ("gfx11", 64),
               ("gfx12", 32), ("gfx12", 64), ("cdna2", 64), ("cdna3", 64), ("gfx950", 64)]
# The checked-in table uses every column and every row (time: see
# docs/synthesis.md, "The table"); narrowing ROWS gives a quicker table.
COLUMNS = ALL_COLUMNS

# Rows: the shuffles a CUDA/HIP compiler lowers most (on the 32-lane warp).
ALL_ROWS = ([("cuda.shfl_xor", {"mask": m, "width": w}) for w in (32, 16, 8, 4, 2) for m in range(1, w)]
            + [(f"cuda.shfl_{k}", {"delta": d, "width": w}) for w in (32, 16, 8) for k in ("up", "down")
               for d in range(1, w // 2 + 1)]
            + [("cuda.shfl_idx", {"lane": l, "width": w}) for w, l in ((32, 0), (32, 15), (32, 31), (16, 0), (16, 5),
                                                                         (16, 15), (8, 0), (8, 7), (4, 0), (4, 3))])
ROWS = ALL_ROWS

SAMPLE = [(("cuda.shfl_xor", {"mask": 5, "width": 32}), ("gfx9", 64)),
          (("cuda.shfl_xor", {"mask": 5, "width": 32}), ("gfx11", 32))]


def row_name(spec: str, params: dict[str, Any]) -> str:
    kind = spec.split(".")[1].replace("shfl_", "")
    p = next(v for k, v in params.items() if k != "width")
    return f"syn_{kind}{p}_w{params['width']}"


def _column(args: tuple[str, int, list[Row], None]) -> list[Entry]:
    fam, wave, rows, _ = args
    targets = T.resolve(fam)
    shared: dict[Any, Any] = {}
    out = []
    for spec, params in rows:
        t0 = time.perf_counter()
        o = synthesize(spec, params, targets, wave, "any", MAX_OPS, None, row_name(spec, params), [fam],
                       _command(spec, params, fam, wave), shared=shared)
        dt = time.perf_counter() - t0
        out.append({
            "spec": spec, "params": params, "family": fam, "wave": wave,
            "verdict": o.verdict, "cost": o.cost, "is_baseline": o.best_is_baseline,
            "baseline": None if o.baseline is None else o.baseline.cost,
            "claim": o.claim(), "text": o.text, "seconds": round(dt, 3),
            "summary": _summary(o),
            "relies_on": o.relies_on,
        })
    return out


def _command(spec: str, params: dict[str, Any], fam: str, wave: int) -> str:
    return (f"verify synth {spec} {' '.join(f'{k}={v}' for k, v in params.items())} --target {fam} "
            f"--wave {wave} --exec any --max-ops {MAX_OPS}")


def _summary(o: Outcome) -> str:
    if o.best is None:
        return "none"
    if o.best_is_baseline:
        return "ds_bpermute"
    parts = []
    for s in o.best.steps:
        parts.append(s.comp.cls + ("(masked)" if s.mask else ""))
    return " + ".join(parts) + (" in wwm" if o.best.wwm else "")


def _retarget(text: str, name: str, families: list[str]) -> str:
    """A winning program's text with the file name and the families it
    serves (its header was written for one column)."""
    out = []
    for line in text.splitlines():
        if line.startswith("; @targets"):
            line = f"; @targets  {', '.join(families)}"
        out.append(line)
    first = out[0].split(":", 1)
    out[0] = f"; {name}:" + first[1].split(" on ")[0] + f" on {', '.join(families)}."
    return "\n".join(out) + "\n"


def build(columns: list[tuple[str, int]] | None = None, jobs: int = 2, out: TextIO | None = None) -> list[Entry]:
    """Synthesise every entry; returns the index rows (with texts)."""
    cols = columns or COLUMNS
    work: list[tuple[str, int, list[Row], None]] = [(fam, wave, ROWS, None) for fam, wave in cols]
    if jobs > 1:
        with worker_pool(jobs, method="fork") as pool:
            results = pool.map(_column, work, chunksize=1)
    else:
        results = [_column(w) for w in work]
    return [e for col in results for e in col]


def program_digest(text: str) -> str:
    """A short hash of a lowering file's instructions (comments and blank lines
    left out): the index records it, so any edit of a program shows."""
    body = "\n".join(l.split(";")[0].strip() for l in text.splitlines() if l.split(";")[0].strip())
    return hashlib.sha256(body.encode()).hexdigest()[:16]


def write(entries: list[Entry]) -> tuple[list[Entry], dict[str, str]]:
    """Group winners into files; return the index and {relative path: text}."""
    files: dict[str, str] = {}
    index = []
    by_row: dict[str, list[Entry]] = {}
    for e in entries:
        by_row.setdefault(row_name(e["spec"], e["params"]), []).append(e)
    for name, es in by_row.items():
        groups: list[tuple[str, int, list[Entry]]] = []  # (program text body, wave, [entries])
        for e in es:
            if e["text"] is None:
                continue
            body = "\n".join(l for l in e["text"].splitlines() if not l.startswith(";"))
            for g in groups:
                if g[0] == body and g[1] == e["wave"]:
                    g[2].append(e)
                    break
            else:
                groups.append((body, e["wave"], [e]))
        for k, (_, _, ges) in enumerate(groups):
            fname = name + ("" if k == 0 else "_" + "bcdefghijklmnop"[k - 1])
            rel = f"synth/{fname}.s"
            files[rel] = _retarget(ges[0]["text"], fname, [g["family"] for g in ges])
            for ge in ges:
                ge["file"] = rel
    for e in entries:
        f = e.get("file")
        index.append({k: v for k, v in e.items() if k not in ("text", "program")} | {"file": f}
                     | {"program": program_digest(files[f]) if f else None})
    return index, files


def markdown(index: list[Entry]) -> str:
    cols: list[tuple[str, int]] = []
    for e in index:
        c = (e["family"], e["wave"])
        if c not in cols:
            cols.append(c)
    rows: dict[tuple[str, str], dict[tuple[str, int], Entry]] = {}
    for e in index:
        rows.setdefault((e["spec"], json.dumps(e["params"])), {})[(e["family"], e["wave"])] = e
    lines = [
        "# Cheapest proven lowerings",
        "",
        "Generated by `verify synth --table` (verify/synth/table.py); do not edit.  Each cell: the cost of the "
        "cheapest lowering found and proved (estimated cycles, [synthesis.md](synthesis.md#cost-model)), what it "
        "is made of, and, after the slash, the cost of the ds_bpermute baseline (`-`: none is proved there).  "
        "Every search was exhaustive for programs of at most "
        f"{MAX_OPS} components below the baseline's cost, so each entry is optimal in that scope (the claim in "
        "its file's header says so).  `wwm`: in whole-wave mode; `(masked)`: a row/bank-masked DPP move.  "
        "Files: `lowerings/<file>` (the catalogue proves every one).",
        "",
        "| shuffle | " + " | ".join(f"{f} w{w}" for f, w in cols) + " |",
        "|---|" + "---|" * len(cols),
    ]
    for (spec, ps), cells in rows.items():
        params = json.loads(ps)
        label = f"`{spec} {' '.join(f'{k}={v}' for k, v in params.items())}`"
        out = []
        for c in cols:
            cell = cells.get(c)
            if cell is None or cell["cost"] is None:
                out.append("none / " + ("-" if cell is None or cell["baseline"] is None else str(cell["baseline"])))
                continue
            base = "-" if cell["baseline"] is None else str(cell["baseline"])
            mark = DEFAULT_MARK if cell.get("relies_on") else ""
            out.append(f"**{cell['cost']}**{mark} {cell['summary']} / {base}<br>`{Path(cell['file']).stem}`")
        lines.append(f"| {label} | " + " | ".join(out) + " |")
    total = sum(e["seconds"] for e in index)
    marked = [e for e in index if e.get("relies_on")]
    if marked:
        needs = sorted({a for e in marked for a in e["relies_on"]})
        lines += ["", f"{DEFAULT_MARK}: proved only under the default variant of a named assumption "
                      f"([semantics.md](semantics.md), `verify/assume.py`): another variant refutes it or leaves it "
                      f"undecided ({len(marked)} entries; {', '.join(needs)}).  `verify synth --robust` finds the "
                      "cheapest lowering that holds under every variant."]
    lines += ["", f"{len(index)} entries, {len(cols)} columns, {len({e['file'] for e in index if e['file']})} "
                  "lowering files.", ""]
    _ = total
    return "\n".join(lines)


def columns(families: str | None) -> list[tuple[str, int]]:
    """The table columns `--targets` names (comma-separated families; None: all)."""
    if not families:
        return COLUMNS
    want = [w.strip() for w in families.split(",") if w.strip()]
    cols = [c for c in ALL_COLUMNS if c[0] in want]
    if not cols:
        raise InputError(None, f"--targets: no table column for {families} "
                               f"(columns: {', '.join(sorted({c[0] for c in COLUMNS}))})")
    return cols


def merge(entries: list[Entry], cols: list[tuple[str, int]]) -> list[Entry]:
    """`entries` (for `cols`) with the other columns' entries of the index
    (their programs read back from their files), in column order, as a full
    run groups them."""
    if not INDEX.exists():
        return entries
    old = json.loads(INDEX.read_text())
    keep = [e for e in old if (e["family"], e["wave"]) not in cols]
    for e in keep:
        e["text"] = (ROOT / "lowerings" / e["file"]).read_text() if e.get("file") else None
    order = {c: k for k, c in enumerate(ALL_COLUMNS)}
    return sorted(keep + entries, key=lambda e: order[(e["family"], e["wave"])])


# the reductions table's files (redtable.py) share the folder; this table leaves them alone
RED_PREFIX = "syn_red_"


def save(entries: list[Entry]) -> tuple[list[Entry], dict[str, str]]:
    """Write the index, the Markdown and the lowering files (removing files
    no entry uses); returns :func:`write`'s index and files."""
    index, files = write(entries)
    LOW_DIR.mkdir(parents=True, exist_ok=True)
    for p in LOW_DIR.glob("*.s"):
        if f"synth/{p.name}" not in files and not p.name.startswith(RED_PREFIX):
            p.unlink()
    for rel, text in files.items():
        (ROOT / "lowerings" / rel).write_text(text)
    INDEX.write_text(json.dumps(index, indent=1) + "\n")
    MD.write_text(markdown(index))
    return index, files


def check(sample: bool = True) -> list[str]:
    """Staleness, without a long search: the Markdown renders the index, the
    index's files exist (and no others), each file implements its entries'
    shuffle at their cost, and the sample re-synthesises to the same text.
    (Each file is proved by the catalogue tests and `verify check`.)"""
    problems = []
    if not INDEX.exists():
        return [f"{INDEX}: missing: run `verify synth --table`"]
    index = json.loads(INDEX.read_text())
    if not MD.exists() or MD.read_text() != markdown(index):
        problems.append(f"{MD.relative_to(ROOT)}: stale: run `verify synth --table`")
    named = {e["file"] for e in index if e.get("file")}
    present = {f"synth/{p.name}" for p in LOW_DIR.glob("*.s") if not p.name.startswith(RED_PREFIX)}
    for f in sorted(named - present):
        problems.append(f"lowerings/{f}: missing")
    for f in sorted(present - named):
        problems.append(f"lowerings/{f}: not in the table index")
    # every file: its program, its spec call and its cost are what the index says


    loaded: dict[str, Lowering | None] = {}
    for e in index:
        f = e.get("file")
        if not f or f in sorted(named - present):
            continue
        if f not in loaded:
            try:
                loaded[f] = load_lowering(ROOT / "lowerings" / f)
            except InputError as err:
                problems.append(str(err))
                loaded[f] = None
        low = loaded[f]
        if low is None:
            continue
        if low.spec != e["spec"] or {k: v for k, v in low.params.items()} != e["params"]:
            problems.append(f"lowerings/{f}: implements {low.spec} {low.params}, the table says {e['spec']} {e['params']}")
            continue
        if e.get("program") != program_digest((ROOT / "lowerings" / f).read_text()):
            problems.append(f"lowerings/{f}: its program is not the one the table found (edited?): "
                            f"run `verify synth --table`")
            continue
        c = program_cost(low.program, model_for(T.resolve(e["family"])[0]), e["wave"])
        if c != e["cost"]:
            problems.append(f"lowerings/{f}: costs {c} on {e['family']} wave{e['wave']}, the table says {e['cost']}")
    if sample:
        for (spec, params), (fam, wave) in SAMPLE:
            e = next((e for e in index if e["spec"] == spec and e["params"] == params and e["family"] == fam
                      and e["wave"] == wave), None)
            if e is None:
                problems.append(f"sample {spec} {params} {fam} w{wave}: not in the index")
                continue
            o = synthesize(spec, params, T.resolve(fam), wave, "any", MAX_OPS, None, row_name(spec, params), [fam],
                           _command(spec, params, fam, wave))
            if o.cost != e["cost"]:
                problems.append(f"sample {spec} {params} {fam} w{wave}: cost {o.cost}, the table says {e['cost']}")
                continue
            text = (ROOT / "lowerings" / e["file"]).read_text()
            body = [l for l in text.splitlines() if not l.startswith(";")]
            if o.text is None or [l for l in o.text.splitlines() if not l.startswith(";")] != body:
                problems.append(f"lowerings/{e['file']}: re-synthesis gives a different program")
    return list(dict.fromkeys(problems))  # a file serving several entries is named once


def current_text() -> str:
    """What `verify synth --table --check` says when nothing is stale."""
    return f"synthesis table current: {MD.relative_to(ROOT)}, {INDEX.relative_to(ROOT)}, {LOW_DIR.relative_to(ROOT)}/"
