"""Small helpers shared by the tests."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from pathlib import Path

from verify.backend import Concrete
from verify.cli import main
from verify.diag import Span
from verify.lowering_file import parse_instr
from verify.machine import Machine
from verify.target import FeatureLog, get


def simulate(lines: list[str], target: str, wave: int, exec_mask: int, regs: dict, assume=None) -> Machine:
    """Run assembly lines concretely.  regs: 'v0' -> list of lane values or a
    scalar for every lane; 's0' -> value.  Unlisted registers read 0."""

    def initial(kind, name, lane):
        if kind == "scc":
            return False
        v = regs.get(name, 0)
        return (v[lane] if isinstance(v, list) else v) & 0xFFFFFFFF

    # instruction semantics without timing: hazards are tests/test_hazards.py's
    m = Machine(Concrete(), wave, initial, FeatureLog(get(target)), assume or {}, hazards=False)
    m.set_exec_mask(exec_mask)
    m.run([parse_instr(t, Span("t", k + 1)) for k, t in enumerate(lines)])
    m.land_all()  # the results as the instructions compute them (waits: tests/test_waits.py)
    return m


def signed(vals: list[int]) -> list[int]:
    return [v - (1 << 32) if v >= 1 << 31 else v for v in vals]


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


LLC = shutil.which("llc-22")
# the atomic optimizer's Iterative strategy on a wave32 target, with global (not flat) stores
ITERATIVE_W32 = ("-mattr=+wavefrontsize32", "-mattr=-flat-for-global", "-amdgpu-atomic-optimizer-strategy=Iterative")


def llc_asm(src: Path, cpu: str, *flags: str, triple: str = "amdgcn-amd-amdhsa") -> str:
    """llc-22's code for SRC (the caller skips where LLC is None)."""
    assert LLC is not None
    return subprocess.run([LLC, f"-mtriple={triple}", f"-mcpu={cpu}", *flags, str(src), "-o", "-"],
                          capture_output=True, text=True, check=True).stdout


def mutate(asm: str, old: str, new: str, function: str | None = None) -> str:
    """ASM with its one OLD (in FUNCTION's body where given) made NEW."""
    start, end = 0, len(asm)
    if function is not None:
        start = asm.index(f"\n{function}:")
        end = asm.index("s_setpc_b64", start)
    assert asm[start:end].count(old) == 1, (old, asm[start:end])
    return asm[:start] + asm[start:end].replace(old, new) + asm[end:]


def tv_on_asm(tmp_path: Path, src: Path, asm: str, target: str, *args: str) -> tuple[int, dict]:
    """`verify tv SRC --asm` (ASM written to a file) with one result: its exit code and JSON result."""
    p = tmp_path / "mutant.s"
    p.write_text(asm)
    code, out, _ = cli("tv", str(src), "--target", target, "--asm", str(p), *args, "--json")
    (r,) = json.loads(out)["results"]
    return code, r


def cli_json(*argv: str):
    code, out, err = cli(*argv, "--json")
    return code, json.loads(out) if out.strip() else None, err


def tier_split(items: list, every: int, ids: list[str] | None = None, cover: list[str] | None = None,
               cost: list[int] | None = None) -> list:
    """A catalogue sweep split between tiers: every `every`-th item (from
    the first, in the order given) runs in the slow tier (CI), the others in
    the corpus tier (`pytest -m corpus`), so the two together cover every
    item and CI's share is spread over the whole catalogue.  With `cover`
    (the lowering file of each item), CI's share also takes, in order, each
    item that brings a feature no chosen one has yet (a mnemonic, a DPP
    control kind, a target, a spec: lowering_features), so every feature of
    the catalogue is in CI's share.  The catalogue's proof records are
    checked current on every CI run whatever the sample (tests/test_repo.py
    re-proves every stale one).  `cost` (per item): cover_sample's, the
    features picked cheapest first."""
    import pytest

    chosen = cover_sample(cover, every, cost) if cover is not None else _every_nth([str(i) for i in items], every)
    out = []
    for k, item in enumerate(items):
        mark = pytest.mark.slow if k in chosen else pytest.mark.corpus
        out.append(pytest.param(item, marks=mark, id=None if ids is None else ids[k]))
    return out


# Lowerings whose proof or emit self-check takes over a minute of CPU on the
# 2-core machine (measured 2026-11-29): the slow tier's every-N-th pick takes
# the next file instead (the corpus tier runs them; a feature only they have
# would still bring one in).  The f32 cg::less/greater tile<16> reductions:
# `verify lowering cg_reduce_less_f32_t16_rdna_w32` 79 s CPU, the emit
# self-check of cg_reduce_greater_f32_t16_rdna 253 s CPU.  Measured
# 2026-11-30 (emit self-check CPU s, benchmarks-style, load 8): the w64
# labeled reduce 60 s, fns_prev_gcn 30 s and fns_prev_rdna 47 s, the f32 cg
# less/greater scans on gfx9 19 s each, the wave64 u64 pair max 17 s; with
# them the emit sample cost 250 s of CPU and the catalogue sample 52 s more.
# The wave64 bitonic_t64 on gfx9: its hazard mutant 24-32 s in CI's log;
# all_equal_f32_w64 and bitonic_t32_w64 (and their gfx11/gfx12 copies, the
# next picks): theirs 13.4 s and 10.7-12.5 s of the slow tier's 68 s of hazard
# mutants (2026-11-30).
COSTLY = re.compile(r"cg_\w+_(less|greater)_f32_t16_|labeled_reduce_add_w64$|fns_prev_|pair_umax_u64_rdna_w64$|"
                    r"bitonic_t64_w64_gfx9$|all_equal_f32_w64|bitonic_t32_w64")


