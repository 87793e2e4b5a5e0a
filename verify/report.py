"""`verify check --html DIR`: a static report of a check (no server).

``DIR/index.html`` holds one row per (lowering, target, wave) record of the
check: the verdict (the record's, or what a proof gives now for a stale or
missing one), the spec, the assumptions and the method the record names,
and for every instantiation that is not proved links to its
counterexample's lane-flow picture (verify.svg) and lane table
(``DIR/cex/*.svg``, ``*.txt``).  The files hold no times (how long a proof
took is not a property of the code), so the same check writes the same bytes.  Three selects filter the rows
by target, spec and verdict (plain JavaScript, no library); the counts
above the table are those of ``verify check --json``'s ``summary`` and
follow the filter.  This module decides nothing: the verdicts are the
check's.
"""

from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import catalog
from .diag import InputError, VerifyError
from .lanes import fmt_mask
from .refine import Result, check_lowering
from .svg import result_svg
from .target import resolve

if TYPE_CHECKING:  # annotations only: the check's module loads with its command
    from .gate import Entry, Report


def _record(e: Entry, cache: dict[str, Any]) -> dict[str, Any]:
    """The record of `e` in its record file ({} if there is none)."""
    if e.record not in cache:
        p = Path(e.record)
        try:
            cache[e.record] = json.loads(p.read_text()) if p.is_file() else {}
        except (OSError, ValueError):
            cache[e.record] = {}
    doc = cache[e.record]
    return next((r for r in doc.get("records", []) if e.target in r.get("targets", []) and r.get("wave") == e.wave),
                {})


def category(e: Entry) -> str:
    """The key `Report.counts()` counts `e` under (Entry.kind: its verdict if
    current, "refuted" where a stale or missing record's fresh proof is)."""
    return e.kind()


def _now(e: Entry) -> str | None:
    """The verdict a proof gives now: the record's if current, else the fresh one."""
    return e.verdict if e.status in ("current", "written") else e.reproved


def _slug(e: Entry) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{Path(e.lowering).stem}.{e.target}.w{e.wave}")


def _counterexample(e: Entry, timeout: float, out: Path) -> tuple[Result | None, str]:
    """Prove `e`'s instantiation again for its counterexample: write its
    picture and lane table under `out`; (result, file stem)."""
    low = catalog.load(e.lowering)
    assert e.target is not None and e.wave is not None
    (r,) = check_lowering(low, resolve(e.target), [e.wave], timeout)
    stem = _slug(e)
    lines = [f"{low.name}: {catalog.spec_text(low)}  ({e.lowering})", f"  {r.verdict} for {r.scope()}",
             *r.detail_lines(low, notes=True)]
    (out / f"{stem}.txt").write_text("\n".join(lines) + "\n")
    if r.cex is not None and r.cex.rows:
        (out / f"{stem}.svg").write_text(result_svg(low, [r], {}))
    return r, stem


_STYLE = """
body { font-family: sans-serif; font-size: 14px; margin: 1.5em; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f4f4f4; }
td.v { font-weight: bold; }
td.proved { background: #dff3df; } td.refuted { background: #f9d6d5; } td.unknown { background: #fdf1c7; }
td.stale, td.missing, td.orphan, td.differs { background: #e4e4f7; }
.counts span { margin-right: 1.2em; }
label { margin-right: 1em; }
code { font-size: 12px; }
"""

_SCRIPT = """
(function () {
  var sels = ["target", "spec", "verdict"].map(function (k) { return document.getElementById("f-" + k); });
  var rows = Array.prototype.slice.call(document.querySelectorAll("tbody tr"));
  function apply() {
    var counts = {};
    rows.forEach(function (tr) {
      var ok = sels.every(function (s) { return s.value === "" || tr.dataset[s.id.slice(2)] === s.value; });
      tr.hidden = !ok;
      if (ok) { counts[tr.dataset.verdict] = (counts[tr.dataset.verdict] || 0) + 1; }
    });
    document.querySelectorAll(".counts span").forEach(function (sp) {
      var n = counts[sp.dataset.key] || 0;
      sp.querySelector("b").textContent = String(n);
    });
    document.getElementById("shown").textContent = String(rows.filter(function (tr) { return !tr.hidden; }).length);
  }
  sels.forEach(function (s) { s.addEventListener("change", apply); });
  apply();
})();
"""


def _select(key: str, values: list[str]) -> str:
    opts = "".join(f'<option value="{escape(v)}">{escape(v)}</option>' for v in values)
    return f'<label>{key} <select id="f-{key}"><option value="">(all)</option>{opts}</select></label>'


