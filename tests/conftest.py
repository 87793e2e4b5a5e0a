"""Test tiers and golden files.

Tiers (markers registered in pyproject.toml):
  python -m pytest -n auto          the fast tier: every test not marked `slow`
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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not (config.getoption("--corpus") or "corpus" in (config.option.markexpr or "")):
        corpus = [i for i in items if i.get_closest_marker("corpus") and not _named(i, config)]
        if corpus:
            config.hook.pytest_deselected(items=corpus)
            items[:] = [i for i in items if i not in corpus]
    if config.getoption("--slow") or config.option.markexpr:
        return
    keep: list[pytest.Item] = []
    slow: list[pytest.Item] = []
    for item in items:
        (slow if item.get_closest_marker("slow") and not _named(item, config) else keep).append(item)
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = keep


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """True under `--update-golden`: rewrite golden files instead of failing."""
    return bool(request.config.getoption("--update-golden"))
