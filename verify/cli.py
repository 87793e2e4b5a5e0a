"""The command line: the arguments and their mapping to a command.  Each
command's body is ``cmd_x(args, out, err) -> int`` in its own module of
verify/commands, imported only when that command runs (start-up: `--help`
loads no command and `verify list` no solver).

Exit codes (a fixed interface): 0 all proved / success, 1 something
refuted, 2 usage or input error, 3 unknown (solver timeout or gave up).
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from functools import cache

from .commands import EXIT_ERROR, EXIT_HELP, EXIT_INTERNAL, EXIT_PROVED
from .diag import InputError, VerifyError

TYPE_CHECKING = False  # typing is not loaded for `verify --help` (issue #35); mypy reads the block below
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NoReturn, TextIO


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


class _Unbuilt:
    """A command's parser left unbuilt: the command line runs another
    command (its arguments alone are parsed; start-up, issue #35)."""

    def add_argument(self, *args: Any, **kw: Any) -> None:
        pass


_ONLY: list[str | None] = [None]  # the one command build_parser builds (None: every command)


def _command(sub: Any, name: str, help: str, *shared: str) -> argparse.ArgumentParser:
    if _ONLY[0] is not None and name != _ONLY[0]:
        return _Unbuilt()  # type: ignore[return-value]  # (add_argument only)
    p: argparse.ArgumentParser = sub.add_parser(name, help=help, epilog=EXIT_HELP,
                                                formatter_class=argparse.RawDescriptionHelpFormatter)
    for key in shared:
        flags, kw = _OPTIONS[key]
        p.add_argument(*flags, **kw)
    return p


@cache
def parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser, built once (parse_args changes nothing in it); `only`:
    with that command's arguments alone (the others' parsers cost start-up)."""
    return build_parser(only)


def _only(argv: list[str]) -> str | None:
    """The command a command line runs when its first word names one (then
    only that command's parser is needed), else None (every command's: the
    top-level --help and errors list them all)."""
    return argv[0] if argv and argv[0] in COMMANDS else None


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    _ONLY[0] = only
    try:
        return _build_parser()
    finally:
        _ONLY[0] = None


def _build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="verify", description="Prove AMD GPU cross-lane lowerings against shuffle and reduction specs.",
                epilog=EXIT_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="store_true", help="print the versions of verify, z3 and llvmlite/LLVM")
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND", parser_class=_Parser)

    lo = _command(sub, "lowering", "prove a lowering refines its spec", "name", "wave", "target", "timeout",
                  "assume", "robust", "json", "times")
    lo.add_argument("--smt2", metavar="DIR", help="also write every proof obligation to DIR as SMT-LIB 2")
    lo.add_argument("--svg", metavar="FILE", help="also draw the lane flow (the counterexample's, if any) to FILE as SVG")
    lo.add_argument("--double-check", action="store_true",
                    help="re-ask every obligation of each proof of the second solver, bitwuzla (pip install bitwuzla), "
                         "without a time limit; a disagreement or its unknown makes the run unknown (exit 3)")
    lo.add_argument("--svg-full", action="store_true",
                    help="draw every instruction (by default those off a counterexample's path are folded, <= 1200 px)")

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
    am.add_argument("--svg-full", action="store_true",
                    help="draw every instruction (by default those off a counterexample's path are folded, <= 1200 px)")

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
    tv.add_argument("--svg", metavar="FILE", help="also draw the lane flow of the first counterexample with a lane "
                                                  "table (a function's result, a kernel's store) to FILE as SVG")
    tv.add_argument("--svg-full", action="store_true",
                    help="with --svg: draw every instruction (default: those off the path folded, at most 1200 px)")
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

# command -> (module of verify/commands, function)
COMMANDS = {
    "asm": ("asm", "cmd_asm"),
    "tv": ("tv", "cmd_tv"),
    "synth": ("synth", "cmd_synth"),
    "lowering": ("lowering", "cmd_lowering"),
    "prove": ("prove", "cmd_prove"),
    "check": ("prove", "cmd_check"),
    "emit": ("emit", "cmd_emit"),
    "list": ("listing", "cmd_list"),
    "show": ("show", "cmd_show"),
    "targets": ("listing", "cmd_targets"),
    "specs": ("listing", "cmd_specs"),
}


def command(name: str) -> Callable[[argparse.Namespace, TextIO, TextIO], int]:
    """The function running a command, its module imported now (only this
    command's modules load: tests/test_imports.py)."""
    module, func = COMMANDS[name]
    run: Callable[[argparse.Namespace, TextIO, TextIO], int] = getattr(
        importlib.import_module(f"{__package__}.commands.{module}"), func)
    return run


def main(argv: list[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        args = parser(_only(sys.argv[1:] if argv is None else argv)).parse_args(argv)
        if args.version:
            from .about import versions

            print("\n".join(versions()), file=out)
            return EXIT_PROVED
        if not args.cmd:
            parser().print_help(out)
            return EXIT_ERROR
        return command(args.cmd)(args, out, err)
    except InputError as e:
        print(str(e), file=err)
        return EXIT_ERROR
    except VerifyError as e:
        print(f"error: {e}", file=err)
        return EXIT_ERROR
    except BrokenPipeError:
        return 0
    except Exception:  # a bug in verify: exit 5, never 1 (a refutation's code)
        import traceback

        traceback.print_exc(file=err)
        print("error: internal error in verify (exit 5): please report it with the traceback above", file=err)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
