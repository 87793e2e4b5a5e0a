"""The command line.  Each subcommand is ``cmd_x(args, out, err) -> int``.

Exit codes (a fixed interface): 0 all proved / success, 1 something
refuted, 2 usage or input error, 3 unknown (solver timeout or gave up).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from functools import cache
from pathlib import Path
from typing import Any, NoReturn, TextIO

from . import catalog, svg
from . import target as T
from .assume import parse_assume
from .diag import STDIN, InputError, Span, VerifyError, Warning_, check_output, read_source
from .encode import binding_widths, show_instance, simulate_inputs, simulate_spec, spec_wave, spec_widths
from .ir import Lowering
from .lanes import fmt_mask, lane_table, parse_lane_values, parse_mask
from .lowering_file import load_lowering
from .refine import Result, check_lowering, instantiations, lowering_json, lowering_lines, static_checks, worst_verdict
from .report import check_dir as check_html_dir
from .report import write_html as report_html
from .summary import counts
from .summary import line as summary_line
from .syntax import parse_param_value
from .target import TARGETS, markdown

EXIT_PROVED, EXIT_REFUTED, EXIT_ERROR, EXIT_UNKNOWN = 0, 1, 2, 3
EXIT = {"proved": EXIT_PROVED, "refuted": EXIT_REFUTED, "error": EXIT_ERROR, "unknown": EXIT_UNKNOWN}


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


def _integer(text: str) -> int:
    """A decimal integer argument; a leading zero is refused, as in files
    (verify.syntax.int_text: llvm-mc would read it as octal)."""
    if not re.fullmatch(r"-?(0|[1-9][0-9]{0,8})", text):
        raise argparse.ArgumentTypeError(f"expected a decimal integer without leading zeros, got '{text}'")
    return int(text)


class _Targets(argparse.Action):
    """--target, repeatable and comma-separated alike in every command: the
    names gather into one comma list (target.resolve reads it); an empty
    name is refused here, before any work."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        text = str(values)
        if not all(n.strip() for n in text.split(",")):
            raise InputError(None, f"empty name in the target list '{text}'")
        old = getattr(namespace, self.dest, None)
        setattr(namespace, self.dest, f"{old},{text}" if old else text)


# Options several commands share, defined once so their spelling and help agree.
_OPTIONS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "wave": (("--wave",), dict(type=_integer, choices=(32, 64),
                               help="only this wave size (of a lowering: one it declares)")),
    "target": (("--target",), dict(action=_Targets, metavar="GFX",
                                   help="a target or family, or a comma list of them (repeatable; "
                                        "default: every declared target)")),
    "timeout": (("--timeout",), dict(type=_seconds, default=30.0, metavar="S",
                                     help="solver timeout per obligation, seconds (default 30)")),
    "assume": (("--assume",), dict(action="append", default=[], metavar="NAME=VARIANT",
                                   help="pick a variant of a named assumption")),
    "robust": (("--robust",), dict(action="store_true", help="prove under every variant of every assumption used")),
    "json": (("--json",), dict(action="store_true", help="JSON on stdout instead of text")),
    "times": (("--times",), dict(action="store_true", help="show how long each proof took (JSON: seconds)")),
    "jobs": (("--jobs", "-j"), dict(type=_integer, default=1, metavar="N", help="worker processes (default 1)")),
    "paths": (("paths",), dict(nargs="*", metavar="PATH",
                               help="lowering files or directories (default: ./lowerings; --builtin: the built-in "
                                    "catalogue)")),
    "name": (("name",), dict(metavar="NAME|PATH", help="a catalogue name or a file ('-': standard input)")),
    "params": (("params",), dict(nargs="*", metavar="PARAM=VALUE", help="the spec's parameters")),
}


def _command(sub: Any, name: str, help: str, *shared: str) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(name, help=help)
    for key in shared:
        flags, kw = _OPTIONS[key]
        p.add_argument(*flags, **kw)
    return p


