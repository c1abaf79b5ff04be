"""Reading what the viewer shows: an eval run, a dataset, or one episode file.

:func:`load` takes a path and returns a :class:`Source`: its kind (``eval`` for a
``cwgym eval`` folder or its ``submission.json``; ``dataset`` for a ``cwgym dataset``
folder or any ``episodes.jsonl``, ``cwgym play``'s included; ``episode`` for a JSON file
holding one episode record of either format), a title, and the episode records in order.
Nothing here replays; a record's shape is checked only as far as replay needs it, and a
bad one is a :class:`ViewerError` naming the file (and line) and the missing field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["EVAL_FIELDS", "RECORD_FIELDS", "Source", "ViewerError", "load", "record_format"]

#: What an eval record needs to be replayed (``cwgym eval``'s submission episodes).
EVAL_FIELDS = ("env_id", "actions", "rewards", "final_state_hash")
#: What a dataset record needs (an ``episodes.jsonl`` line of ``cwgym dataset`` or ``cwgym play``).
RECORD_FIELDS = ("procedure", "seed", "sessions", "steps", "state_hash")


class ViewerError(ValueError):
    """Input the viewer cannot show: a missing path, a malformed file or record (named)."""


@dataclass
class Source:
    """Episodes to show: ``kind`` is ``eval``, ``dataset`` or ``episode``."""

    kind: str
    path: Path
    title: str
    episodes: list[dict[str, Any]]
    meta: dict[str, Any] = field(default_factory=dict)


def record_format(record: Any, where: str) -> str:
    """``eval`` or ``dataset``: which format an episode record is in.

    Raises:
        ViewerError: neither (the fields either needs are named).
    """
    if not isinstance(record, dict):
        raise ViewerError(f"{where}: an episode record is a JSON object, not {type(record).__name__}")
    if "env_id" in record or "final_state_hash" in record:
        missing = [k for k in EVAL_FIELDS if k not in record]
        kind = "eval"
    else:
        missing = [k for k in RECORD_FIELDS if k not in record]
        kind = "dataset"
    if missing:
        raise ViewerError(f"{where}: the {kind} episode record has no {', '.join(missing)}")
    if kind == "eval" and ("seed" not in record or record["seed"] is None):
        raise ViewerError(f"{where}: the episode {record.get('episode', '?')} records no seed (a hidden-split run cannot be replayed without its secret)")
    if kind == "eval" and not isinstance(record["actions"], list):
        raise ViewerError(f"{where}: the episode's actions are not a list")
    if kind == "dataset" and not isinstance(record["steps"], list):
        raise ViewerError(f"{where}: the episode's steps are not a list")
    return kind


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ViewerError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ViewerError(f"{path}: not valid JSON ({exc})") from None


def _jsonl(path: Path) -> list[dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ViewerError(f"{path}: cannot read it ({exc})") from None
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ViewerError(f"{path}:{number}: not valid JSON ({exc})") from None
        if record_format(record, f"{path}:{number}") != "dataset":
            raise ViewerError(f"{path}:{number}: an eval record in an episodes.jsonl file")
        records.append(record)
    if not records:
        raise ViewerError(f"{path}: holds no episodes")
    return records


def _submission(path: Path) -> Source:
    data = _read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("episodes"), list):
        raise ViewerError(f"{path}: not a cwgym eval submission (it needs an \"episodes\" list)")
    if not data["episodes"]:
        raise ViewerError(f"{path}: holds no episodes")
    for index, record in enumerate(data["episodes"]):
        if record_format(record, f"{path} episodes[{index}]") != "eval":
            raise ViewerError(f"{path} episodes[{index}]: not an eval episode record")
    title = f"{data.get('agent', 'agent')} on {data.get('suite', 'a suite')}"
    meta = {k: data.get(k) for k in ("suite", "agent", "agent_view", "engine_version", "split")}
    return Source("eval", path, title, data["episodes"], meta)


def _dataset(path: Path) -> Source:
    records = _jsonl(path)
    summary_path = path.parent / "summary.json"
    meta = {"summary": _read_json(summary_path)} if summary_path.is_file() else {}
    return Source("dataset", path, f"dataset {path.parent.name or path.name}", records, meta)


def _episode(path: Path, record: Any) -> Source:
    kind = record_format(record, str(path))
    name = record.get("episode") or record.get("id") or path.stem
    return Source("episode", path, f"episode {name}", [record], {"format": kind})


def load(path: str | Path) -> Source:
    """The episodes at ``path`` (see the module docstring).

    Raises:
        ViewerError: no such path, a folder holding neither ``submission.json`` nor
            ``episodes.jsonl``, or a malformed file or record.
    """
    where = Path(path)
    if not where.exists():
        raise ViewerError(f"{where}: no such file or folder (give a cwgym eval or cwgym dataset folder, or an episode file)")
    if where.is_dir():
        for name, reader in (("submission.json", _submission), ("episodes.jsonl", _dataset)):
            if (where / name).is_file():
                return reader(where / name)
        raise ViewerError(f"{where}: holds neither submission.json (cwgym eval --out) nor episodes.jsonl (cwgym dataset --out)")
    if where.suffix == ".jsonl":
        return _dataset(where)
    data = _read_json(where)
    if isinstance(data, dict) and "episodes" in data:
        return _submission(where)
    return _episode(where, data)
