"""The command line.  Each subcommand is ``cmd_x(args, out, err) -> int``.

Exit codes (a fixed interface): 0 all proved / success, 1 something
refuted, 2 usage or input error, 3 unknown (solver timeout or gave up).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, NoReturn, TextIO

from . import catalog
from . import target as T
from .assume import parse_assume
from .diag import InputError, Span, VerifyError, Warning_
from .encode import show_instance, simulate_inputs, simulate_spec, spec_wave
from .lanes import fmt_mask, lane_table, parse_lane_values, parse_mask
from .refine import Result, check_lowering, instantiations, static_checks
from .syntax import parse_param_value
from .target import FEATURES, ORDER, TARGETS, markdown

EXIT_PROVED, EXIT_REFUTED, EXIT_ERROR, EXIT_UNKNOWN = 0, 1, 2, 3


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2
        raise InputError(None, f"{self.prog}: {message}")


def _seconds(text: str) -> float:
    """A solver timeout: a positive number of seconds."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got '{text}'") from None
    if not v > 0 or v != v or v == float("inf"):
        raise argparse.ArgumentTypeError(f"a timeout must be a positive number of seconds, got {text}")
    return v


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="verify", description="Prove AMD GPU cross-lane lowerings against shuffle and reduction specs.")
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND", parser_class=_Parser)

    lo = sub.add_parser("lowering", help="prove a lowering refines its spec")
    lo.add_argument("name", metavar="NAME|PATH")
    lo.add_argument("--wave", type=int, choices=(32, 64))
    lo.add_argument("--target", metavar="GFX", help="a target or family (default: every declared target)")
    lo.add_argument("--timeout", type=_seconds, default=30.0, metavar="S", help="solver timeout per obligation, seconds (default 30)")
    lo.add_argument("--assume", action="append", default=[], metavar="NAME=VARIANT", help="pick a variant of a named assumption")
    lo.add_argument("--robust", action="store_true", help="prove under every variant of every assumption used")
    lo.add_argument("--smt2", metavar="DIR", help="also write every proof obligation to DIR as SMT-LIB 2")
    lo.add_argument("--json", action="store_true")
    lo.add_argument("--times", action="store_true", help="show how long each proof took (JSON: seconds)")

    pv = sub.add_parser("prove", help="prove lowerings and write their proof records (proofs/)")
    pv.add_argument("paths", nargs="*", metavar="PATH", help="lowering files or directories (default: ./lowerings)")
    pv.add_argument("--jobs", "-j", type=int, default=1, metavar="N", help="worker processes (default 1)")
    pv.add_argument("--timeout", type=_seconds, default=30.0, metavar="S", help="solver timeout per obligation, seconds")
    pv.add_argument("--force", action="store_true", help="prove again even where the records are current")
    pv.add_argument("--smt2", metavar="DIR", help="prove everything named and write every obligation to DIR as SMT-LIB 2")

    ck = sub.add_parser("check", help="fail unless every proof record is current and proved (the CI gate)")
    ck.add_argument("paths", nargs="*", metavar="PATH", help="lowering files or directories (default: ./lowerings)")
    ck.add_argument("--jobs", "-j", type=int, default=1, metavar="N", help="worker processes (default 1)")
    ck.add_argument("--timeout", type=_seconds, default=30.0, metavar="S", help="solver timeout per obligation, seconds")
    ck.add_argument("--shard", metavar="I/N", help="check only the I-th of N parts of the lowerings (1 <= I <= N)")
    ck.add_argument("--json", action="store_true", help="a JSON report on stdout")
    ck.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report to FILE")
    ck.add_argument("--allow-unknown", action="store_true", help="let records whose verdict is unknown pass")
    ck.add_argument("--full", action="store_true", help="prove everything again and compare with the records")

    em = sub.add_parser("emit", help="GPU code (LLVM IR, HIP or assembly) from a lowering with a current proof")
    em.add_argument("name", metavar="NAME|PATH")
    em.add_argument("--target", required=True, metavar="GFX", help="one target, e.g. gfx942")
    em.add_argument("--wave", type=int, choices=(32, 64), required=True)
    em.add_argument("--format", choices=("llvm", "hip", "asm"), default="llvm")
    em.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    em.add_argument("--timeout", type=_seconds, default=30.0, metavar="S", help="solver timeout for re-proving LLVM's code")

    ls = sub.add_parser("list", help="the catalogue of lowerings")
    ls.add_argument("--json", action="store_true")

    sh = sub.add_parser("show", help="simulate a spec or a lowering concretely (no solver)")
    sh.add_argument("name", metavar="NAME|PATH")
    sh.add_argument("params", nargs="*", metavar="PARAM=VALUE")
    sh.add_argument("--wave", type=int, choices=(32, 64))
    sh.add_argument("--target", metavar="GFX")
    sh.add_argument("--exec", metavar="HEX", help="EXEC mask (default: all lanes)")
    sh.add_argument("--input", action="append", default=[], metavar="REG=a,b,c,...")
    sh.add_argument("--assume", action="append", default=[], metavar="NAME=VARIANT")
    sh.add_argument("--json", action="store_true")

    am = sub.add_parser("asm", help="check real compiler output (a .s file) against specs")
    am.add_argument("file", metavar="FILE.s")
    am.add_argument("--function", metavar="NAME")
    am.add_argument("--lines", metavar="A-B")
    am.add_argument("--target", metavar="GFX", help="default: the file's .amdgcn_target")
    am.add_argument("--wave", type=int, choices=(32, 64), help="default: the file's wavefront size")
    am.add_argument("--exec", metavar="HEX", help="EXEC at the region's start (default: any)")
    am.add_argument("--assert", dest="asserts", action="append", default=[], metavar="EXPR")
    am.add_argument("--assume", action="append", default=[], metavar="NAME=VARIANT", help="pick a variant of a named assumption")
    am.add_argument("--robust", action="store_true", help="prove under every variant of every assumption used")
    am.add_argument("--timeout", type=_seconds, default=30.0, metavar="S")
    am.add_argument("--json", action="store_true")
    am.add_argument("--times", action="store_true", help="show how long each proof took (JSON: seconds)")

    tg = sub.add_parser("targets", help="the target table")
    tg.add_argument("--json", action="store_true")
    tg.add_argument("--markdown", action="store_true", help="the per-generation table of docs/targets.md")

    sy = sub.add_parser("synth", help="synthesise the cheapest proven lowering of a spec, or the table of them")
    sy.add_argument("spec", nargs="?", metavar="SPEC")
    sy.add_argument("params", nargs="*", metavar="PARAM=VALUE")
    sy.add_argument("--target", metavar="GFX", help="a target or family; components common to all of them are used")
    sy.add_argument("--wave", type=int, choices=(32, 64))
    sy.add_argument("--exec", dest="exec_contract", choices=("any", "full"), default="any")
    sy.add_argument("--max-ops", type=int, default=2, metavar="N", help="components per program (default 2)")
    sy.add_argument("--components", metavar="LIST", help="comma-separated component classes (default: all)")
    sy.add_argument("--timeout", type=_seconds, default=30.0, metavar="S", help="solver timeout per obligation")
    sy.add_argument("--time-limit", type=float, metavar="S", help="stop searching after S seconds ('best found')")
    sy.add_argument("-o", dest="output", metavar="FILE", help="write the lowering file (re-read and re-proved)")
    sy.add_argument("--table", action="store_true", help="write the table of cheapest lowerings (docs/, lowerings/synth/)")
    sy.add_argument("--targets", metavar="LIST", help="--table: only these table columns (families, comma-separated)")
    sy.add_argument("--check", action="store_true", help="--table: fail if the checked-in table or files are stale")
    sy.add_argument("--json", action="store_true")
    sy.add_argument("--times", action="store_true", help="show how long the search took (JSON: seconds)")

    sp = sub.add_parser("specs", help="the spec library")
    sp.add_argument("--json", action="store_true")
    return p