@cache
def parser() -> argparse.ArgumentParser:
    """The parser, built once (parse_args changes nothing in it)."""
    return build_parser()


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="verify", description="Prove AMD GPU cross-lane lowerings against shuffle and reduction specs.")
    p.add_argument("--version", action="store_true", help="print the versions of verify, z3 and llvmlite/LLVM")
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND", parser_class=_Parser)

    lo = _command(sub, "lowering", "prove a lowering refines its spec", "name", "wave", "target", "timeout",
                  "assume", "robust", "json", "times")
    lo.add_argument("--smt2", metavar="DIR", help="also write every proof obligation to DIR as SMT-LIB 2")
    lo.add_argument("--svg", metavar="FILE", help="also draw the lane flow (the counterexample's, if any) to FILE as SVG")

    pv = _command(sub, "prove", "prove lowerings and write their proof records (proofs/)", "paths", "jobs", "timeout")
    pv.add_argument("--builtin", action="store_true",
                    help="with no PATH: the built-in catalogue (a source checkout only; never an installed package)")
    pv.add_argument("--force", action="store_true", help="prove again even where the records are current")
    pv.add_argument("--smt2", metavar="DIR", help="prove everything named and write every obligation to DIR as SMT-LIB 2")

    ck = _command(sub, "check", "fail unless every proof record is current and proved (the CI gate)",
                  "paths", "jobs", "timeout", "json")
    ck.add_argument("--builtin", action="store_true",
                    help="with no PATH: check the built-in catalogue (default: ./lowerings, else an error)")
    ck.add_argument("--shard", metavar="I/N", help="check only the I-th of N parts of the lowerings (1 <= I <= N)")
    ck.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report to FILE")
    ck.add_argument("--allow-unknown", action="store_true", help="let records whose verdict is unknown pass")
    ck.add_argument("--full", action="store_true", help="prove everything again and compare with the records")
    ck.add_argument("--html", metavar="DIR", help="also write a static HTML report to DIR (counterexamples drawn)")
    ck.add_argument("--since", metavar="REF", help="also prove again every lowering whose file or record differs "
                    "from the git revision REF (CI: the target branch), and compare with its records")

    em = _command(sub, "emit", "GPU code (LLVM IR, HIP or assembly) from a lowering with a current proof", "name")
    em.add_argument("--target", action=_Targets, required=True, metavar="GFX",
                    help="one target, e.g. gfx942 (a list must name one)")
    em.add_argument("--wave", type=_integer, choices=(32, 64), required=True, help="the wave size")
    em.add_argument("--format", choices=("llvm", "hip", "asm"), default="llvm", help="what to write (default llvm)")
    em.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    em.add_argument("--timeout", type=_seconds, default=30.0, metavar="S", help="solver timeout for re-proving LLVM's code")

    _command(sub, "list", "the catalogue of lowerings", "json")
    sh = _command(sub, "show", "simulate a spec or a lowering concretely (no solver)", "name", "params", "wave",
                  "target", "assume", "json")
    sh.add_argument("--exec", metavar="HEX", help="EXEC mask (default: all lanes)")
    sh.add_argument("--input", action="append", default=[], metavar="NAME=a,b,c,...",
                    help="lane values of an input: one per lane, one for every lane, or @lane (each lane its "
                         "own number, the default); a per-lane spec parameter PARAM=@NAME reads its values from "
                         "--input NAME=...")
    sh.add_argument("--svg", metavar="FILE", help="a lowering: also draw its lane flow to FILE as SVG")

    am = _command(sub, "asm", "check real compiler output (a .s file) against specs", "assume", "robust", "timeout",
                  "json", "times")
    am.add_argument("file", metavar="FILE.s", help="assembly as llc prints it ('-': standard input)")
    am.add_argument("--function", metavar="NAME", help="the function to check (default: every function)")
    am.add_argument("--lines", metavar="A-B", help="the region to check (default: the cross-lane code found)")
    am.add_argument("--target", action=_Targets, metavar="GFX", help="the one target the code is for "
                                                    "(default: the file's .amdgcn_target)")
    am.add_argument("--wave", type=_integer, choices=(32, 64),
                    help="the wave size (default: the kernel descriptor's, else the target's default)")
    am.add_argument("--exec", metavar="HEX", help="EXEC at the region's start (default: any mask)")
    am.add_argument("--assert", dest="asserts", action="append", default=[], metavar="EXPR",
                    help="a claim such as 'v1 == cuda.shfl_xor(v0, mask=5, width=16)' (repeatable; "
                         "grammar: docs/language.md)")
    am.add_argument("--svg", metavar="FILE", help="also draw the lane flow of the first refuted (else first) claim")

    tv = _command(sub, "tv", "prove the GPU code LLVM makes of LLVM IR refines it (translation validation)",
                  "json", "assume", "robust", "jobs")
    tv.add_argument("--timeout", type=_seconds, default=30.0, metavar="S",
                    help="each instance's solver budget: S times a fixed number of z3 resource units, no clock, "
                         "so the verdict does not depend on load (docs/tv.md, Timeouts; default 30)")
    tv.add_argument("file", metavar="FILE.ll", help="LLVM IR ('-': standard input), or a directory (every .ll under it)")
    tv.add_argument("tgt", nargs="?", metavar="TGT.ll",
                    help="IR-to-IR: prove TGT.ll's functions refine FILE.ll's of the same name (with a directory: "
                         "a second directory or file)")
    tv.add_argument("--target", action=_Targets, metavar="GFX",
                    help="a target or family, or a comma list of them (repeatable; default: the file's RUN lines)")
    tv.add_argument("--wave", type=_integer, choices=(32, 64), help="only this wave size")
    tv.add_argument("--llc", action="append", default=[], metavar="CMD",
                    help="compile with this llc command line (e.g. 'llc-22 -global-isel'; repeatable) "
                         "instead of llvmlite's LLVM; one that runs past VERIFY_LLC_TIMEOUT seconds (default 60) "
                         "or prints more than 16 MiB is stopped (an error)")
    tv.add_argument("--function", action="append", default=[], metavar="NAME", help="only this function (repeatable)")
    tv.add_argument("--asm", metavar="FILE.s", help="check this assembly (llc's output for one --target and --wave) "
                                                    "instead of compiling")
    tv.add_argument("--accept", action="append", default=[], metavar="CAUSE",
                    help="let this cause pass the exit code: unsupported, run-line (RUN lines verify cannot use) "
                         "or unknown (repeatable or a comma list); refutations, compiler errors and bad input "
                         "always fail")
    tv.add_argument("--spec", metavar="'SPEC PARAM=V ...'",
                    help="also prove the --function's GPU code meets a library spec (its arguments the spec's "
                         "inputs, its result v0), e.g. 'cuda.shfl_xor mask=5 width=16'")
    tv.add_argument("--coverage", action="store_true",
                    help="over the files or directories: decided, proved, refuted, unknown, compiler errors and "
                         "unsupported per cause, ranked (a table, or JSON with --json)")

    tg = _command(sub, "targets", "the target table", "json")
    tg.add_argument("--markdown", action="store_true", help="the per-generation table of docs/targets.md")

    sy = _command(sub, "synth", "synthesise the cheapest proven lowering of a spec, or the table of them")
    sy.add_argument("spec", nargs="?", metavar="SPEC", help="the spec to synthesise")
    for key in ("params", "wave", "timeout", "json"):
        sy.add_argument(*_OPTIONS[key][0], **_OPTIONS[key][1])
    sy.add_argument("--target", "--targets", dest="target", action=_Targets, metavar="GFX",
                    help="a target or family, or a comma list of them: the components common to all of them are "
                         "used; with --table, the table columns (families) to build")
    sy.add_argument("--exec", dest="exec_contract", choices=("any", "full"), default="any", help="the EXEC contract")
    sy.add_argument("--max-ops", type=_integer, default=2, metavar="N",
                    help="components per program (default 2); above 2, a lower bound over every DPP16 control "
                         "and mask is tried first")
    sy.add_argument("--components", metavar="LIST", help="comma-separated component classes (default: all)")
    sy.add_argument("--time-limit", type=float, metavar="S", help="stop searching after S seconds ('best found')")
    sy.add_argument("--max-states", type=_integer, metavar="N", default=None,
                    help="stop searching after N search states ('best found'; bounds memory; default 300000)")
    sy.add_argument("-o", dest="output", metavar="FILE", help="write the lowering file (re-read and re-proved)")
    sy.add_argument("--table", action="store_true", help="write the table of cheapest lowerings (docs/, lowerings/synth/)")
    sy.add_argument("--check", action="store_true", help="--table: fail if the checked-in table or files are stale")
    sy.add_argument("--reductions-table", action="store_true",
                    help="render docs/synthesis-reductions.md from its json index (with --check: compare)")
    sy.add_argument("--times", action="store_true", help="show how long the search took (JSON: seconds)")
    sy.add_argument("--robust", action="store_true",
                    help="a program counts only if proved under every variant of every assumption it consults")

    _command(sub, "specs", "the spec library", "json")
    return p


