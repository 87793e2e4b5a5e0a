"""Deleting or shortening any single required wait (s_nop, s_wait_alu,
s_waitcnt / s_wait_dscnt) in any catalogue lowering never yields "proved"
unless the value it guards provably cannot reach an output (issue 11).

Every lowerings/**/*.s file with such a wait gives its mutants: each wait
deleted, each `s_nop N` made `s_nop N-1`, each counter wait made to wait
for one operation less.  A mutant must be refuted (or unknown), or leave no
hazard or wait finding at all (the wait guarded nothing on these targets),
or be listed in HARMLESS: proved by the checker, which gives every read in
a hazard window an unknown value, while the static check still warns, so
the proof itself shows the guarded value cannot reach an output.

The whole sweep (benchmarks/bench_hazard_mutants.py; 973 mutants of 248
files, about 25 minutes on a loaded 2-core machine): 937 refuted, 4 unknown
(the solver's timeout on GFX12 mul scans missing an s_wait_alu: never
proved), 32 in HARMLESS, none proved without a finding (before the per-register
search: the 16 deletions among those 32 are refuted now, 16 remain).  The slow tier
deletes the first wait of every file; a few files run whole in the fast
tier.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import tier_split

from verify.lowering_file import load_lowering
from verify.refine import prove_one, static_checks
from verify.target import FeatureLog, resolve_all

ROOT = Path(__file__).resolve().parent.parent
WAIT = re.compile(r"^\s*(s_nop|s_wait_alu|s_waitcnt\w*|s_wait_\w+)\b")
FINDING = re.compile(r"warning: (hazard \(|.*before the DS result|.*still outstanding)")

# (file, mutant) proved while a finding remains: the checker showed that the
# value the wait guards reaches no output; why, as `reason` reads it from what
# the proof consulted:
KEPT = "kept-lanes"  # the DPP keeps lanes of a destination written in the window; unknown there, they reach no output
NO_READ = "no-read"  # the DPP writes every lane and reads no register the window covers: nothing unknown is read

# The identity fill `v_mov_b32 v4, 1` right before `v_mov_b32_dpp v4, v1 ...`
# in the gfx9 mul reductions (no DPP multiply: a DPP move, then v_mul_lo_u32),
# its `s_nop 1` made `s_nop 0`: v1 is then 2 wait states back, v4 1, so
# either the DPP writes every lane (quad_perm, mirrors in whole-wave mode), or
# the lanes it keeps (lane 0 of a row after row_shr:1, ...) feed only lanes
# whose products never reach lane 63, the one v_readlane reads; the scans built
# the same way read every lane and are refuted.  (Deleting the `s_nop 1`
# leaves v1 1 wait state back: refuted since the search goes back per
# register; it proved before, red team issue #30.)
HARMLESS: dict[tuple[str, str], str] = {
    ("lowerings/scan/reduce_aco_mul_gfx9.s", "short L16"): NO_READ,
    ("lowerings/scan/reduce_aco_mul_gfx9.s", "short L20"): NO_READ,
    ("lowerings/scan/reduce_aco_mul_gfx9.s", "short L24"): NO_READ,
    ("lowerings/scan/reduce_aco_mul_gfx9.s", "short L28"): NO_READ,
    ("lowerings/scan/reduce_aco_mul_gfx9.s", "short L32"): KEPT,
    ("lowerings/scan/reduce_aco_mul_gfx9.s", "short L36"): KEPT,
    ("lowerings/scan/reduce_all_mul_gfx9.s", "short L17"): NO_READ,
    ("lowerings/scan/reduce_all_mul_gfx9.s", "short L21"): NO_READ,
    ("lowerings/scan/reduce_all_mul_gfx9.s", "short L25"): NO_READ,
    ("lowerings/scan/reduce_all_mul_gfx9.s", "short L29"): NO_READ,
    ("lowerings/scan/reduce_mul_gfx9.s", "short L16"): KEPT,
    ("lowerings/scan/reduce_mul_gfx9.s", "short L20"): KEPT,
    ("lowerings/scan/reduce_mul_gfx9.s", "short L24"): KEPT,
    ("lowerings/scan/reduce_mul_gfx9.s", "short L28"): KEPT,
    ("lowerings/scan/reduce_mul_gfx9.s", "short L32"): KEPT,
    ("lowerings/scan/reduce_mul_gfx9.s", "short L36"): KEPT,
}


def wait_files() -> list[Path]:
    out = []
    for p in sorted((ROOT / "lowerings").rglob("*.s")):
        if "_gen" in p.parts:
            continue
        if any(WAIT.match(line) for line in p.read_text().splitlines()):
            out.append(p)
    return out


def _shorter(line: str) -> str | None:
    """The wait made shorter by one step, or None."""
    m = re.match(r"^(\s*s_nop\s+)(\S+)(.*)$", line)
    if m:
        n = int(m.group(2), 0)
        return f"{m.group(1)}{n - 1}{m.group(3)}" if 0 < n <= 7 else None
    m = re.match(r"^(.*lgkmcnt\(\s*)(\d+)(\s*\).*)$", line)
    if m:
        return f"{m.group(1)}{int(m.group(2)) + 1}{m.group(3)}"
    m = re.match(r"^(\s*s_wait_dscnt\s+)(\d+)(.*)$", line)
    if m:
        return f"{m.group(1)}{int(m.group(2)) + 1}{m.group(3)}"
    m = re.match(r"^(\s*s_waitcnt_lgkmcnt\s+null\s*,\s*)(\d+)(.*)$", line)
    if m:
        return f"{m.group(1)}{int(m.group(2)) + 1}{m.group(3)}"
    return None


def mutants(path: Path) -> list[tuple[str, str]]:
    """(name, text): 'del L12' (line 12 deleted), 'short L12' (made shorter)."""
    lines = path.read_text().splitlines(keepends=True)
    out = []
    for k, line in enumerate(lines):
        if not WAIT.match(line):
            continue
        out.append((f"del L{k + 1}", "".join(lines[:k] + ["\n"] + lines[k + 1:])))
        s = _shorter(line.rstrip("\n"))
        if s is not None:
            out.append((f"short L{k + 1}", "".join(lines[:k] + [s + "\n"] + lines[k + 1:])))
    return out


def judge(path: Path, text: str) -> tuple[str, list[str], set[str]]:
    """("refuted" | "proved" | "unknown", the hazard/wait findings, the
    assumptions the proofs consulted) of one mutant over every declared
    (target, wave); stops at the first instantiation that is not proved.
    Targets whose consulted features agree share a solver run, as `verify
    lowering` does."""
    low = load_lowering(path, text)
    findings: list[str] = []
    used: set[str] = set()
    for wave in low.waves:
        done: list[FeatureLog] = []
        for t in resolve_all(low.targets):
            if wave not in t.waves:
                continue
            findings += [str(w) for w in static_checks(low, t, wave) if FINDING.search(str(w))]
            if any(fl.agrees(t) for fl in done):
                continue
            res, fl = prove_one(low, t, wave, want_cex=False)
            used |= set(res.assumptions)
            if res.verdict != "proved":
                return res.verdict, findings, used
            done.append(fl)
    return "proved", findings, used


def reason(used: set[str]) -> str:
    return KEPT if "hazard.kept_lanes" in used else NO_READ


def sweep(paths: list[Path]) -> dict[str, list[tuple[str, str, str]]]:
    """Mutants by outcome: 'refuted' (or unknown), 'unguarded' (proved, no
    finding left), 'harmless' (proved with a finding: must be in HARMLESS,
    with the reason the proof shows)."""
    out: dict[str, list[tuple[str, str, str]]] = {"refuted": [], "unguarded": [], "harmless": []}
    for p in paths:
        rel = str(p.relative_to(ROOT))
        for name, text in mutants(p):
            verdict, findings, used = judge(p, text)
            kind = "refuted" if verdict != "proved" else "harmless" if findings else "unguarded"
            out[kind].append((rel, name, reason(used) if kind == "harmless" else ""))
    return out


def check(paths: list[Path]) -> dict[str, list[tuple[str, str, str]]]:
    res = sweep(paths)
    wrong = [m for m in res["harmless"] if HARMLESS.get((m[0], m[1])) != m[2]]
    assert wrong == [], f"proved with a hazard or wait finding left, not so in HARMLESS: {wrong}"
    return res


FAST = ["lowerings/xor/xor9.s", "lowerings/shuffle/shfl_idx_var.s", "lowerings/bcast/bcast16_swizzle.s",
        "lowerings/permlane/xor32_permlane32_swap.s"]


@pytest.mark.slow
def test_mutants_fast_subset():
    res = check([ROOT / f for f in FAST])
    assert len(res["refuted"]) >= 3


def test_mutant_kinds():
    text = "s_nop 1\n s_waitcnt lgkmcnt(0)\ns_wait_dscnt 1\ns_wait_alu depctr_va_sdst(0)\ns_nop 0\n"
    assert [_shorter(t) for t in text.splitlines()] == ["s_nop 0", " s_waitcnt lgkmcnt(1)", "s_wait_dscnt 2",
                                                         None, None]


def first_mutant(path: Path) -> list[tuple[str, str]]:
    """The slow tier's share of a file's mutants: its first wait deleted."""
    return mutants(path)[:1]


# every twelfth wait file in the slow tier, the rest in the corpus tier (every
# fourth cost 134 s of CPU in CI, 2026-11-30; every eighth 41 s in the slow
# tier, 2026-12-01)
@pytest.mark.parametrize("rel", tier_split([str(p.relative_to(ROOT)) for p in wait_files()], 12))
def test_every_catalogue_wait_file_first_wait_is_needed_or_provably_harmless(rel):
    """Every catalogue file with a wait, its first wait deleted (one file per
    test, so the workers share them).  The whole sweep, every wait of every
    file deleted and shortened, is benchmarks/bench_hazard_mutants.py: it
    takes ~25 minutes on 2 cores, past the CI budget."""
    path = ROOT / rel
    for name, text in first_mutant(path):
        verdict, findings, used = judge(path, text)
        if verdict == "proved" and findings:
            assert HARMLESS.get((rel, name)) == reason(used), (rel, name, findings)
