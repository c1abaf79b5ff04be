"""``cwgym worlds``: the bundled world definitions and their machines."""

from __future__ import annotations

import argparse

from cwgym.cli.common import world_definition
from cwgym.protocol import load_definition
from cwgym.resources import DEFAULT_WORLD, world_names


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("worlds", help="list the worlds of the data folder and their machines",
                            description="List the worlds of the data folder (worlds/NAME/world.json) and their machines.")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    for name in world_names():
        definition = load_definition(world_definition(name))
        machines = ", ".join(
            f"{c.id} ({definition.profile(c.profile).name or c.profile}, user {c.user})"
            for c in definition.computers
        )
        marker = " (default)" if name == DEFAULT_WORLD else ""
        print(f"{name}{marker}: {machines}")
    return 0