# ---------------------------------------------------------------------------
# verify lowering


def overall(results: list[Result]) -> int:
    """The exit code of a set of results: that of the worst verdict."""
    return EXIT[worst_verdict(results)]


def _print_warnings(warnings: list[Warning_], err: TextIO) -> None:
    """Each warning once, in order."""
    for w in dict.fromkeys(str(w) for w in warnings):
        print(w, file=err)


def _vacuous(r: Result, span: Span | None, prefix: str = "", under: str = "") -> NoReturn:
    """The error for a result whose EXEC contract or spec leaves nothing to check."""
    o = next((o for o in r.obligations if o.verdict == "error"), None)
    raise InputError(span, f"{prefix}vacuous for {r.target} wave{r.wave}{under}: {o.detail if o else 'no active lane'}")


class _NoBar:
    """Progress where nobody watches: nothing."""

    def __call__(self, done: int, total: int, current: str | None = None) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def _progress(err: TextIO, what: str, enabled: bool = True, steps: bool = False) -> Any:
    """A progress bar on stderr when it is a terminal (and not --json):
    verify.progress, with tqdm, loads only then."""
    try:
        tty = enabled and err.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty:
        return _NoBar()
    from .progress import Bar

    return Bar(err, what, steps=steps)


def _print_lines(lines: list[str], out: TextIO) -> None:
    for line in lines:
        print(line, file=out)


