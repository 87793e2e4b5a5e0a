"""`verify prove` and `verify check`: proof records and the CI gate."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from .. import gate
from ..report import check_dir as check_html_dir
from ..report import write_html as report_html
from ..summary import counts
from ..summary import line as summary_line
from .common import check_jobs, dump, print_lines, progress, shared, writable, write


def cmd_prove(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    writable(args.smt2, "--smt2", directory=True)
    with progress(err, "prove", steps=True) as tick:
        report = gate.prove(args.paths, check_jobs(args.jobs), args.timeout, args.force, bool(args.smt2), tick,
                            args.builtin)
    for w in report.warnings:
        print(w, file=err)
    if args.smt2:
        gate.write_files(args.smt2, report.smt2_tree())
    for line in report.lines():
        print(line, file=out)
    print(report.summary(), file=out)
    print(summary_line(_gate_counts(report)), file=out)
    return report.exit_code()


def _gate_counts(report: Any) -> dict[str, int]:
    """A prove/check report's Summary counts: one per instantiation, by its
    record's verdict, or "refuted" where a stale or missing record's fresh
    proof is refuted; any other stale, missing, orphan or differing record
    (an orphan record file too) is an error."""
    return counts(e.kind() for e in report.entries if e.status != "removed")


def cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    writable(args.junit, "--junit")
    writable(args.html, "--html", directory=True)
    if args.html is not None:
        check_html_dir(args.html)
    shard = gate.parse_shard(args.shard) if args.shard is not None else None
    jobs = check_jobs(args.jobs)
    with progress(err, "check", not args.json, steps=True) as tick:
        report = gate.check(args.paths, jobs, args.timeout, shard, args.full, args.allow_unknown, tick,
                            args.since, args.builtin)
    if args.junit:
        write(args.junit, report.junit())
    if args.html:
        report_html(report, args.html, args.timeout)
    if args.json:
        js = report.to_json()
        code = report.exit_code()
        results = [{"lowering": r["lowering"], "target": r["target"], "wave": r["wave"], "verdict": e.kind(),
                    "scope": f"{r['target']} wave{r['wave']}" if r["target"] else None, "counterexample": None,
                    "problem": r["problem"], "record": r["record"]} for e, r in zip(report.entries, js["records"])]
        verdict = {0: "proved", 3: "unknown"}.get(code) or ("refuted" if any(r["verdict"] == "refuted" for r in results)
                                                            else "error")
        return dump(shared("check", {**js, "kinds": js["summary"]}, results, _gate_counts(report), verdict), out, code)
    print_lines([*report.lines(), report.summary(), summary_line(_gate_counts(report))], out)
    return report.exit_code()

