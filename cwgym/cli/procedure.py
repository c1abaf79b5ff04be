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

from cwgym.procedures import ProcedureError, load_all
from cwgym.procedures.debug import debug


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("procedure", help="list the expert procedures or debug one")
    actions = parser.add_subparsers(dest="procedure_command", required=True, metavar="ACTION")
    listing = actions.add_parser("list", help="every procedure in the library")
    listing.set_defaults(run=run)
    dbg = actions.add_parser("debug", help="run one procedure for one seed and print every step")
    dbg.add_argument("id", help="the procedure's id (see `cwgym procedure list`)")
    dbg.add_argument("--seed", type=int, default=0)
    dbg.add_argument("--mode", choices=("gui", "tool"), default="gui")
    dbg.add_argument("--typing", choices=("text", "keys"), default="text")
    dbg.add_argument("--upto", type=int, metavar="K", help="stop after phase K (from 1)")
    dbg.add_argument("--text", action="store_true", help="also print the painted text of the screen")
    dbg.add_argument("--png", metavar="FILE", help="save the screen at the end (or at the miss)")
    dbg.add_argument("--size", default="1280x800", help="viewport WIDTHxHEIGHT (default 1280x800)")
    dbg.set_defaults(run=run)


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise SystemExit(f"cwgym procedure: --size must look like 1280x800, got {text!r}") from None
    return width, height


def run(args: argparse.Namespace) -> int:
    if args.procedure_command == "list":
        for p in load_all():
            print(f"{p.id:<32} {p.domain:<12} {len(p.phases)} phases  {p.title or ''}")
        return 0
    width, height = _size(getattr(args, "size", "1280x800"))
    try:
        return debug(
            args.id, args.seed, mode=args.mode, upto=args.upto, text=args.text, png=args.png,
            width=width, height=height, typing=getattr(args, "typing", "text"),
        )
    except (KeyError, ValueError, ProcedureError) as exc:
        print(f"cwgym procedure debug: {exc}", file=sys.stderr)
        return 2
