"""Finding the data folders: ``worlds/``, ``procedures/`` and ``envs/``.

One resolver, three places, first hit wins: the ``CWGYM_DATA`` environment variable (a
folder holding the three, such as a clone of the repository; every ``cwgym`` command's
``--data DIR`` sets it), the package data an installed wheel carries (``cwgym/_data/``),
and the source checkout the package was imported from. Loading data happens here, outside
the simulator; the simulator itself never reads host files.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

ENV_VAR = "CWGYM_DATA"
DEFAULT_WORLD = "ubuntu-workstation"
FOLDERS = ("worlds", "procedures", "envs")
_PACKAGE = Path(__file__).resolve().parent


class DataError(FileNotFoundError):
    """A data folder or world that cannot be found or read: the message says which, and the fix."""


def check_data_folder(folder: str | os.PathLike[str], source: str = ENV_VAR) -> Path:
    """``folder`` if it can be the data folder (it holds ``worlds/``); ``source`` names who chose it.

    Raises:
        DataError: no such folder, or one without ``worlds/``.
    """
    root = Path(folder).expanduser()
    named = f"{source} {folder}" if source.startswith("--") else f"{source}={folder}"
    if not root.is_dir():
        raise DataError(f"{named}: no such folder (it should hold {', '.join(f + '/' for f in FOLDERS)} like a clone of cwgym)")
    if not (root / "worlds").is_dir():
        present = [f + "/" for f in FOLDERS if (root / f).is_dir()]
        holds = f"it holds only {', '.join(present)}" if present else "it holds none of them"
        raise DataError(f"{named}: no worlds/ folder; the data folder holds {', '.join(f + '/' for f in FOLDERS)} ({holds})")
    return root


def use_data(folder: str | os.PathLike[str], source: str = "--data") -> Path:
    """Make ``folder`` the data folder of this process and of the processes it starts.

    It sets ``CWGYM_DATA``; envs already registered stay as they are until
    :func:`cwgym.rl.registration.reload_envs` re-reads the suites.

    Raises:
        DataError: ``folder`` cannot be the data folder.
    """
    root = check_data_folder(folder, source).resolve()
    os.environ[ENV_VAR] = str(root)
    return root


def data_root() -> Path:
    """The folder holding ``worlds/``, ``procedures/`` and ``envs/``.

    Raises:
        DataError: ``CWGYM_DATA`` names an unusable folder, or no data is installed.
    """
    override = os.environ.get(ENV_VAR)
    if override:
        return check_data_folder(override)
    for root in (_PACKAGE / "_data", _PACKAGE.parent):
        if (root / "worlds").is_dir():
            return root
    raise DataError(f"cwgym data not found: pass --data DIR or set {ENV_VAR} to a clone of cwgym, or reinstall the package")


def worlds_dir() -> Path:
    return data_root() / "worlds"


def procedures_dir() -> Path:
    return data_root() / "procedures"


def envs_dir() -> Path:
    return data_root() / "envs"


def world_names() -> list[str]:
    """Every world folder that holds a ``world.json``, sorted."""
    return sorted(p.parent.name for p in worlds_dir().glob("*/world.json"))


def load_world(name: str = DEFAULT_WORLD) -> dict[str, Any]:
    """A world definition by folder name (or a path to a JSON file) as a plain dict.

    Raises:
        DataError: no such world (the known ones are named), or a file that is not JSON.
    """
    candidate = Path(name)
    path = candidate if candidate.suffix == ".json" and candidate.is_file() else worlds_dir() / name / "world.json"
    if not path.is_file():
        raise DataError(f"no world {name!r}; known worlds: {', '.join(world_names())} (or give a world.json path)")
    try:
        with path.open("rb") as handle:
            world = json.load(handle)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"{path}: not a readable JSON file ({exc})") from None
    return _with_includes(world, path.parent, "$")


#: The key of an object that stands for a file shipped beside the world: ``{"$include": "pages/a.md"}``.
INCLUDE = "$include"


def _with_includes(value: Any, folder: Path, where: str) -> Any:
    """``value`` with every ``{"$include": "relative/path"}`` replaced by that file: parsed
    when it ends in ``.json``, text otherwise. Paths stay inside the world's folder.

    Raises:
        DataError: naming the JSON path, for a missing or unreadable file, or one outside.
    """
    if isinstance(value, list):
        return [_with_includes(v, folder, f"{where}[{i}]") for i, v in enumerate(value)]
    if not isinstance(value, dict):
        return value
    if INCLUDE not in value:
        return {k: _with_includes(v, folder, f"{where}.{k}") for k, v in value.items()}
    name = value[INCLUDE]
    if len(value) != 1 or not isinstance(name, str) or not name:
        raise DataError(f"{where}: an include is {{\"{INCLUDE}\": \"relative/path\"}} and nothing else")
    target = (folder / name).resolve()
    if folder.resolve() not in target.parents:
        raise DataError(f"{where}: {name!r} is outside the world's folder")
    try:
        text = target.read_text(encoding="utf-8")
        return json.loads(text) if target.suffix == ".json" else text
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"{where}: cannot include {name!r} ({exc})") from None
