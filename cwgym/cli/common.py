"""What every ``cwgym`` command shares: its parser, ``--data``, and user errors in one line.

:class:`CommandParser` is the parser class of the top-level command and of every
subcommand (``add_subparsers`` hands it down), so each one shows its defaults in
``--help``, takes ``--data DIR``, and reports a bad option in one line with exit status 2.
A command raises :class:`UserError` for a mistake the user can fix; :func:`cwgym.cli.main`
prints it as ``cwgym <command>: <problem and fix>`` and exits 2.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import os
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

from cwgym.resources import ENV_VAR, data_root, use_data

__all__ = [
    "EXIT_BUG",
    "EXIT_USAGE",
    "CommandParser",
    "UserError",
    "closest_env_ids",
    "data_folder",
    "non_negative",
    "positive",
    "print_warning",
    "read_json",
    "require_env",
    "size",
    "unknown_env",
    "unknown_procedure",
    "world_definition",
]

EXIT_USAGE = 2  # a mistake of the user's: the message says what and how to fix it
EXIT_BUG = 70  # an internal error (sysexits' EX_SOFTWARE): a bug to report


class UserError(Exception):
    """A mistake the user can fix (an unknown name, a missing file, a bad value): exit status 2.

    The message names the problem and the fix, in one line.
    """


def _nothing_to_show(default: Any) -> bool:
    """No default worth a ``(default: ...)``: none, a flag's ``False``, an empty list, or suppressed."""
    return default is None or default is False or default is argparse.SUPPRESS or (isinstance(default, list) and not default)


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """``--help`` shows each option's default, unless its help says it already or it has none."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if "default" in text or _nothing_to_show(default):
            return text
        if not action.option_strings and action.nargs not in (argparse.OPTIONAL, argparse.ZERO_OR_MORE):
            return text
        shown = "x".join(map(str, default)) if isinstance(default, tuple) else "%(default)s"
        return f"{text} (default: {shown})".strip()


class CommandParser(argparse.ArgumentParser):
    """The parser of ``cwgym`` and of each of its commands (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)
        self.add_argument(
            "--data", metavar="DIR", default=argparse.SUPPRESS,
            help=f"the data folder: worlds/, procedures/ and envs/, e.g. a clone of cwgym (default: ${ENV_VAR}, "
                 "else the installed package's data)",
        )
        self.set_defaults(prog=self.prog)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if not kwargs.get("help") and not _nothing_to_show(kwargs.get("default")):
            kwargs["help"] = "(default: %(default)s)"  # argparse shows no default without a help text
        return super().add_argument(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see `{self.prog} --help`)\n")


# -- option values -------------------------------------------------------------------------------
def size(text: str | tuple[int, int]) -> tuple[int, int]:
    """``WIDTHxHEIGHT`` as ``(width, height)`` (an argparse ``type``; a pair passes through)."""
    if isinstance(text, tuple):
        return text
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a size looks like 1280x800, got {text!r}") from None
    if not (1 <= width <= 8192 and 1 <= height <= 8192):
        raise argparse.ArgumentTypeError(f"width and height must be 1..8192, got {text!r}")
    return width, height


def positive(text: str) -> int:
    """An ``int`` of at least 1 (an argparse ``type``)."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def non_negative(text: str) -> int:
    """An ``int`` of at least 0 (an argparse ``type``)."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def read_json(path: str | os.PathLike[str], what: str) -> Any:
    """The JSON in ``path``, or a :class:`UserError` naming ``what`` (``--actions``), the path and the problem."""
    file = Path(path)
    if not file.is_file():
        raise UserError(f"{what} {path}: no such file")
    try:
        return json.loads(file.read_text())
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{what} {path}: cannot read it ({exc})") from None
    except json.JSONDecodeError as exc:
        raise UserError(f"{what} {path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None


def world_definition(name: str) -> dict[str, Any]:
    """A world by name or ``world.json`` path, checked, as a plain dict; a :class:`UserError` if invalid."""
    from cwgym.protocol import load_definition
    from cwgym.protocol.definition import DefinitionError
    from cwgym.resources import load_world

    definition = load_world(name)
    try:
        checked = load_definition(definition)
    except DefinitionError as exc:
        raise UserError(f"world {name!r} is not a valid world definition: {exc} (docs/world-definitions.md)") from None
    if not checked.computers:
        raise UserError(f"world {name!r} has no computers to act on")
    return definition


def unknown_procedure(error: KeyError) -> str:
    """A ``KeyError`` of the procedure library as one line: the closest ids and where to see them all."""
    from cwgym.procedures.library import procedure_ids

    text = str(error.args[0]) if error.args else "no such procedure"
    wanted = text.split("'")[1] if text.count("'") >= 2 else ""
    close = difflib.get_close_matches(wanted, procedure_ids(), n=3, cutoff=0.5)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    return f"{text.split(';')[0]}{hint} (`cwgym procedure list` lists them)"


# -- env ids ----------------------------------------------------------------------------------------
def closest_env_ids(env_id: str, count: int = 3) -> list[str]:
    """The registered env ids most like ``env_id`` (by spelling, then by containing it)."""
    import gymnasium as gym

    known = sorted(gym.registry)
    close = difflib.get_close_matches(env_id, known, n=count, cutoff=0.6)
    words = env_id.split("/")[-1].rsplit("-v", 1)[0]
    close += [i for i in known if words and words in i and i not in close]
    return close[:count]


def require_env(env_id: str) -> str:
    """``env_id`` if Gymnasium knows it (a ``module:`` prefix allowed); else a :class:`UserError`
    that suggests the closest ids and ``cwgym list``."""
    import gymnasium as gym

    bare = env_id.split(":", 1)[1] if ":" in env_id.split("/", 1)[0] else env_id
    if bare in gym.registry:
        return env_id
    raise UserError(unknown_env(env_id))


def unknown_env(env_id: str) -> str:
    """One line for an unknown env id: the closest ids, and a suite file that cannot be read (it may be why)."""
    from cwgym.rl.specs import SpecError, load_suites

    close = closest_env_ids(env_id)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    try:
        load_suites()
    except SpecError as exc:
        hint += f"; a suite file is broken: {exc}"
    return f"unknown env id {env_id!r}{hint} (`cwgym list` lists every id)"


# -- the data folder --------------------------------------------------------------------------------
@contextlib.contextmanager
def data_folder(folder: str | None) -> Iterator[Path]:
    """Run a command on ``folder`` (``--data``), or on the data folder ``CWGYM_DATA`` or the install gives.

    With ``folder``, the suites are registered anew from it for the command and as before
    afterwards (so calling :func:`cwgym.cli.main` in a process leaves it as it was). A suite
    file that cannot be read is skipped quietly here: ``cwgym list`` reports it, and so does
    the error for an env id it would have defined.

    Raises:
        DataError: the folder cannot be the data folder (the message says why and what to do).
    """
    from cwgym.rl.registration import reload_envs

    if folder is None:
        yield data_root()
        return
    previous = os.environ.get(ENV_VAR)
    root = use_data(folder)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a broken suite file is reported where it matters: `list`, an unknown id
            reload_envs()
        yield root
    finally:
        if previous is None:
            os.environ.pop(ENV_VAR, None)
        else:
            os.environ[ENV_VAR] = previous
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reload_envs()


def print_warning(message: Any, category: type[Warning], filename: str, lineno: int, file: Any = None, line: str | None = None) -> None:
    """A warning as one line on stderr (``warnings.showwarning`` while a command runs)."""
    print(f"cwgym: warning: {message}", file=sys.stderr)
