"""``cwgym procedure``: look at the procedure library and debug one procedure.

    cwgym procedure list
    cwgym procedure debug legal-engagement-letter --seed 7
    cwgym procedure debug legal-engagement-letter --seed 7 --upto 2 --text --png screen.png
    cwgym procedure debug ops-backup-script --seed 1 --mode tool

``debug`` stages the procedure for the seed in a fresh world, performs it and prints every
step with the control it hit. When a gesture finds nothing it prints the acting session's
windows and controls (``--text`` adds the painted text); ``--png`` saves the screen at the
end or at the miss; ``--upto K`` stops after phase K (phases count from 1). The exit
status is 0 when the run completed and verified (with ``--upto``: completed).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cwgym.cli.common import UserError, non_negative, positive, size, unknown_procedure
from cwgym.procedures import ProcedureError, load_all
from cwgym.procedures.debug import debug


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("procedure", help="list the expert procedures or debug one",
                            description="List the procedures of the data folder's procedures/, or debug one.")
    actions = parser.add_subparsers(dest="procedure_command", required=True, metavar="ACTION")
    listing = actions.add_parser("list", help="every procedure in the library",
                                 description="List every procedure of procedures/: id, domain, phases and title.")
    listing.set_defaults(run=run)
    dbg = actions.add_parser("debug", help="run one procedure for one seed and print every step",
                             description="Stage a procedure for a seed in a fresh world, perform it and print every step.")
    dbg.add_argument("id", help="the procedure's id (see `cwgym procedure list`)")
    dbg.add_argument("--seed", type=non_negative, default=0, help="the instance's seed")
    dbg.add_argument("--mode", choices=("gui", "tool"), default="gui", help="perform on screen or through tools")
    dbg.add_argument("--typing", choices=("text", "keys"), default="text", help="one action per text or per character")
    dbg.add_argument("--upto", type=positive, metavar="K", help="stop after phase K (from 1)")
    dbg.add_argument("--text", action="store_true", help="also print the painted text of the screen")
    dbg.add_argument("--png", metavar="FILE", help="save the screen at the end (or at the miss)")
    dbg.add_argument("--size", type=size, default="1280x800", help="viewport WIDTHxHEIGHT")
    dbg.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.procedure_command == "list":
        for p in load_all():
            print(f"{p.id:<32} {p.domain:<12} {len(p.phases)} phases  {p.title or ''}")
        return 0
    width, height = size(getattr(args, "size", "1280x800"))
    if args.png and not Path(args.png).resolve().parent.is_dir():
        raise UserError(f"--png {args.png}: no folder {Path(args.png).parent} to write it in")
    try:
        return debug(
            args.id, args.seed, mode=args.mode, upto=args.upto, text=args.text, png=args.png,
            width=width, height=height, typing=getattr(args, "typing", "text"),
        )
    except KeyError as exc:
        print(f"cwgym procedure debug: {unknown_procedure(exc)}", file=sys.stderr)
        return 2
    except (ValueError, ProcedureError) as exc:
        print(f"cwgym procedure debug: {exc}", file=sys.stderr)
        return 2
