"""Registering envs with Gymnasium: every ``envs/*.json`` entry, and procedures given as data.

Entry points are strings and kwargs are the entry's JSON, so each spec round-trips through
``EnvSpec.to_json()``. Importing :mod:`cwgym.rl` (which ``import cwgym`` does) registers
every suite entry, and ``gymnasium.make("cwgym:cwgym/<name>-v<N>")`` imports ``cwgym`` itself.
:func:`reload_envs` re-reads the suites after the data folder changed (``--data``), and
:func:`register_procedure` turns a procedure written as a dict into an env id.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable
from typing import Any

import gymnasium as gym
import msgspec

from cwgym.resources import DataError
from cwgym.rl.specs import NAMESPACE, EnvEntry, load_suites

__all__ = [
    "DEFAULT_MAX_EPISODE_STEPS",
    "ENTRY_POINT",
    "VECTOR_ENTRY_POINT",
    "register_envs",
    "register_procedure",
    "reload_envs",
]

ENTRY_POINT = "cwgym.rl.env:ComputerEnv"
VECTOR_ENTRY_POINT = "cwgym.rl.vector:make_vector_env"
#: The step limit of a procedure registered as data (the ``procedures`` suite's).
DEFAULT_MAX_EPISODE_STEPS = 200

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_FROM_SUITES: set[str] = set()  # ids registered from suite files


def _suite_entries(strict: bool) -> list[EnvEntry]:
    """The current data folder's suite entries; without ``strict``, no data is a warning."""
    try:
        return load_suites(strict=strict)
    except DataError as exc:
        if strict:
            raise
        warnings.warn(f"cwgym envs: none registered: {exc}", stacklevel=3)
        return []


def _register(env_id: str, kwargs: dict[str, Any], max_episode_steps: int | None) -> None:
    gym.register(
        id=env_id,
        entry_point=ENTRY_POINT,
        vector_entry_point=VECTOR_ENTRY_POINT,
        max_episode_steps=max_episode_steps,
        kwargs=dict(kwargs),
    )


def _differs(existing: Any, kwargs: dict[str, Any], max_episode_steps: int | None) -> bool:
    return existing.kwargs != kwargs or existing.max_episode_steps != max_episode_steps


def register_envs(entries: Iterable[EnvEntry] | None = None, *, strict: bool = False) -> list[str]:
    """Register ``entries`` (every suite's by default) and return their ids.

    An id already registered with the same spec is left alone, so calling this again is
    harmless; one registered differently is replaced (Gymnasium warns). Without
    ``strict``, a suite file that cannot be read, or no data folder at all, is skipped with
    a warning (what importing ``cwgym`` does).
    """
    if entries is None:
        entries = _suite_entries(strict)
    ids = []
    for e in entries:
        existing = gym.registry.get(e.id)
        if existing is None or _differs(existing, e.kwargs, e.max_episode_steps):
            _register(e.id, e.kwargs, e.max_episode_steps)
        _FROM_SUITES.add(e.id)
        ids.append(e.id)
    return ids


def reload_envs(*, strict: bool = False) -> list[str]:
    """Register the suites of the data folder as it is now; return their ids.

    For after ``CWGYM_DATA`` changed (``cwgym --data DIR``): ids an earlier registration
    took from suite files that no longer define them are unregistered, and changed ones
    are replaced quietly. Procedures registered as data stay.
    """
    entries = _suite_entries(strict)
    current = {e.id for e in entries}
    for stale in sorted(_FROM_SUITES - current):
        gym.registry.pop(stale, None)
        _FROM_SUITES.discard(stale)
    for e in entries:
        existing = gym.registry.get(e.id)
        if existing is not None and _differs(existing, e.kwargs, e.max_episode_steps):
            del gym.registry[e.id]
    return register_envs(entries)


def register_procedure(
    procedure: dict[str, Any] | str | bytes,
    *,
    world: str | None = None,
    interface: str = "screen",
    max_episode_steps: int | None = DEFAULT_MAX_EPISODE_STEPS,
    name: str | None = None,
    version: int = 0,
    **config: Any,
) -> str:
    """Register a procedure given as data (a dict, or JSON text) as a Gymnasium env; its id.

    The id is ``cwgym/<name>-v<version>``, ``name`` being the procedure's id by default;
    ``gymnasium.make(id)`` then works in this process (and in processes forked from it:
    a worker started with ``spawn`` knows only the procedure files, so put the procedure
    under ``procedures/`` for those). Registering the same name again replaces it; a
    procedure id stands for one procedure, so registering it again changes it for every env
    made from it afterwards.

    Args:
        procedure: the procedure, in the format of ``procedures/*.json``.
        world: the world it runs in (default: the procedure's own ``world``).
        interface: the action interface (``screen``: pointer and keyboard envelopes, with
            the default pixels and instruction observations).
        max_episode_steps: the step limit (``None``: none).
        **config: any other :class:`~cwgym.rl.config.TaskConfig` field (``obs``,
            ``actions``, ``observations``, ``reward``, ``viewport``, ...).

    Raises:
        ProcedureError: the procedure does not hold together (the message has the JSON
            path), or its id is a library procedure's.
        TypeError, ValueError: a configuration field that is unknown or out of range.
        DataError: no such world.
        gymnasium.error.RegistrationError: the id is one a suite file registers.
    """
    from cwgym.procedures import ProcedureError, parse_procedure
    from cwgym.procedures.library import add_procedure, procedure_path
    from cwgym.resources import load_world
    from cwgym.rl.config import task_config

    env_name = name
    if env_name is not None and not _NAME.fullmatch(env_name):
        raise ValueError(f"name must be letters, digits, '.', '_' or '-', got {env_name!r}")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise ValueError(f"version must be a non-negative int, got {version!r}")
    if max_episode_steps is not None and (not isinstance(max_episode_steps, int) or max_episode_steps < 1):
        raise ValueError(f"max_episode_steps must be a positive int or None, got {max_episode_steps!r}")
    parsed = parse_procedure(procedure, "<register_procedure>")
    if world is not None:
        parsed = msgspec.structs.replace(parsed, world=world)
    try:
        path = procedure_path(parsed.id)
    except KeyError:
        path = None
    if path is not None:
        raise ProcedureError("<register_procedure>", "$.id", f"id {parsed.id!r} is the library procedure {path.name}: give yours another id")
    if env_name is None and not _NAME.fullmatch(parsed.id):
        raise ValueError(f"the procedure id {parsed.id!r} cannot be an env name: pass name=")
    kwargs = {**config, "procedure": parsed.id, "interface": interface}
    if world is not None:
        kwargs["world"] = world
    task_config(kwargs)
    load_world(parsed.world)
    env_id = f"{NAMESPACE}/{env_name or parsed.id}-v{version}"
    if env_id in _FROM_SUITES:
        raise gym.error.RegistrationError(f"{env_id} is an env of the suite files: pass register_procedure another name=")
    add_procedure(parsed)
    gym.registry.pop(env_id, None)
    _register(env_id, kwargs, max_episode_steps)
    return env_id