# ---------------------------------------------------------------------------
# verify lowering


def _group(results: list[Result]) -> list[list[Result]]:
    """Results printed as one line: same wave, verdict, assumptions, solver run and whole-wave note."""
    groups: dict[tuple[object, ...], list[Result]] = {}
    for r in results:
        key = (r.wave, r.verdict, r.assumption_text(), r.shared_with or r.target, tuple(r.writes_inactive))
        groups.setdefault(key, []).append(r)
    return list(groups.values())


def overall(results: list[Result]) -> int:
    """The exit code of a set of results: the worst verdict (error, refuted, unknown, proved)."""
    vs = {r.verdict for r in results}
    return next((c for v, c in (("error", EXIT_ERROR), ("refuted", EXIT_REFUTED), ("unknown", EXIT_UNKNOWN)) if v in vs),
                EXIT_PROVED)


_VERDICT = {EXIT_PROVED: "proved", EXIT_REFUTED: "refuted", EXIT_UNKNOWN: "unknown"}


def _print_warnings(warnings: list[Warning_], err: TextIO) -> None:
    """Each warning once, in order."""
    for w in dict.fromkeys(str(w) for w in warnings):
        print(w, file=err)


def _vacuous(r: Result, span: Span | None, prefix: str = "", under: str = "") -> NoReturn:
    """The error for a result whose EXEC contract or spec leaves nothing to check."""
    o = next((o for o in r.obligations if o.verdict == "error"), None)
    raise InputError(span, f"{prefix}vacuous for {r.target} wave{r.wave}{under}: {o.detail if o else 'no active lane'}")


