"""``cwgym dataset``: performed procedures as a dataset of checked episodes.

    cwgym dataset --out data/ --episodes 100 --negatives 1
    cwgym dataset --out data/ --procedures legal-engagement-letter ops-backup-script --episodes 5 --frames

Writes ``episodes.jsonl`` (one line per episode: the instruction, every step with its phase
label and target, the verdict, the end state hash, the GUI and tool counts) and
``summary.json`` (totals per procedure and the token convention), and with ``--frames``
the screen each GUI action was chosen from, re-rendered by replay. Every negative must be
rejected and every demonstration must verify; otherwise the command exits with status 1
naming the episodes. A progress bar runs on stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from cwgym.cli.common import UserError, non_negative, positive, size, unknown_procedure
from cwgym.procedures import ProcedureError
from cwgym.procedures.dataset import Options, generate, progress_bar


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("dataset", help="perform procedures and write a dataset of checked episodes",
                            description="Perform procedures for many seeds and write the checked episodes "
                                        "(episodes.jsonl, summary.json, and with --frames the screens).")
    parser.add_argument("--out", required=True, metavar="DIR", help="folder to write episodes.jsonl, summary.json and frames/ into")
    parser.add_argument("--procedures", nargs="+", metavar="ID", help="procedure ids (default: the whole library)")
    parser.add_argument("--episodes", type=positive, default=10, help="seeds per procedure")
    parser.add_argument("--seed-start", type=non_negative, default=0, help="the first seed")
    parser.add_argument("--negatives", type=non_negative, default=0, metavar="K", help="corrupted episodes per seed")
    parser.add_argument("--frames", action="store_true", help="save the PNG each GUI action was chosen from")
    parser.add_argument("--mode", choices=("gui", "tool"), default="gui", help="perform on screen or through tools")
    parser.add_argument("--typing", choices=("text", "keys"), default="text", help="one action per text or per character")
    parser.add_argument("--size", type=size, default="1280x800", help="viewport WIDTHxHEIGHT")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        width, height = size(getattr(args, "size", "1280x800"))
    except argparse.ArgumentTypeError as exc:
        print(f"cwgym dataset: --size: {exc}", file=sys.stderr)
        return 2
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {args.out}: a file, not a folder")
    options = Options(
        procedures=args.procedures, episodes=args.episodes, seed_start=args.seed_start, negatives=args.negatives,
        frames=args.frames, mode=getattr(args, "mode", "gui"), typing=getattr(args, "typing", "text"),
        width=width, height=height,
    )
    try:
        from cwgym.procedures.library import load_all, load_procedure

        count = len(options.procedures) if options.procedures else len(load_all())
        if options.procedures:
            for procedure_id in options.procedures:
                load_procedure(procedure_id)
    except KeyError as exc:
        print(f"cwgym dataset: {unknown_procedure(exc)}", file=sys.stderr)
        return 2
    except ProcedureError as exc:
        print(f"cwgym dataset: {exc}", file=sys.stderr)
        return 2
    total = count * options.episodes * (1 + options.negatives)
    started = time.perf_counter()
    bar = progress_bar(total, enabled=not getattr(args, "no_progress", False))
    try:
        result = generate(args.out, options, progress=bar.update)
    except ValueError as exc:
        print(f"cwgym dataset: {exc}", file=sys.stderr)
        return 2
    finally:
        bar.close()
    seconds = time.perf_counter() - started
    totals = result.summary["totals"]
    print(
        f"{args.out}: {result.episodes} episodes ({totals['episodes']} demonstrations, {totals['verified']} verified; "
        f"{totals['negatives']} negatives, {totals['rejected']} rejected), {result.frames} frames, {seconds:.1f} s"
    )
    if result.problems:
        for problem in result.problems:
            print(f"cwgym dataset: {problem}", file=sys.stderr)
        return 1
    return 0
