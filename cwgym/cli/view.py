"""``cwgym view``: replay episodes into a static site, an episode page each and an overview.

    cwgym view runs/expert --out site/expert
    cwgym view data/ --out site/data --frames every
    cwgym view play/episodes.jsonl --out site/play --serve

PATH is a folder ``cwgym eval`` wrote (its ``submission.json``), a folder ``cwgym
dataset`` wrote (its ``episodes.jsonl``), any ``episodes.jsonl`` (``cwgym play``'s too),
or a JSON file holding one episode record. Every episode is replayed, its frames drawn
again by the renderer (``--frames changed``, the default: a PNG where the screen changed;
``every``: one per step; ``none``: no frames), and checked against what was recorded;
a divergence is printed on stderr naming the episode and the step, shown as a banner on
the pages, and the command exits 1. ``--serve`` then serves the folder on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from cwgym.cli.common import UserError, positive
from cwgym.viewer import ViewerError, build_site, serve
from cwgym.viewer.frames import FRAME_MODES


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("view", help="replay episodes into a static site: an episode viewer and an overview",
                            description="Replay an eval run, a dataset or an episode file, check it, and write a "
                                        "static site (HTML, CSS, JavaScript, JSON, PNG) to open in a browser.")
    parser.add_argument("path", metavar="PATH", help="a cwgym eval or cwgym dataset folder, an episodes.jsonl, or an episode JSON file")
    parser.add_argument("--out", required=True, metavar="DIR", help="the folder to write the site into (new, or an earlier site)")
    parser.add_argument("--frames", choices=FRAME_MODES, default="changed", help="which frames to draw: every step, where the screen changed, or none")
    parser.add_argument("--jobs", type=positive, default=min(2, os.cpu_count() or 1), help="processes replaying episodes")
    parser.add_argument("--serve", action="store_true", help="then serve the site on 127.0.0.1 until interrupted")
    parser.add_argument("--port", type=int, default=8000, help="the port --serve listens on (0: any free port)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise UserError(f"--port must be 0-65535, got {args.port}")
    from tqdm import tqdm

    bar = tqdm(unit="episode", file=sys.stderr, disable=args.no_progress, desc="view")
    try:
        result = build_site(args.path, Path(args.out), args.frames, jobs=args.jobs, progress=bar.update)
    except ViewerError as exc:
        raise UserError(str(exc)) from None
    finally:
        bar.close()
    for divergence in result.divergences:
        print(f"cwgym view: REPLAY DIVERGES: {divergence}", file=sys.stderr)
    n = len(result.divergences)
    verdict = f"{n} diverge{'s' if n == 1 else ''}" if n else "every replay matches what was recorded"
    print(f"{result.index}: {result.episodes} episodes, {result.frames} frames; {verdict}")
    if args.serve:
        try:
            serve(args.out, args.port, announce=lambda url: print(f"serving {args.out} at {url} (Ctrl-C stops)", flush=True))
        except OSError as exc:
            raise UserError(f"--port {args.port}: cannot serve there ({exc.strerror or exc})") from None
        except KeyboardInterrupt:
            pass
    return 1 if result.divergences else 0
