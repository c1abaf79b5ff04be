"""Env-suite specs: ``envs/*.json``, read into one entry per Gymnasium id.

A suite file is::

    {
      "suite": "easy",
      "title": "...",
      "defaults": {"obs": ["elements", "instruction"], "max_episode_steps": 40, ...},
      "envs": [
        {"name": "easy-new-folder", "procedure": "easy-new-folder", "interface": "click-element+keys"},
        {"name": "terminal-{procedure}", "procedures": {"exclude_domains": ["easy"]}, "actions": "tool-families"}
      ]
    }

A suite may take another's defaults: ``"extends": "easy"`` names the suite file
``easy.json`` of the same folder, whose ``defaults`` (after its own ``extends``) this
file's ``defaults`` update key by key; only defaults are inherited, never entries, and a
missing parent or a cycle is refused naming the file.

Each entry is ``defaults`` updated by the entry: ``name`` (the id is
``cwgym/<name>-v<version>``), ``version`` (0), ``title`` (the procedure's title by
default), ``max_episode_steps``, and the keyword arguments of
:class:`~cwgym.rl.config.TaskConfig`. An entry with ``procedures`` stands for one env per
library procedure it selects (``domains``, ``exclude_domains``, ``exclude`` (ids left out), and ``tool_families``: only
procedures whose tool calls use nothing else), in id order, with ``{procedure}`` in its
name replaced by the procedure id; ``"actions": "tool-families"`` grants each the families
its tool calls use. Entries must agree on nothing but their ids being distinct.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import msgspec

from cwgym.resources import envs_dir

__all__ = ["EnvEntry", "SpecError", "entry", "env_ids", "load_suites", "suite_defaults"]

NAMESPACE = "cwgym"
ENTRY_FIELDS = ("name", "version", "title", "max_episode_steps", "procedures")
SUITE_KEYS = ("suite", "title", "description", "extends", "defaults", "envs")
TOOL_FAMILIES = "tool-families"


class SpecError(ValueError):
    """A suite file that cannot be read: names the file and the entry."""


class EnvEntry(msgspec.Struct, kw_only=True, frozen=True):
    """One registered env: its id, where it comes from, and the env's keyword arguments."""

    id: str
    suite: str
    name: str
    version: int
    title: str
    max_episode_steps: int | None
    kwargs: dict[str, Any]

    @property
    def interface(self) -> str:
        return self.kwargs.get("interface", "screen")

    def to_plain(self) -> dict[str, Any]:
        return msgspec.to_builtins(self)


def _library() -> list[Any]:
    """Every library procedure that loads; a broken file is skipped with a warning."""
    from cwgym.procedures.errors import ProcedureError
    from cwgym.procedures.library import load_file, procedure_files

    procedures = []
    for path in procedure_files():
        try:
            procedures.append(load_file(path))
        except (ProcedureError, OSError) as exc:
            warnings.warn(f"cwgym envs: skipping procedure {path.name}: {exc}", stacklevel=3)
    return sorted(procedures, key=lambda p: p.id)


def _tool_families(procedure: Any) -> list[str]:
    return sorted({call.family for phase in procedure.phases for call in phase.tool})


def _expand(raw: dict[str, Any], where: str, library: list[Any]) -> list[dict[str, Any]]:
    selector = raw.get("procedures")
    if selector is None:
        return [raw]
    if not isinstance(selector, dict) or set(selector) - {"domains", "exclude_domains", "exclude", "tool_families"}:
        raise SpecError(f"{where}: 'procedures' takes domains, exclude_domains, exclude and tool_families")
    domains = selector.get("domains")
    excluded = set(selector.get("exclude_domains") or ())
    left_out = set(selector.get("exclude") or ())
    unknown = sorted(left_out - {p.id for p in library})
    if unknown:
        raise SpecError(f"{where}: 'procedures.exclude' names no library procedure: {', '.join(unknown)}")
    allowed = selector.get("tool_families")
    out = []
    for procedure in library:
        if (domains is not None and procedure.domain not in domains) or procedure.domain in excluded:
            continue
        if procedure.id in left_out:
            continue
        families = _tool_families(procedure)
        if allowed is not None and (not families or set(families) - set(allowed)):
            continue
        item = {k: v for k, v in raw.items() if k != "procedures"}
        item["name"] = raw["name"].replace("{procedure}", procedure.id)
        item["procedure"] = procedure.id
        item.setdefault("title", procedure.title or procedure.id)
        if item.get("actions") == TOOL_FAMILIES:
            item["actions"] = families
        out.append(item)
    return out


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SpecError(f"{path.name}: not a readable JSON file ({exc})") from None


def _is_leaderboard(data: Any) -> bool:
    return isinstance(data, dict) and data.get("kind") == "leaderboard"


def _check_suite(data: Any, where: str) -> None:
    if not isinstance(data, dict) or not isinstance(data.get("envs"), list):
        raise SpecError(f"{where}: a suite file is an object with an 'envs' list (or a leaderboard suite with \"kind\": \"leaderboard\")")
    unknown = sorted(set(data) - set(SUITE_KEYS))
    if unknown:
        raise SpecError(f"{where}: unknown key(s) {', '.join(unknown)}; a suite file has {', '.join(SUITE_KEYS)}")
    if not isinstance(data.get("defaults", {}), dict):
        raise SpecError(f"{where}: 'defaults' must be an object")


