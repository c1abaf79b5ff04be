"""``cwgym render``: draw a world's screen to a PNG, after an optional list of actions.

    cwgym render --out screen.png
    cwgym render --world small-office --machine reception --actions steps.json --size 640x400 --out s.png

The actions file is a JSON list of action envelopes (or of batches: lists of envelopes);
``machine`` may be left out of an envelope and defaults to ``--machine``. The session is
granted the desktop families and both visual channels, plus terminal and filesystem.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cwgym.cli.common import UserError, read_json, size, world_definition
from cwgym.environment import World
from cwgym.render import to_png
from cwgym.resources import DEFAULT_WORLD


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("render", help="render a world's screen to PNG, optionally after some actions",
                            description="Draw a world's screen to a PNG, after an optional list of actions.")
    parser.add_argument("--world", default=DEFAULT_WORLD, help="world name (`cwgym worlds`) or path to a world.json")
    parser.add_argument("--seed", type=int, default=0, help="the world's seed")
    parser.add_argument("--machine", help="the machine to show (default: the world's first computer)")
    parser.add_argument("--actions", metavar="FILE", help="JSON file with a list of action envelopes (or of batches) to step first")
    parser.add_argument("--size", type=size, default="1280x800", help="viewport WIDTHxHEIGHT")
    parser.add_argument("--out", required=True, metavar="FILE", help="PNG file to write")
    parser.set_defaults(run=run)


def _batches(path: str, machine: str) -> list[list]:
    """The ``--actions`` file as batches of envelopes, ``machine`` filled in where left out."""
    steps = read_json(path, "--actions")
    if not isinstance(steps, list):
        raise UserError(f"--actions {path}: holds a JSON {type(steps).__name__}; it must hold a list of action envelopes")
    batches = []
    for index, item in enumerate(steps):
        batch = item if isinstance(item, list) else [item]
        if not all(isinstance(a, dict) for a in batch):
            raise UserError(f"--actions {path}: item {index} is not an action envelope (a JSON object) or a list of them")
        batches.append([{"machine": machine, **a} for a in batch])
    return batches


def run(args: argparse.Namespace) -> int:
    width, height = size(args.size)
    out = Path(args.out)
    if not out.resolve().parent.is_dir():
        raise UserError(f"--out {args.out}: no folder {out.parent} to write it in")
    definition = world_definition(args.world)
    machines = [c["id"] for c in definition["computers"]]
    machine = args.machine or machines[0]
    if machine not in machines:
        raise UserError(f"--machine {machine!r}: world {args.world!r} has {', '.join(machines)}")
    batches = _batches(args.actions, machine) if args.actions else []
    world = World(definition, seed=args.seed)
    env = world.environment(
        {
            "actor": "cli",
            "machines": [machine],
            "actions": ["application.v1", "keyboard.v1", "pointer.v1", "terminal.v1", "filesystem.v1"],
            "observations": ["semantic.v1", "pixels.v1"],
        }
    )
    for index, batch in enumerate(batches):
        for outcome in env.step(batch)["outcomes"]:
            if not outcome["success"]:
                print(f"cwgym render: action {index} failed: {outcome['error']}", file=sys.stderr)
    frame = env.render(width, height)
    out.write_bytes(to_png(frame["rgba"], width, height))
    print(f"{args.out}: {width}x{height}, state {world.state_hash()[:16]}")
    return 0