def costly(path: object) -> bool:
    from pathlib import Path
    return COSTLY.match(Path(str(path)).stem) is not None


def _every_nth(paths: list[str], every: int) -> set[int]:
    """Every `every`-th index, a costly lowering's next neighbour in its place."""
    chosen = set()
    for k in range(0, len(paths), every):
        while k < len(paths) - 1 and costly(paths[k]):
            k += 1
        chosen.add(k)
    return chosen


def cover_sample(paths: list, every: int, cost: list[int] | None = None, specs: bool = True) -> set[int]:
    """Indices of `paths`: every `every`-th, then in order each lowering
    file with a feature (lowering_features) none chosen so far has.  With
    `cost` (per path), the files adding features are picked greedily, most
    new features per unit of cost first (ties: the earlier file), so the
    sample covers every feature for less work.  With specs=False the spec a
    lowering refines is not a feature (a sweep of emission, whose IR and
    compiled code follow the instructions: the catalogue sweep covers every
    spec)."""
    chosen = _every_nth([str(p) for p in paths], every)
    feats = [{f for f in lowering_features(p) if specs or not f.startswith("spec:")} for p in paths]
    have: set[str] = set().union(*(feats[k] for k in chosen))
    if cost is None:
        for k, f in enumerate(feats):
            if not f <= have:
                chosen.add(k)
                have |= f
        return chosen
    missing = set().union(*feats) - have
    while missing:
        k = max((k for k in range(len(paths)) if feats[k] & missing),
                key=lambda k: (len(feats[k] & missing) / (max(cost[k], 1) * (1000 if costly(paths[k]) else 1)), -k))
        chosen.add(k)
        missing -= feats[k]
    return chosen


def lowering_features(path: object) -> set[str]:
    """What a lowering file exercises, read from its text (no parse): each
    instruction's mnemonic, each DPP control kind, each target and the spec."""
    import re
    from pathlib import Path

    out: set[str] = set()
    for line in Path(str(path)).read_text().splitlines():
        t = line.split(";", 1)[0].strip()
        if line.startswith("; @targets"):
            out |= {f"target:{w}" for w in re.split(r"[,\s]+", line[len("; @targets"):]) if w}
        if line.startswith("; @spec") and len(line.split()) > 2:
            out.add(f"spec:{line.split()[2]}")
        if not t:
            continue
        out.add(t.split()[0])
        out |= {f"ctrl:{m}" for m in re.findall(r"\b(quad_perm|row_\w+?|wave_\w+?|dpp8|bound_ctrl|fi)(?=[:\s]|$)", t)}
    return out - {"ctrl:row_mask"}  # (a mask, not a control)


def synthetic_report(root, n: int, refuted_lowering):
    """A `verify check` report of `n` proved lowerings (two records each,
    gfx900 and gfx90a wave64; their record files written, nothing proved)
    and, in the middle, the real lowering `refuted_lowering` with its 8
    records refuted (its counterexample is proved again when the report is
    written).  For the HTML report's scale test and benchmark."""
    from pathlib import Path

    from verify.gate import Entry, Report

    root = Path(root)
    (root / "lowerings").mkdir(exist_ok=True)
    (root / "proofs").mkdir(exist_ok=True)
    entries = []
    for i in range(n):
        low = root / "lowerings" / f"l{i:04}.s"
        rec = root / "proofs" / f"l{i:04}.proof"
        rec.write_text(json.dumps({"spec": f"cuda.shfl_xor mask={1 + i % 31} width=32", "records": [
            {"targets": ["gfx900", "gfx90a"], "wave": 64, "verdict": "proved", "assumptions": {}, "method": "smt"}]}))
        entries += [Entry(str(rec), str(low), t, 64, "current", "proved") for t in ("gfx900", "gfx90a")]
        if i == n // 2:
            bad = str(refuted_lowering)
            targets = ["gfx900", "gfx906", "gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950"]
            entries += [Entry(str(root / "proofs" / "bad.proof"), bad, t, 64, "current", "refuted") for t in targets]
    return Report("check", entries, n + 1, [])


def tiered(paths):
    """Parameters for a test that runs whole tv files: the smallest file in
    the slow tier (a sample every CI run pays for), every other file in the
    corpus tier (`-m corpus`), so that the slow tier stays within its time."""
    import pytest

    smallest = min(paths, key=lambda p: (p.stat().st_size, p.name)) if paths else None
    return [pytest.param(p, marks=[pytest.mark.slow] if p == smallest else [pytest.mark.slow, pytest.mark.corpus])
            for p in paths]


def catalogue_slow_sample() -> set[str]:
    """The lowerings tests/test_catalog.py proves in the slow tier (CI), each
    on every target and wave it declares: another slow test need not prove
    one of them again."""
    from test_catalog import test_catalogue_lowering_is_proved as cat

    return {p.values[0] for p in cat.pytestmark[0].args[1] if any(m.name == "slow" for m in p.marks)}