def _dump(obj: object, out: TextIO, code: int = 0, indent: int | None = 2) -> int:
    json.dump(obj, out, indent=indent)
    out.write("\n")
    return code


def _write(path: str, text: str) -> None:
    """Write a whole file or nothing (a one-line error when it cannot be written)."""
    from .proofs import write_atomic  # a command's own modules load with it (test_imports)

    try:
        write_atomic(Path(path), text)
    except OSError as e:
        raise InputError(None, f"cannot write {path}: {e.strerror}") from None


def _writable(path: str | None, option: str = "the output", directory: bool = False) -> None:
    """Refuse an output path before any work (diag.check_output: empty, too
    long, a directory where a file is wanted, no parent, not writable)."""
    check_output(path, option, directory)


def _load(name: str) -> Lowering:
    """A lowering by catalogue name or path; `-` reads it from standard input."""
    return load_lowering(STDIN, read_source("-")) if name == "-" else catalog.load(name)


def _load_checked(name: str) -> Lowering:
    """A lowering whose spec exists and takes its parameters (a command that
    does not run the spec still refuses a file naming a wrong one)."""
    low = _load(name)
    lib = catalog.speclib()
    lib.bind(lib.get(low.spec, low.spans.get("spec")), low.params, low.param_spans, low.spans.get("spec"))
    return low


