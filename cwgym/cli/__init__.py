"""The ``cwgym`` command. Each subcommand is a module with ``add_parser`` and ``run``.

Every command takes ``--data DIR`` (the folder with ``worlds/``, ``procedures/`` and
``envs/``, such as a clone of the repository) and shows its defaults in ``--help``. Exit
status: 0 done; 1 the command ran and its check failed (``verify``, ``dataset``, ``demo``);
2 a user error, reported in one line that names the problem and the fix; 70 an internal
error, a bug, shown with its traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
import warnings

from cwgym._version import __version__, engine_version
from cwgym.cli import (
    dataset,
    demo,
    envs,
    eval,
    play,
    procedure,
    render,
    rollouts,
    train,
    verify,
    view,
    worlds,
)
from cwgym.cli.common import (
    EXIT_BUG,
    EXIT_USAGE,
    CommandParser,
    UserError,
    data_folder,
    print_warning,
    unknown_env,
)

SUBCOMMANDS = (demo, worlds, envs, render, procedure, dataset, play, train, eval, rollouts, verify, view)


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(
        prog="cwgym",
        description="A deterministic simulated computer world for computer-use agents.",
        epilog="`cwgym COMMAND --help` describes a command.",
    )
    parser.add_argument(
        "--version", action="version", version=f"cwgym {__version__} (engine {engine_version})"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.add_parser(sub)
    return parser


def _user_errors() -> tuple[type[BaseException], ...]:
    """The exceptions that are the user's to fix: printed in one line, exit status 2."""
    import gymnasium as gym

    from cwgym.procedures import ProcedureError
    from cwgym.resources import DataError
    from cwgym.rl.specs import SpecError

    return (UserError, DataError, SpecError, ProcedureError, gym.error.UnregisteredEnv, gym.error.DeprecatedEnv)


def _one_line(exc: BaseException, args: argparse.Namespace) -> str:
    import gymnasium as gym

    if isinstance(exc, gym.error.UnregisteredEnv) and isinstance(getattr(args, "env", None), str):
        return unknown_env(args.env)
    text = " ".join(str(exc).split("\n")).strip()
    if isinstance(exc, gym.error.Error):
        text += " (`cwgym list` lists every env id)"
    return text


def main(argv: list[str] | None = None) -> int:
    """Run ``cwgym`` with ``argv`` (``sys.argv[1:]`` by default); the exit status."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as done:  # --help, --version, or a usage error already reported
        return done.code if isinstance(done.code, int) else EXIT_USAGE
    prog = args.prog
    with warnings.catch_warnings():
        warnings.showwarning = print_warning
        try:
            with data_folder(getattr(args, "data", None)):
                return int(args.run(args) or 0)
        except _user_errors() as exc:
            print(f"{prog}: {_one_line(exc, args)}", file=sys.stderr)
            return EXIT_USAGE
        except KeyboardInterrupt:
            print(f"{prog}: interrupted", file=sys.stderr)
            return 130
        except BrokenPipeError:  # `cwgym list | head`: the reader has gone; nothing more to say
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
        except Exception:
            traceback.print_exc()
            print(f"{prog}: internal error: this is a bug in cwgym {__version__}; please report it with the traceback above",
                  file=sys.stderr)
            return EXIT_BUG


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
