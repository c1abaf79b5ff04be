"""``cwgym render``: draw a world's screen to a PNG, after an optional list of actions.

    cwgym render --out screen.png
    cwgym render --world small-office --machine reception --actions steps.json --size 640x400 --out s.png

The actions file is a JSON list of action envelopes (or of batches: lists of envelopes);
``machine`` may be left out of an envelope and defaults to ``--machine``. The session is
granted the desktop families and both visual channels, plus terminal and filesystem.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cwgym.environment import World
from cwgym.render import to_png
from cwgym.resources import DEFAULT_WORLD, load_world


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("render", help="render a world's screen to PNG, optionally after some actions")
    parser.add_argument("--world", default=DEFAULT_WORLD, help="world name or path to a world.json")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--machine", help="the machine to show (default: the world's first computer)")
    parser.add_argument("--actions", help="JSON file with a list of action envelopes to step first")
    parser.add_argument("--size", default="1280x800", help="viewport WIDTHxHEIGHT (default 1280x800)")
    parser.add_argument("--out", required=True, help="PNG file to write")
    parser.set_defaults(run=run)


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise SystemExit(f"cwgym render: --size must look like 1280x800, got {text!r}") from None
    return width, height


def run(args: argparse.Namespace) -> int:
    width, height = _size(args.size)
    world = World(load_world(args.world), seed=args.seed)
    machine = args.machine or world.definition()["computers"][0]["id"]
    env = world.environment(
        {
            "actor": "cli",
            "machines": [machine],
            "actions": ["application.v1", "keyboard.v1", "pointer.v1", "terminal.v1", "filesystem.v1"],
            "observations": ["semantic.v1", "pixels.v1"],
        }
    )
    if args.actions:
        steps = json.loads(Path(args.actions).read_text())
        if not isinstance(steps, list):
            raise SystemExit("cwgym render: --actions must hold a JSON list")
        for index, item in enumerate(steps):
            batch = item if isinstance(item, list) else [item]
            batch = [dict({"machine": machine}, **a) if isinstance(a, dict) else a for a in batch]
            for outcome in env.step(batch)["outcomes"]:
                if not outcome["success"]:
                    print(f"cwgym render: action {index} failed: {outcome['error']}", file=sys.stderr)
    frame = env.render(width, height)
    Path(args.out).write_bytes(to_png(frame["rgba"], width, height))
    print(f"{args.out}: {width}x{height}, state {world.state_hash()[:16]}")
    return 0