def _params(items: list[str]) -> dict[str, Any]:
    """PARAM=VALUE arguments."""
    params: dict[str, Any] = {}
    for it in items:
        if "=" not in it:
            raise InputError(None, f"expected PARAM=VALUE, got '{it}'")
        k, v = it.split("=", 1)
        if k in params:
            raise InputError(None, f"parameter '{k}' is given twice")
        params[k] = parse_param_value(v, Span("<command line>", 1, len(k) + 2))
    return params


def cmd_lowering(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    assume = parse_assume(args.assume)
    _writable(args.svg, "--svg")
    _writable(args.smt2, "--smt2", directory=True)
    low = _load(args.name)
    targets, waves, notes = instantiations(low, args.target, args.wave)
    with _progress(err, "lowering", not args.json):
        results = check_lowering(low, targets, waves, args.timeout, assume, args.robust, smt2=bool(args.smt2))
    _print_warnings([w for r in results for w in r.warnings], err)
    _print_lines(notes, err)
    code = overall(results)
    if code == EXIT_ERROR:
        r = next(r for r in results if r.verdict == "error")
        o = next(o for o in r.obligations if o.verdict == "error")
        _vacuous(r, low.spans.get("exec") if o.name == "contract" else low.spans.get("spec"))
    if args.smt2:
        from .gate import smt2_files, write_files  # a command's own modules load with it (test_imports)

        write_files(args.smt2, smt2_files(low.name, {f"{r.target}.w{r.wave}": (r.shared_with, r.smt2) for r in results}))
    n = counts(r.verdict for r in results)
    if args.svg:
        _write(args.svg, svg.result_svg(low, results, assume))
    if args.json:
        return _dump({**lowering_json(low, results, args.times), "counts": n}, out, code)
    _print_lines(lowering_lines(low, results, args.times, args.robust), out)
    if len(results) > 1:
        print(summary_line(n), file=out)
    return code


# ---------------------------------------------------------------------------
# verify prove / check: proof records and the CI gate


def _jobs(n: int) -> int:
    if n < 1:
        raise InputError(None, f"--jobs must be at least 1, got {n}")
    return n


def cmd_prove(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from . import gate  # a command's own modules load with it (test_imports)
    _writable(args.smt2, "--smt2", directory=True)
    with _progress(err, "prove", steps=True) as tick:
        report = gate.prove(args.paths, _jobs(args.jobs), args.timeout, args.force, bool(args.smt2), tick,
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
    from . import gate  # a command's own modules load with it (test_imports)

    _writable(args.junit, "--junit")
    _writable(args.html, "--html", directory=True)
    if args.html is not None:
        check_html_dir(args.html)
    shard = gate.parse_shard(args.shard) if args.shard is not None else None
    jobs = _jobs(args.jobs)
    with _progress(err, "check", not args.json, steps=True) as tick:
        report = gate.check(args.paths, jobs, args.timeout, shard, args.full, args.allow_unknown, tick,
                            args.since, args.builtin)
    if args.junit:
        _write(args.junit, report.junit())
    if args.html:
        report_html(report, args.html, args.timeout)
    if args.json:
        return _dump({**report.to_json(), "counts": _gate_counts(report)}, out, report.exit_code())
    _print_lines([*report.lines(), report.summary(), summary_line(_gate_counts(report))], out)
    return report.exit_code()


# ---------------------------------------------------------------------------
# verify emit


def cmd_emit(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from . import emit  # a command's own modules load with it (test_imports)

    _writable(args.output, "-o")
    low = _load_checked(args.name)
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
        _write(args.output, done.text)
    else:
        out.write(done.text)
    return EXIT_PROVED


# ---------------------------------------------------------------------------
# verify list / targets / specs


def cmd_list(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    rows = catalog.listing()
    if args.json:
        return _dump(rows, out)
    _print_lines(catalog.listing_lines(rows), out)
    return 0


def cmd_targets(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.markdown:
        out.write(markdown())
        return 0
    if args.json:
        return _dump([t.to_json() for t in TARGETS.values()], out)
    _print_lines(T.table_lines(), out)
    return 0


def cmd_specs(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    rows = catalog.spec_rows()
    if args.json:
        return _dump(rows, out)
    _print_lines(catalog.spec_lines(rows), out)
    return 0


# ---------------------------------------------------------------------------
# verify show


def cmd_show(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.name in catalog.speclib().specs:
        return _show_spec(args, out)
    if args.params:
        raise InputError(None, f"'{args.name}' is not a spec (see `verify specs`); a lowering takes no PARAM=VALUE")
    _writable(args.svg, "--svg")
    catalog.spec_or_lowering(args.name)
    return _show_lowering(args, out, err)


def _show_spec(args: argparse.Namespace, out: TextIO) -> int:
    if args.svg:
        raise InputError(None, f"--svg draws a lowering's lane flow; '{args.name}' is a spec")
    params = _params(args.params)
    W = spec_wave(args.name, params, args.wave)
    mask = parse_mask(args.exec, W)
    inputs, outputs = simulate_spec(args.name, params, W, mask, parse_lane_values(args.input, W, spec_widths(args.name)))
    return _emit_show(args, out, W, mask, inputs, outputs)


def _emit_show(args: argparse.Namespace, out: TextIO, W: int, mask: int, inputs: dict[str, list[Any]],
               outputs: dict[str, list[Any]]) -> int:
    if args.json:
        return _dump({"wave": W, "exec": fmt_mask(mask, W), "outputs": outputs}, out, indent=None)
    _print_lines(lane_table(W, mask, [*inputs.items(), *outputs.items()]), out)
    return 0


def _show_lowering(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    low = _load_checked(args.name)
    if args.wave and args.wave not in low.waves:  # --wave narrows the declared waves, as in `verify lowering`
        raise InputError(low.spans.get("waves"), f"{low.name} declares wave{'/'.join(map(str, low.waves))}; "
                                                  f"--wave {args.wave} is not one of them")
    tgt, W = show_instance(low, args.target, args.wave)
    for w in static_checks(low, tgt, W):
        print(str(w), file=err)
    mask = parse_mask(args.exec, W)
    given = parse_lane_values(args.input, W, binding_widths(low))
    inputs, outputs = simulate_inputs(low, tgt, W, mask, given, parse_assume(args.assume))
    if args.svg:
        _write(args.svg, svg.show_svg(low, tgt, W, parse_assume(args.assume), mask, given))
    return _emit_show(args, out, W, mask, inputs, outputs)


# ---------------------------------------------------------------------------
# verify synth


def cmd_synth(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .synth import command_text, save, synthesize  # a command's own modules load with it (test_imports)
    from .synth import reduce as red_synth
    from .synth.components import parse_components

    if args.reductions_table:
        from .synth import redtable  # a command's own modules load with it (test_imports)

        ok, msg = redtable.build(args.check)
        print(msg, file=out if ok else err)
        return 0 if ok else 1
    if args.table:
        if args.robust:
            raise InputError(None, "verify synth: --robust searches one entry; the table marks the entries that "
                                   "rely on a default variant instead")
        return _synth_table(args, out, err)
    if not args.spec:
        raise InputError(None, "verify synth: give a SPEC (see `verify specs`) or --table")
    if not args.target or not args.wave:
        raise InputError(None, "verify synth: --target and --wave are required")
    if args.max_ops < 1:
        raise InputError(None, "--max-ops must be at least 1")
    if args.max_states is not None and args.max_states < 1:
        raise InputError(None, "--max-states must be at least 1")
    _writable(args.output, "-o")
    params = _params(args.params)
    lib = catalog.speclib()
    lib.bind(lib.get(args.spec), params)  # an unknown or missing parameter, before either search
    targets = T.resolve(args.target)
    classes = parse_components(args.components)
    name = Path(args.output).stem if args.output else "synth"
    cmd = command_text(args.spec, params, args.target, args.wave, args.exec_contract, args.max_ops, args.components,
                       args.robust)
    if red_synth.is_reduction_spec(args.spec) and "width" not in params:
        return _synth_red(args, params, targets, name, cmd, out, err)
    with _progress(err, "synth", not args.json):
        o = synthesize(args.spec, params, targets, args.wave, args.exec_contract, args.max_ops, classes, name,
                       [args.target], cmd, args.timeout, args.time_limit, survey=True, robust=args.robust,
                       **({} if args.max_states is None else {"max_states": args.max_states}))
    wrote = None
    if args.output and o.text is not None:
        save(o, args.output, args.timeout)
        wrote = args.output
    code = {"proved": EXIT_PROVED, "none": EXIT_REFUTED, "unknown": EXIT_UNKNOWN}[o.verdict]
    if args.json:
        return _dump(o.to_json(wrote, args.times), out, code)
    _print_lines(o.lines(wrote, args.times), out)
    return code


def _synth_red(args: argparse.Namespace, params: dict[str, Any], targets: list[T.Target], name: str, cmd: str,
               out: TextIO, err: TextIO) -> int:
    """`verify synth red.*`: the reduction/scan search (verify/synth/reduce.py)."""
    from .synth import llvmref  # a command's own modules load with it (test_imports)
    from .synth import reduce as red_synth

    if args.exec_contract != "any":
        raise InputError(None, "verify synth: reductions are synthesised under --exec any (whole-wave mode)")
    with _progress(err, "synth", not args.json):
        o = red_synth.synthesize_red(args.spec, params, targets, args.wave, name, cmd, args.timeout,
                                     robust=args.robust, target_names=[args.target], time_limit=args.time_limit)
        o.llvm_lines, o.llvm = llvmref.compare_lines(args.spec, params, targets, args.wave, o.cost)
    wrote = None
    if args.output and o.text is not None:
        Path(args.output).write_text(o.text)
        red_synth.reverify_file(o, args.output, args.timeout)
        wrote = args.output
    code = EXIT_PROVED if o.verdict == "proved" else EXIT_REFUTED
    if args.json:
        return _dump(o.to_json(wrote, args.times), out, code)
    _print_lines(o.out_lines(wrote, args.times), out)
    return code


def _synth_table(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .synth import table  # a command's own modules load with it (test_imports)

    cols = table.columns(args.target)
    if args.check:
        problems = table.check()
        _print_lines(problems, err)
        _print_lines([] if problems else [table.current_text()], out)
        return 1 if problems else 0
    t0 = time.perf_counter()
    with _progress(err, "synth --table"):
        entries = table.build(cols)
    index, files = table.save(table.merge(entries, cols) if args.target else entries)
    took = f" in {time.perf_counter() - t0:.1f} s" if args.times else ""
    print(f"wrote {len(index)} entries, {len(files)} lowering files{took}", file=out)
    print(summary_line(counts((e["verdict"] for e in entries), {"none": "incorrect"})), file=out)
    return 0


def cmd_asm(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .asmcheck import check_all  # a command's own modules load with it (test_imports)

    _writable(args.svg, "--svg")
    target = _one_target(args.target, "verify asm")
    path, text = (STDIN, read_source("-")) if args.file == "-" else (args.file, None)
    with _progress(err, "asm", not args.json):
        rep = check_all(path, args.asserts, target, args.wave, args.exec, args.assume, args.robust, args.function,
                        args.lines, args.timeout, text)
    for c in rep.checked:
        if c.result.verdict == "error":
            what = f"--exec {args.exec}" if args.exec else "the region"
            _vacuous(c.result, None, f"{args.file}: {c.assertion.text}: ", f" under {what}")
    _print_warnings([w for c in rep.checked for w in c.result.warnings], err)
    code = overall([c.result for c in rep.checked])
    if args.svg and rep.checked:
        c = next((c for c in rep.checked if c.result.cex is not None and c.result.cex.rows), rep.checked[0])
        _write(args.svg, svg.result_svg(c.low, [c.result], parse_assume(args.assume)))
    if code == 0 and rep.refused:  # a region in a loop: not proved
        code = EXIT["unknown"]
    n = counts([*(c.result.verdict for c in rep.checked), *("unsupported" for _ in rep.refused)])
    if args.json:
        return _dump({**rep.to_json(args.times), "counts": n}, out, code)
    _print_lines(rep.lines(args.times, args.robust), out)
    if len(rep.checked) + len(rep.refused) > 1:
        print(summary_line(n), file=out)
    return code


def _one_target(name: str | None, what: str) -> str | None:
    """A --target that must name one target (a family or list of one is fine)."""
    if name is None:
        return None
    ts = T.resolve(name)
    if len(ts) != 1:
        raise InputError(None, f"--target {name} names {len(ts)} targets; {what} needs one (e.g. --target {ts[0].name})")
    return ts[0].name


def cmd_tv(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    # a command's own modules load with it (test_imports)
    from .tv.check import TV_VERDICTS, check_file, check_pair_files, has_src_tgt, summary
    from .tv.runlines import check_llc
    from .tv.tree import accepted, check_tree, coverage, coverage_lines, exit_code, parse_accept

    accept = parse_accept(args.accept)
    check_llc(args.llc)  # fail closed: a compiler that cannot run is bad input, before anything is compiled
    targets = [t.name for t in T.resolve(args.target)] if args.target else []
    paths = [p for p in (args.file, args.tgt) if p is not None]
    tree = args.coverage or any(Path(p).is_dir() for p in paths if p != "-")
    if args.spec:
        from .tv.irspec import check_spec  # a command's own modules load with it

        if tree or args.tgt or args.asm:
            raise InputError(None, "--spec checks one function of one file (no directory, TGT.ll or --asm)")
        results = check_spec(args.file, args.function, args.spec, targets, args.wave, args.llc, args.timeout,
                             parse_assume(args.assume), args.robust)
    elif tree:
        if args.asm:
            raise InputError(None, "--asm checks one file's code; it does not go with a directory")
        with _progress(err, "tv", not args.json):
            results = check_tree(paths, targets, args.wave, args.llc, args.function or None, args.timeout,
                                 parse_assume(args.assume), args.robust, _jobs(args.jobs))
    else:
        asm = (args.asm, read_source(args.asm)) if args.asm else None
        text = read_source(args.file)
        path = STDIN if args.file == "-" else args.file
        with _progress(err, "tv", not args.json):
            if args.tgt or has_src_tgt(text):  # IR-to-IR (Alive2's @src/@tgt in one file)
                results = check_pair_files(path, text, args.tgt,
                                           read_source(args.tgt) if args.tgt else None, targets, args.wave,
                                           args.timeout, parse_assume(args.assume), args.robust,
                                           args.function or None)
            else:
                results = check_file(path, text, targets, args.wave, args.llc, args.function, args.timeout, asm,
                                     parse_assume(args.assume), args.robust, _jobs(args.jobs))
        if not results:  # a module of declarations only: nothing was checked, which is no verdict
            raise InputError(None, f"{path}: the module defines no function to check")
    code = exit_code(results, accept)
    n = counts((r.verdict for r in results), TV_VERDICTS)
    if args.coverage:
        cov = coverage(results)
        if args.json:
            return _dump({"coverage": cov, "summary": summary(results), "counts": n}, out, code)
        _print_lines([*coverage_lines(cov), summary(results)], out)
        return code
    if args.json:
        return _dump({"results": [{**r.to_json(), "passes": accepted(r, accept)} for r in results],
                      "summary": summary(results), "counts": n}, out, code)
    lines = [ln for r in results for ln in r.lines()] + [summary(results)]
    _print_lines(lines, out)
    return code


COMMANDS = {
    "asm": cmd_asm,
    "tv": cmd_tv,
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
        args = parser().parse_args(argv)
        if args.version:
            from .about import versions

            print("\n".join(versions()), file=out)
            return EXIT_PROVED
        if not args.cmd:
            parser().print_help(out)
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
