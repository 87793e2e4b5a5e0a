"""ARCHITECTURE.md's claims, held to the code: its layer diagram lists every
module of verify/ once, no module imports from a layer above its own, its
module table names every module, and the commits its recipes cite exist."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from test_imports import graph

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "ARCHITECTURE.md").read_text()
UNIT = re.compile(r"(?<![\w/.])([a-z_0-9]+\.py|[a-z_0-9]+/)(?=[\s(]|$)")


def units() -> list[str]:
    """verify's top-level modules and subpackages, as the diagram names them."""
    pkg = ROOT / "verify"
    mods = [p.name for p in pkg.glob("*.py") if p.name not in ("__init__.py", "__main__.py")]
    return sorted(mods + [p.name + "/" for p in pkg.iterdir() if (p / "__init__.py").is_file()])


def layers() -> list[list[str]]:
    """The diagram's layers, top first, each the units it names."""
    block = DOC.split("## Layers", 1)[1].split("```", 2)[1]
    out: list[list[str]] = [[]]
    for line in block.splitlines():
        if line.strip().startswith("─"):
            out.append([])
            continue
        out[-1] += UNIT.findall(line)
    return [layer for layer in out if layer]


def unit_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return ""
    sub = parts[1]
    return sub + "/" if (ROOT / "verify" / sub / "__init__.py").is_file() else sub + ".py"


def test_the_diagram_lists_every_module_once() -> None:
    named = [u for layer in layers() for u in layer]
    assert sorted(set(named)) == sorted(named), "named twice: " + ", ".join(sorted({u for u in named if named.count(u) > 1}))
    assert sorted(set(units()) - set(named)) == [], "modules missing from ARCHITECTURE.md's layers"
    assert sorted(set(named) - set(units())) == [], "ARCHITECTURE.md's layers name modules that do not exist"


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    level = {u: k for k, layer in enumerate(layers()) for u in layer}
    edges, _ = graph()
    up = sorted(f"{a} -> {b}" for a, bs in edges.items() for b in bs
                if unit_of(a) in level and unit_of(b) in level and level[unit_of(b)] < level[unit_of(a)])
    assert up == [], "imports from a higher layer (ARCHITECTURE.md, Layers): " + "; ".join(up)


def test_the_module_table_names_every_module() -> None:
    table = DOC.split("## What each module owns", 1)[1].split("\n## ", 1)[0]
    rows = {u for line in table.splitlines() if line.startswith("|")
            for u in UNIT.findall(line.split("|")[1].replace("`", " ").replace(",", " "))}
    assert sorted(set(units()) - rows) == []


def test_the_commits_the_recipes_cite_exist() -> None:
    shas = re.findall(r"[Cc]ommit `([0-9a-f]{7,40})`", DOC)
    assert shas, "ARCHITECTURE.md cites no worked-example commit"
    if subprocess.run(["git", "rev-parse", "--is-shallow-repository"], cwd=ROOT, capture_output=True,
                      text=True).stdout.strip() != "false":
        pytest.skip("a shallow or missing git history cannot show old commits")
    for sha in shas:
        r = subprocess.run(["git", "cat-file", "-t", sha], cwd=ROOT, capture_output=True, text=True)
        assert r.stdout.strip() == "commit", f"ARCHITECTURE.md cites commit {sha}, which does not exist"