def check_dir(directory: str) -> None:
    """Refuse `directory` before the check runs when write_html could not
    write into it: its index.html a directory, its cex/ a file (the directory
    itself: diag.check_output)."""
    root = Path(directory)
    if (root / "index.html").is_dir():
        raise InputError(None, f"cannot write {root / 'index.html'}: it is a directory")
    cex = root / "cex"
    if (cex.exists() or cex.is_symlink()) and not cex.is_dir():
        raise InputError(None, f"cannot write into {cex}: it is not a directory")


def write_html(report: Report, directory: str, timeout: float = 30.0) -> list[str]:
    """Write the report into `directory` (created if absent; its parent must
    exist); returns the files written, index.html first."""
    root = Path(directory)
    root.mkdir(exist_ok=True)
    cdir = root / "cex"
    cdir.mkdir(exist_ok=True)
    written = [root / "index.html"]
    cache: dict[str, Any] = {}
    rows: list[str] = []
    targets: set[str] = set()
    specs: set[str] = set()
    cats: dict[str, int] = {}
    runs: dict[tuple[str, int | None, tuple[str, ...]], tuple[Result | None, str]] = {}
    for e in report.entries:
        rec = _record(e, cache)
        doc = cache.get(e.record, {})
        spec = doc.get("spec", "")
        if not spec and e.target is not None:
            try:
                spec = catalog.spec_text(catalog.load(e.lowering))
            except VerifyError:  # a file that no longer loads: the check says why
                spec = ""
        cat = category(e)
        cats[cat] = cats.get(cat, 0) + 1
        where = "(record file)" if e.target is None else f"{e.target} wave{e.wave}"
        targets.add(e.target or "")
        specs.add(spec)
        assumptions = ", ".join(f"{k}={v}" for k, v in sorted(rec.get("assumptions", {}).items())) or "none"
        now = _now(e)
        status = "" if e.status in ("current", "written") else f"{e.status}; proved now: {now or '-'}"
        links = ""
        if e.target is not None and now in ("refuted", "unknown"):
            # targets that share a record share its solver run: prove it once
            key = (e.lowering, e.wave, tuple(rec.get("targets", [e.target])))
            if key not in runs:
                runs[key] = _counterexample(e, timeout, cdir)
            r, stem = runs[key]
            if r is not None:
                parts = [f'<a class="table" href="cex/{stem}.txt">lane table</a>']
                if r.cex is not None and r.cex.rows:
                    parts.insert(0, f'<a class="svg" href="cex/{stem}.svg">picture</a>')
                    parts.append(f"EXEC {fmt_mask(r.cex.exec_mask, r.wave)}")
                links = " ".join(parts)
        failing = "; ".join(e.failing)
        rows.append(
            f'<tr data-target="{escape(e.target or "")}" data-spec="{escape(spec)}" data-verdict="{escape(cat)}">'
            f"<td><code>{escape(e.lowering)}</code></td><td>{escape(where)}</td>"
            f'<td class="v {escape(cat)}">{escape(cat)}</td><td>{escape(status)}</td>'
            f"<td><code>{escape(spec)}</code></td><td>{escape(assumptions)}</td>"
            f"<td>{escape(rec.get('method', ''))}</td>"
            f"<td>{escape(failing)}{' ' if failing and links else ''}{links}</td></tr>")
    order = ["proved", "refuted", "unknown", "stale", "missing", "orphan", "differs", "removed"]
    keys = [k for k in order if k in cats or k in ("proved", "refuted", "unknown")]
    keys += sorted(k for k in cats if k not in keys)
    counts = "".join(f'<span data-key="{k}"><b>{cats.get(k, 0)}</b> {k}</span>' for k in keys)
    title = f"verify check: {report.lowerings} lowerings, {len(report.entries)} records"
    page = "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p>{escape(report.summary())}</p>",
        f'<p class="counts">{counts} (<b id="shown">{len(rows)}</b> rows shown)</p>',
        "<p>" + _select("target", sorted(targets)) + _select("spec", sorted(specs))
        + _select("verdict", keys) + "</p>",
        "<table><thead><tr><th>lowering</th><th>target</th><th>verdict</th><th>status</th><th>spec</th>"
        "<th>assumptions</th><th>method</th><th>counterexample</th></tr></thead>",
        "<tbody>", *rows, "</tbody></table>",
        f"<script>{_SCRIPT}</script>",
        "</body></html>", ""])
    (root / "index.html").write_text(page)
    return [str(p) for p in written] + sorted(str(p) for p in cdir.iterdir())