def suite_defaults(path: Path, data: dict[str, Any] | None = None, chain: tuple[str, ...] = ()) -> dict[str, Any]:
    """A suite file's ``defaults`` with those of the suites it ``extends`` under them.

    Raises:
        SpecError: ``extends`` names no suite file beside this one, a leaderboard suite, or
            makes a cycle (the message names the file and the chain).
    """
    data = _read(path) if data is None else data
    _check_suite(data, path.name)
    chain = (*chain, path.stem)
    own = data.get("defaults") or {}
    parent = data.get("extends")
    if parent is None:
        return dict(own)
    if not isinstance(parent, str) or not parent or "/" in parent or parent.endswith(".json"):
        raise SpecError(f"{path.name}: 'extends' names another suite of this folder by its file name without .json, e.g. \"easy\"; got {parent!r}")
    if parent in chain:
        cycle = " -> ".join((*chain[chain.index(parent):], parent))
        raise SpecError(f"{path.name}: 'extends' makes a cycle ({cycle})")
    parent_path = path.parent / f"{parent}.json"
    if not parent_path.is_file():
        known = sorted(p.stem for p in path.parent.glob("*.json") if p != path)
        raise SpecError(f"{path.name}: extends {parent!r}, but there is no {parent}.json beside it (suites here: {', '.join(known) or 'none'})")
    parent_data = _read(parent_path)
    if _is_leaderboard(parent_data):
        raise SpecError(f"{path.name}: extends {parent!r}, a leaderboard suite, which has no defaults")
    return {**suite_defaults(parent_path, parent_data, chain), **own}


def _entries_of(path: Path, library: list[Any] | None) -> tuple[list[EnvEntry], list[Any] | None]:
    where = path.name
    data = _read(path)
    if _is_leaderboard(data):
        return [], library  # a leaderboard suite names envs; cwgym eval reads it
    defaults = suite_defaults(path, data)
    suite = data.get("suite") or path.stem
    entries = []
    for index, item in enumerate(data["envs"]):
        here = f"{where} envs[{index}]"
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise SpecError(f"{here}: an entry is an object with a 'name'")
        raw = {**defaults, **item}
        if "procedures" in raw:
            if library is None:
                library = _library()
            expanded = _expand(raw, here, library)
        else:
            expanded = [raw]
        for one in expanded:
            entries.append(_entry(one, suite, here))
    return entries, library


def _entry(raw: dict[str, Any], suite: str, where: str) -> EnvEntry:
    from cwgym.rl.config import TaskConfig

    name = raw["name"]
    version = raw.get("version", 0)
    if not isinstance(version, int) or version < 0:
        raise SpecError(f"{where}: version must be a non-negative int")
    if "{" in name or not name or "/" in name or ":" in name:
        raise SpecError(f"{where}: invalid env name {name!r}")
    if raw.get("actions") == TOOL_FAMILIES:
        raise SpecError(f"{where}: 'actions: tool-families' needs a 'procedures' selector")
    kwargs = {k: v for k, v in raw.items() if k not in ENTRY_FIELDS}
    unknown = sorted(set(kwargs) - set(TaskConfig.__struct_fields__))
    if unknown:
        raise SpecError(f"{where} ({name}): unknown field(s) {', '.join(unknown)}")
    if "procedure" not in kwargs:
        raise SpecError(f"{where} ({name}): no procedure")
    steps = raw.get("max_episode_steps")
    if steps is not None and (not isinstance(steps, int) or steps < 1):
        raise SpecError(f"{where} ({name}): max_episode_steps must be a positive int")
    return EnvEntry(
        id=f"{NAMESPACE}/{name}-v{version}",
        suite=suite,
        name=name,
        version=version,
        title=str(raw.get("title") or kwargs["procedure"]),
        max_episode_steps=steps,
        kwargs=json.loads(json.dumps(kwargs)),
    )


def load_suites(folder: Path | None = None, *, strict: bool = True) -> list[EnvEntry]:
    """Every entry of every ``*.json`` suite in ``folder`` (``envs/`` by default), by file then order.

    Leaderboard suites (``"kind": "leaderboard"``) live beside the env suites and are skipped.

    With ``strict=False`` a file that cannot be read is skipped with a warning (what
    importing ``cwgym`` does, so one broken file never breaks the import).

    Raises:
        SpecError: (strict) a malformed file or entry, or two entries with one id.
    """
    root = folder if folder is not None else envs_dir()
    entries: list[EnvEntry] = []
    seen: dict[str, str] = {}
    library = None
    for path in sorted(root.glob("*.json")):
        try:
            found, library = _entries_of(path, library)
        except SpecError as exc:
            if strict:
                raise
            warnings.warn(f"cwgym envs: skipping {exc}", stacklevel=2)
            continue
        for e in found:
            if e.id in seen:
                message = f"{path.name}: env id {e.id} is also defined in {seen[e.id]}"
                if strict:
                    raise SpecError(message)
                warnings.warn(f"cwgym envs: skipping {message}", stacklevel=2)
                continue
            seen[e.id] = path.name
            entries.append(e)
    return entries


def env_ids(folder: Path | None = None) -> list[str]:
    """The ids of every entry, in file order."""
    return [e.id for e in load_suites(folder)]


def entry(env_id: str, folder: Path | None = None) -> EnvEntry:
    """The entry of one id (``cwgym:`` prefix allowed); ``KeyError`` otherwise."""
    env_id = env_id.split(":", 1)[-1] if env_id.startswith(f"{NAMESPACE}:") else env_id
    for e in load_suites(folder):
        if e.id == env_id:
            return e
    raise KeyError(f"no env {env_id!r} in {folder or envs_dir()}")
