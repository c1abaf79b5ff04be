"""The ``cwgym`` command. Each subcommand is a module with ``add_parser`` and ``run``."""

from __future__ import annotations

import argparse
import sys

from cwgym._version import __version__, engine_version
from cwgym.cli import dataset, demo, envs, eval, procedure, render, train, verify, worlds

SUBCOMMANDS = (demo, worlds, envs, render, procedure, dataset, train, eval, verify)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cwgym",
        description="A deterministic simulated computer world for computer-use agents.",
    )
    parser.add_argument(
        "--version", action="version", version=f"cwgym {__version__} (engine {engine_version})"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.run(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
