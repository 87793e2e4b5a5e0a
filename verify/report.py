"""`verify check --html DIR`: a static report of a check (no server).

``DIR/index.html`` holds one row per lowering, failures first: its worst
verdict, its (target, wave) records folded by wave and verdict (the
record's verdict, or what a proof gives now for a stale or missing one),
the spec, the assumptions and the methods the records name.  A failing
lowering's counterexamples (lane table and lane-flow picture, verify.svg)
follow its row inline in a <details>, so the page is one self-contained,
offline file; they are also written as ``DIR/cex/*.txt`` and ``*.svg``.
The files hold no times (how long a proof took is not a property of the
code), so the same check writes the same bytes.  A text box and three
selects (target, spec, verdict) filter the records (plain JavaScript, no
library); the counts above the table are those of ``verify check
--json``'s ``summary`` and follow the filter.  This module decides
nothing: the verdicts are the check's.
"""

from __future__ import annotations

import base64
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
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
col.c-low { width: 22%; } col.c-v { width: 6%; } col.c-t { width: 30%; } col.c-spec { width: 16%; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f4f4f4; position: sticky; top: 0; }
td.v { font-weight: bold; }
td { overflow-wrap: anywhere; }
.proved { background: #dff3df; } .refuted { background: #f9d6d5; } .unknown { background: #fdf1c7; }
.stale, .missing, .orphan, .differs, .removed { background: #e4e4f7; }
span.t { display: inline-block; margin: 1px 4px 1px 0; padding: 0 4px; border-radius: 3px; }
tr.cex td { background: #fffaf9; }
tr.cex pre { font-size: 12px; overflow-x: auto; }
tr.cex img { max-width: 100%; }
.counts span { margin-right: 1.2em; }
label { margin-right: 1em; }
input#f-text { width: 22em; }
code { font-size: 12px; }
"""

_SCRIPT = """
(function () {
  var sels = ["target", "spec", "verdict"].map(function (k) { return document.getElementById("f-" + k); });
  var text = document.getElementById("f-text");
  var rows = Array.prototype.slice.call(document.querySelectorAll("tbody tr.low"));
  var recs = rows.map(function (tr) {
    return tr.dataset.recs.split(" ").map(function (r) { var p = r.split("/"); return {t: p[0], v: p[2]}; });
  });
  function apply() {
    var t = sels[0].value, sp = sels[1].value, v = sels[2].value, q = text.value.trim().toLowerCase();
    var counts = {}, shown = 0;
    rows.forEach(function (tr, k) {
      var hit = recs[k].filter(function (r) { return (t === "" || r.t === t) && (v === "" || r.v === v); });
      var ok = hit.length > 0 && (sp === "" || tr.dataset.spec === sp) && (q === "" || tr.dataset.search.indexOf(q) >= 0);
      tr.hidden = !ok;
      var d = tr.nextElementSibling;
      if (d && d.classList.contains("cex")) { d.hidden = !ok; }
      if (ok) {
        shown += 1;
        hit.forEach(function (r) { counts[r.v] = (counts[r.v] || 0) + 1; });
      }
    });
    document.querySelectorAll(".counts span").forEach(function (s) {
      s.querySelector("b").textContent = String(counts[s.dataset.key] || 0);
    });
    document.getElementById("shown").textContent = String(shown);
  }
  sels.forEach(function (s) { s.addEventListener("change", apply); });
  text.addEventListener("input", apply);
  apply();
})();
"""

# a lowering's row sorts by its worst record: failures first
_SEVERITY = ["refuted", "unknown", "differs", "stale", "missing", "orphan", "removed", "proved"]


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


def _targets_cell(recs: list[tuple[str, int | None, str]]) -> str:
    """A lowering's records folded: per wave and verdict, its targets."""
    groups: dict[tuple[str, str], list[str]] = {}
    for target, wave, cat in recs:
        key = ("(record file)" if wave is None else f"wave{wave}", cat)
        groups.setdefault(key, []).append(target or "")
    order = sorted(groups, key=lambda k: (_SEVERITY.index(k[1]) if k[1] in _SEVERITY else 0, k[0]))
    return "".join(f'<span class="t {escape(cat)}">{escape(w)} {escape(cat)}: {escape(", ".join(groups[(w, cat)]))}</span>'
                   for w, cat in order)


def write_html(report: Report, directory: str, timeout: float = 30.0) -> list[str]:
    """Write the report into `directory` (created if absent; its parent must
    exist); returns the files written, index.html first.

    One row per lowering, its records (target, wave) folded into it, the
    failing ones first; a failing lowering's row is followed by its
    counterexamples (lane table and picture, inline: the page is one
    self-contained file), folded in a <details>.  The counts are of records,
    as ``verify check --json``'s ``summary``; the filters (text, target,
    spec, verdict) select records, and a row shows while one of its records
    is selected."""
    root = Path(directory)
    root.mkdir(exist_ok=True)
    cdir = root / "cex"
    cdir.mkdir(exist_ok=True)
    written = [root / "index.html"]
    cache: dict[str, Any] = {}
    targets: set[str] = set()
    specs: set[str] = set()
    cats: dict[str, int] = {}
    runs: dict[tuple[str, int | None, tuple[str, ...]], tuple[Result | None, str]] = {}
    groups: dict[str, dict[str, Any]] = {}
    for e in report.entries:
        rec = _record(e, cache)
        doc = cache.get(e.record, {})
        g = groups.setdefault(e.lowering, {"spec": "", "recs": [], "assumptions": set(), "methods": set(),
                                           "notes": [], "cex": []})
        spec = doc.get("spec", "")
        if not spec and e.target is not None and not g["spec"]:
            try:
                spec = catalog.spec_text(catalog.load(e.lowering))
            except VerifyError:  # a file that no longer loads: the check says why
                spec = ""
        g["spec"] = g["spec"] or spec
        cat = category(e)
        cats[cat] = cats.get(cat, 0) + 1
        targets.add(e.target or "")
        g["recs"].append((e.target, e.wave, cat))
        g["assumptions"] |= {f"{k}={v}" for k, v in rec.get("assumptions", {}).items()}
        if rec.get("method"):
            g["methods"].add(rec["method"])
        now = _now(e)
        where = "(record file)" if e.target is None else f"{e.target} wave{e.wave}"
        if e.status not in ("current", "written"):
            g["notes"].append(f"{where}: {e.status}; proved now: {now or '-'}")
        if e.failing:
            g["notes"].append(f"{where}: not proved: {'; '.join(e.failing)}")
        if e.target is not None and now in ("refuted", "unknown"):
            # targets that share a record share its solver run: prove it once
            key = (e.lowering, e.wave, tuple(rec.get("targets", [e.target])))
            if key not in runs:
                runs[key] = _counterexample(e, timeout, cdir)
                r, stem = runs[key]
                g["cex"].append((where, key[2], r, stem))
    for g in groups.values():
        specs.add(g["spec"])
        g["worst"] = min((c for _, _, c in g["recs"]), key=lambda c: _SEVERITY.index(c) if c in _SEVERITY else 0)
    order = sorted(groups, key=lambda k: (_SEVERITY.index(groups[k]["worst"]) if groups[k]["worst"] in _SEVERITY
                                          else 0, k))
    rows: list[str] = []
    for path in order:
        g = groups[path]
        recs = " ".join(f"{t or '-'}/{w if w is not None else '-'}/{c}" for t, w, c in g["recs"])
        search = f"{path} {g['spec']} {' '.join(t or '' for t, _, _ in g['recs'])}".lower()
        cexs = []
        for where, shared, r, stem in g["cex"]:
            if r is None:
                continue
            table = (cdir / f"{stem}.txt").read_text()
            head = f"{where}" + (f" (one record with {', '.join(shared)})" if len(shared) > 1 else "")
            if r.cex is not None and r.cex.rows:
                head += f", EXEC {fmt_mask(r.cex.exec_mask, r.wave)}"
            pic = ""
            svg = cdir / f"{stem}.svg"
            if svg.is_file():
                data = base64.b64encode(svg.read_bytes()).decode("ascii")
                pic = (f'<p><a class="svg" href="cex/{stem}.svg">picture</a></p>'
                       f'<img alt="lane-flow picture of the counterexample" src="data:image/svg+xml;base64,{data}">')
            cexs.append(f'<details><summary>counterexample: {escape(head)}</summary>'
                        f'<p><a class="table" href="cex/{stem}.txt">lane table</a></p>'
                        f"<pre>{escape(table)}</pre>{pic}</details>")
        notes = "<br>".join(escape(n) for n in g["notes"])
        rows.append(
            f'<tr class="low" data-spec="{escape(g["spec"])}" data-recs="{escape(recs)}" '
            f'data-worst="{escape(g["worst"])}" data-search="{escape(search)}">'
            f"<td><code>{escape(path)}</code></td>"
            f'<td class="v {escape(g["worst"])}">{escape(g["worst"])}</td>'
            f"<td>{_targets_cell(g['recs'])}</td>"
            f"<td><code>{escape(g['spec'])}</code></td>"
            f"<td>{escape(', '.join(sorted(g['assumptions'])) or 'none')}</td>"
            f"<td>{escape(', '.join(sorted(g['methods'])))}</td><td>{notes}</td></tr>")
        if cexs:
            rows.append(f'<tr class="cex"><td colspan="7">{"".join(cexs)}</td></tr>')
    keys = [k for k in _SEVERITY if k in cats or k in ("proved", "refuted", "unknown")]
    keys += sorted(k for k in cats if k not in keys)
    counts = "".join(f'<span data-key="{k}" class="{k}"><b>{cats.get(k, 0)}</b> {k}</span>' for k in keys)
    title = f"verify check: {report.lowerings} lowerings, {len(report.entries)} records"
    page = "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p>{escape(report.summary())}</p>",
        f'<p class="counts">{counts} (<b id="shown">{len(groups)}</b> of {len(groups)} lowerings shown; '
        "failures first)</p>",
        '<p><label>filter <input id="f-text" type="search" placeholder="lowering, spec or target"></label>'
        + _select("target", sorted(targets)) + _select("spec", sorted(specs)) + _select("verdict", keys) + "</p>",
        '<table><colgroup><col class="c-low"><col class="c-v"><col class="c-t"><col class="c-spec"><col><col><col>'
        "</colgroup><thead><tr><th>lowering</th><th>verdict</th><th>targets and waves</th><th>spec</th>"
        "<th>assumptions</th><th>method</th><th>notes</th></tr></thead>",
        "<tbody>", *rows, "</tbody></table>",
        f"<script>{_SCRIPT}</script>",
        "</body></html>", ""])
    (root / "index.html").write_text(page)
    return [str(p) for p in written] + sorted(str(p) for p in cdir.iterdir())
