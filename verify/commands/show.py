"""`verify show`: simulate a spec or a lowering concretely (no solver)."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from .. import catalog, svg
from ..assume import parse_assume
from ..diag import InputError
from ..encode import binding_widths, show_instance, simulate_inputs, simulate_spec, spec_wave, spec_widths
from ..lanes import fmt_mask, lane_table, parse_lane_values, parse_mask
from ..refine import static_checks
from .common import dump, print_lines, writable, write
from .loading import load_checked, parse_params


def cmd_show(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.name in catalog.speclib().specs:
        return _show_spec(args, out)
    if args.params:
        raise InputError(None, f"'{args.name}' is not a spec (see `verify specs`); a lowering takes no PARAM=VALUE")
    writable(args.svg, "--svg")
    catalog.spec_or_lowering(args.name)
    return _show_lowering(args, out, err)


def _show_spec(args: argparse.Namespace, out: TextIO) -> int:
    if args.svg:
        raise InputError(None, f"--svg draws a lowering's lane flow; '{args.name}' is a spec")
    params = parse_params(args.params)
    W = spec_wave(args.name, params, args.wave)
    mask = parse_mask(args.exec, W)
    inputs, outputs = simulate_spec(args.name, params, W, mask, parse_lane_values(args.input, W, spec_widths(args.name)))
    return _emit_show(args, out, W, mask, inputs, outputs)


def _emit_show(args: argparse.Namespace, out: TextIO, W: int, mask: int, inputs: dict[str, list[Any]],
               outputs: dict[str, list[Any]]) -> int:
    if args.json:
        return dump({"wave": W, "exec": fmt_mask(mask, W), "outputs": outputs}, out, indent=None)
    print_lines(lane_table(W, mask, [*inputs.items(), *outputs.items()]), out)
    return 0


def _show_lowering(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    low = load_checked(args.name)
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
        write(args.svg, svg.show_svg(low, tgt, W, parse_assume(args.assume), mask, given))
    return _emit_show(args, out, W, mask, inputs, outputs)