def _print_lines(lines: list[str], out: TextIO) -> None:
    for line in lines:
        print(line, file=out)


def _dump(obj: object, out: TextIO, code: int = 0) -> int:
    json.dump(obj, out, indent=2)
    out.write("\n")
    return code


def _params(items: list[str]) -> dict[str, Any]:
    """PARAM=VALUE arguments."""
    params: dict[str, Any] = {}
    for it in items:
        if "=" not in it:
            raise InputError(None, f"expected PARAM=VALUE, got '{it}'")
        k, v = it.split("=", 1)
        params[k] = parse_param_value(v, Span("<command line>", 1, len(k) + 2))
    return params


def cmd_lowering(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    assume = parse_assume(args.assume)
    low = catalog.load(args.name)
    targets, waves, notes = instantiations(low, args.target, args.wave)
    results = check_lowering(low, targets, waves, args.timeout, assume, args.robust, smt2=bool(args.smt2))
    _print_warnings([w for r in results for w in r.warnings], err)
    for n in notes:
        print(n, file=err)
    code = overall(results)
    if code == EXIT_ERROR:
        r = next(r for r in results if r.verdict == "error")
        o = next(o for o in r.obligations if o.verdict == "error")
        _vacuous(r, low.spans.get("exec") if o.name == "contract" else low.spans.get("spec"))
    if args.smt2:
        from .gate import smt2_files  # a command's own modules load with it (test_imports)

        _write_files(args.smt2, smt2_files(low.name, {f"{r.target}.w{r.wave}": (r.shared_with, r.smt2) for r in results}))
    if args.json:
        return _dump({"lowering": low.name, "path": low.path, "spec": {"name": low.spec, "params": low.params},
                      "verdict": _VERDICT.get(code, "error"), "results": [r.to_json(args.times) for r in results]},
                     out, code)
    print(f"{low.name}: {catalog.spec_text(low)}  ({catalog.display_path(low.path)})", file=out)
    for g in _group(results):
        r = g[0]
        names = ", ".join(x.target for x in g)
        ms = f", {sum(x.seconds for x in g) * 1000:.0f} ms" if args.times else ""
        print(f"  {r.verdict} for {names} wave{r.wave} under exec={r.exec_contract}; assumptions: {r.assumption_text()}"
              f"  ({len(r.obligations)} obligations{ms})", file=out)
        _print_lines(r.detail_lines(low, args.robust, notes=True), out)
    return code


def _write_files(directory: str, files: dict[str, str]) -> None:
    d = Path(directory)
    try:
        for name, text in files.items():
            p = d / name
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
    except OSError as e:
        raise InputError(None, f"cannot write {e.filename}: {e.strerror}") from None


# ---------------------------------------------------------------------------
# verify prove / check: proof records and the CI gate


def _jobs(n: int) -> int:
    if n < 1:
        raise InputError(None, f"--jobs must be at least 1, got {n}")
    return n


def cmd_prove(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from . import gate  # a command's own modules load with it (test_imports)

    report = gate.prove(args.paths, _jobs(args.jobs), args.timeout, args.force, bool(args.smt2))
    for w in report.warnings:
        print(w, file=err)
    if args.smt2:
        _write_files(args.smt2, report.smt2_tree())
    for line in report.lines():
        print(line, file=out)
    print(report.summary(), file=out)
    return report.exit_code()


def cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from . import gate  # a command's own modules load with it (test_imports)
    from .proofs import write_atomic

    shard = gate.parse_shard(args.shard) if args.shard else None
    jobs = _jobs(args.jobs)
    report = gate.check(args.paths, jobs, args.timeout, shard, args.full, args.allow_unknown)
    if args.junit:
        try:
            write_atomic(Path(args.junit), report.junit())
        except OSError as e:
            raise InputError(None, f"cannot write {args.junit}: {e.strerror}") from None
    if args.json:
        json.dump(report.to_json(), out, indent=2)
        out.write("\n")
    else:
        for line in report.lines():
            print(line, file=out)
        print(report.summary(), file=out)
    return report.exit_code()


# ---------------------------------------------------------------------------
# verify emit


def cmd_emit(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from . import emit, proofs  # a command's own modules load with it (test_imports)

    low = catalog.load(args.name)
    ts = T.resolve(args.target)
    if len(ts) != 1:
        raise InputError(None, f"--target {args.target} names {len(ts)} targets; emit needs one (e.g. --target {ts[0].name})")
    done = emit.emit_checked(low, ts[0], args.wave, args.format, args.timeout)
    if isinstance(done, emit.Refusal):
        print(f"error: {done}", file=err)
        return EXIT_REFUTED
    if done.note:
        print(f"note: {done.note}", file=err)
    if args.output:
        try:
            proofs.write_atomic(Path(args.output), done.text)
        except OSError as e:
            raise InputError(None, f"cannot write {args.output}: {e.strerror}") from None
    else:
        out.write(done.text)
    return EXIT_PROVED


# ---------------------------------------------------------------------------
# verify list / targets / specs


def cmd_list(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    rows = catalog.listing()
    if args.json:
        return _dump(rows, out)
    w = max((len(r["name"]) for r in rows), default=4)
    s = max((len(r["spec"]) for r in rows), default=4)
    for r in rows:
        print(f"{r['name']:<{w}}  {r['spec']:<{s}}  {','.join(r['targets'])}  wave{'/'.join(map(str, r['waves']))}  exec={r['exec']}", file=out)
    return 0


def cmd_targets(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.markdown:
        out.write(markdown())
        return 0
    if args.json:
        return _dump([t.to_json() for t in TARGETS.values()], out)
    for n in ORDER:
        t = TARGETS[n]
        waves = "/".join(f"wave{w}" for w in t.waves)
        feats = " ".join(f for f in FEATURES if f in t.features)
        note = f"  ({t.note})" if t.note else ""
        print(f"{t.name:<8} {t.family:<8} {t.arch:<8} {waves:<13} {feats}{note}", file=out)
    return 0


def cmd_specs(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    lib = catalog.speclib()
    rows = [{"name": s.name, "signature": s.signature, "doc": s.doc, "inputs": s.inputs, "outputs": s.outputs}
            for s in sorted(lib.specs.values(), key=lambda s: s.name)]
    if args.json:
        return _dump(rows, out)
    w = max(len(r["signature"]) for r in rows)
    for r in rows:
        print(f"{r['signature']:<{w}}  {r['doc']}", file=out)
    return 0


# ---------------------------------------------------------------------------
# verify show


def cmd_show(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.name in catalog.speclib().specs:
        return _show_spec(args, out)
    if args.params:
        raise InputError(None, f"'{args.name}' is not a spec (see `verify specs`); a lowering takes no PARAM=VALUE")
    catalog.spec_or_lowering(args.name)
    return _show_lowering(args, out, err)


def _show_spec(args: argparse.Namespace, out: TextIO) -> int:
    params = _params(args.params)
    W = spec_wave(args.name, params, args.wave)
    mask = parse_mask(args.exec, W)
    inputs, outputs = simulate_spec(args.name, params, W, mask, parse_lane_values(args.input, W))
    return _emit_show(args, out, W, mask, inputs, outputs)


def _emit_show(args: argparse.Namespace, out: TextIO, W: int, mask: int, inputs: dict[str, list[Any]],
               outputs: dict[str, list[Any]]) -> int:
    if args.json:
        json.dump({"wave": W, "exec": fmt_mask(mask, W), "outputs": outputs}, out)
        out.write("\n")
        return 0
    _print_lines(lane_table(W, mask, [*inputs.items(), *outputs.items()]), out)
    return 0


def _show_lowering(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    low = catalog.load(args.name)
    tgt, W = show_instance(low, args.target, args.wave)
    for w in static_checks(low, tgt, W):
        print(str(w), file=err)
    mask = parse_mask(args.exec, W)
    inputs, outputs = simulate_inputs(low, tgt, W, mask, parse_lane_values(args.input, W), parse_assume(args.assume))
    return _emit_show(args, out, W, mask, inputs, outputs)


# ---------------------------------------------------------------------------
# verify synth


def cmd_synth(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .synth import save, synthesize  # a command's own modules load with it (test_imports)
    from .synth.components import parse_components

    if args.table:
        return _synth_table(args, out, err)
    if not args.spec:
        raise InputError(None, "verify synth: give a SPEC (see `verify specs`) or --table")
    if not args.target or not args.wave:
        raise InputError(None, "verify synth: --target and --wave are required")
    if args.max_ops < 1:
        raise InputError(None, "--max-ops must be at least 1")
    params = _params(args.params)
    targets = T.resolve(args.target)
    classes = parse_components(args.components)
    name = Path(args.output).stem if args.output else "synth"
    cmd = " ".join(["verify synth", args.spec] + [f"{k}={v}" for k, v in params.items()] +
                   ["--target", args.target, "--wave", str(args.wave), "--exec", args.exec_contract,
                    "--max-ops", str(args.max_ops)] + (["--components", args.components] if args.components else []))
    o = synthesize(args.spec, params, targets, args.wave, args.exec_contract, args.max_ops, classes, name,
                   [args.target], cmd, args.timeout, args.time_limit, survey=True)
    wrote = None
    if args.output and o.text is not None:
        save(o, args.output, args.timeout)
        wrote = args.output
    code = {"proved": EXIT_PROVED, "none": EXIT_REFUTED, "unknown": EXIT_UNKNOWN}[o.verdict]
    if args.json:
        return _dump(o.to_json(wrote, args.times), out, code)
    _print_lines(o.lines(wrote, args.times), out)
    return code


def _synth_table(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .synth import table  # a command's own modules load with it (test_imports)

    cols = table.columns(args.targets)
    if args.check:
        problems = table.check()
        for problem in problems:
            print(problem, file=err)
        if not problems:
            print(f"synthesis table current: {table.MD.relative_to(table.ROOT)}, "
                  f"{table.INDEX.relative_to(table.ROOT)}, {table.LOW_DIR.relative_to(table.ROOT)}/", file=out)
        return 1 if problems else 0
    t0 = time.perf_counter()
    entries = table.build(cols)
    if args.targets:
        entries = table.merge(entries, cols)
    index, files = table.save(entries)
    print(f"wrote {len(index)} entries, {len(files)} lowering files in {time.perf_counter() - t0:.1f} s", file=out)
    return 0


def cmd_asm(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .asmcheck import check_file  # a command's own modules load with it (test_imports)

    rep = check_file(args.file, args.asserts, args.target, args.wave, args.exec, args.assume, args.robust,
                     args.function, args.lines, args.timeout)
    for c in rep.checked:
        if c.result.verdict == "error":
            what = f"--exec {args.exec}" if args.exec else "the region"
            _vacuous(c.result, None, f"{args.file}: {c.assertion.text}: ", f" under {what}")
    _print_warnings([w for c in rep.checked for w in c.result.warnings], err)
    code = overall([c.result for c in rep.checked])
    if args.json:
        return _dump(rep.to_json(args.times), out, code)
    _print_lines(rep.lines(args.times, args.robust), out)
    return code


COMMANDS = {
    "asm": cmd_asm,
    "synth": cmd_synth,
    "lowering": cmd_lowering,
    "prove": cmd_prove,
    "check": cmd_check,
    "emit": cmd_emit,
    "list": cmd_list,
    "show": cmd_show,
    "targets": cmd_targets,
    "specs": cmd_specs,
}


def main(argv: list[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        args = build_parser().parse_args(argv)
        if not args.cmd:
            build_parser().print_help(out)
            return EXIT_ERROR
        return COMMANDS[args.cmd](args, out, err)
    except InputError as e:
        print(str(e), file=err)
        return EXIT_ERROR
    except VerifyError as e:
        print(f"error: {e}", file=err)
        return EXIT_ERROR
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
