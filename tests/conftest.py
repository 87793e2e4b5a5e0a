"""Test tiers and golden files.

Tiers (markers registered in pyproject.toml):
  python -m pytest -n auto          the fast tier: every test not marked `slow` (a catalogue
                                    sweep, or a test over about 0.6 s of CPU: docs/ci.md)
  python -m pytest -n auto --slow   everything (what .ci/run runs, in two steps)
  python -m pytest -n auto -m slow  the slow tier alone
  python -m pytest -n auto -m corpus  the tv corpus matrix (tests/test_tv_corpus.py: every
                                    kernel x target x wave x compiler) and the part of the
                                    catalogue sweeps the slow tier's sample leaves out
                                    (tests/helpers.py, tier_split; in no other tier)
An explicit `-m EXPR` replaces the default selection, and a test named by its
node id (`tests/test_x.py::test_y`) runs even if it is slow.

`--update-golden` rewrites the golden transcripts (tests/golden/**/*.out and
the README's `$ verify ...` examples, tests/test_golden.py) instead of failing.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# Deterministic in CI: derandomised Hypothesis (the solver seed is fixed in
# verify/smt/terms.py).
settings.register_profile("ci", derandomize=True, deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, max_examples=60)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("verify")
    group.addoption("--slow", action="store_true", default=False,
                    help="also run the tests marked slow (the full tier)")
    group.addoption("--corpus", action="store_true", default=False,
                    help="also run the tests marked corpus (every tv kernel on every target and wave, both compilers)")
    group.addoption("--update-golden", action="store_true", default=False,
                    help="rewrite golden transcripts (tests/golden/**/*.out, README examples) instead of failing")


def pytest_configure(config: pytest.Config) -> None:
    """Hundreds of tests run `python -m verify` in a subprocess. Where the
    environment says PYTHONDONTWRITEBYTECODE, each of them would compile the
    whole package from source again (0.4 s of a 1 s run); instead they share
    bytecode kept under .pytest_cache, and the source tree stays untouched.
    Set here, on the controller, before xdist starts its workers."""
    if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
        prefix = config.rootpath / ".pytest_cache" / "pycache"
        prefix.mkdir(parents=True, exist_ok=True)
        os.environ["PYTHONPYCACHEPREFIX"] = str(prefix)
        del os.environ["PYTHONDONTWRITEBYTECODE"]


def _named(item: pytest.Item, config: pytest.Config) -> bool:
    """Whether the command line names this test by its node id."""
    ids = [a for a in config.args if "::" in a]
    if not ids:
        return False
    here = item.nodeid
    for a in ids:
        path, _, rest = a.partition("::")
        rel = os.path.relpath(os.path.abspath(path), config.rootpath)
        arg = f"{rel}::{rest}".replace(os.sep, "/")
        if here == arg or here.startswith((arg + "::", arg + "[")):
            return True
    return False


# The slow tier's longest tests (over about 10 s of CPU each in CI's log,
# 2026-11-30), longest first.  They run first: pytest-xdist hands the first
# quarter of the tests out round robin and the rest to whichever worker is
# free, so a long test at the end of the order would leave the other worker
# idle for its whole length.  Only the order changes, never what runs.
HEAVY_FIRST = (
    "tests/test_tv_cf.py::test_a_named_hazard_assumption_is_honoured_and_named",
    "tests/test_closed_loop.py::test_emitted_ir_is_proved_by_tv_llvmlite_sample",
    "tests/test_tv_shape_agg.py::test_closed_loop_nondeterminism",
    "tests/test_tv_sici.py::test_ci_swizzle_mutants_are_not_proved",
    "tests/test_tv_shape_half.py::test_fma_to_mad_is_refuted_where_denormals_are_kept",
    "tests/test_same_answer.py::test_golden_lowerings_answer_the_same_in_either_order",
    "tests/test_synth_bound.py::test_synth_max_ops_4_claims_the_bound_over_every_control_and_mask",
    "tests/test_tv_shape_atomics.py::test_a_mutant_wrong_only_with_lane_31_active_is_unknown_after_an_order_free_recheck",
    "tests/test_tv_shape_wide.py::test_gfx8_carry_mutant_subtracting_the_high_half_is_refuted",
    "tests/gpu/test_cuda_h100_prims.py::test_groups_partitions_and_matches_agree_with_the_specs",
    "tests/test_semantics_agree.py::test_concrete_and_symbolic_agree",
    "tests/test_catalog.py::test_catalogue_lowering_is_proved[fns_prev_gcn]",
    "tests/test_synth_robust.py::test_table_entries_record_what_they_rely_on",
    "tests/test_emit.py::test_catalogue_emits_compiles_and_reverifies_for_every_target[ci-2]",
    "tests/test_emit.py::test_catalogue_emits_compiles_and_reverifies_for_every_target[ci-6]",
    "tests/test_cuda_fns.py::test_fns_prev_without_the_none_case_is_refuted",
    "tests/test_html_report.py::test_a_thousand_lowerings",
    "tests/test_closed_loop.py::test_emitted_ir_is_proved_by_tv_llc_sample",
    "tests/test_catalog.py::test_catalogue_lowering_is_proved[fns_next_gcn]",
    "tests/test_tv_shape_atomics.py::test_dpp_strategy_mutants_are_refuted",
    "tests/test_emit.py::test_catalogue_emits_compiles_and_reverifies_for_every_target",
    "tests/test_cause_masks.py::test_a_kernels_s_xor_made_s_and_is_named",
    "tests/test_closed_loop.py::test_synth_winners_emitted_are_proved_by_tv_sample",
)


def _heavy_rank(item: pytest.Item) -> int:
    for k, prefix in enumerate(HEAVY_FIRST):
        if item.nodeid == prefix or item.nodeid.startswith(prefix + "["):
            return k
    return len(HEAVY_FIRST)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not (config.getoption("--corpus") or "corpus" in (config.option.markexpr or "")):
        corpus = {id(i) for i in items if i.get_closest_marker("corpus") and not _named(i, config)}
        if corpus:
            config.hook.pytest_deselected(items=[i for i in items if id(i) in corpus])
            items[:] = [i for i in items if id(i) not in corpus]
    if not (config.getoption("--slow") or config.option.markexpr):
        keep: list[pytest.Item] = []
        slow: list[pytest.Item] = []
        for item in items:
            (slow if item.get_closest_marker("slow") and not _named(item, config) else keep).append(item)
        if slow:
            config.hook.pytest_deselected(items=slow)
            items[:] = keep
    items.sort(key=_heavy_rank)  # stable: every other test keeps its place


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """True under `--update-golden`: rewrite golden files instead of failing."""
    return bool(request.config.getoption("--update-golden"))
