"""Finding the data folders: ``worlds/``, ``procedures/`` and ``envs/``.

One resolver, three places, first hit wins: the ``CWGYM_DATA`` environment variable (a
folder holding the three), the package data an installed wheel carries
(``cwgym/_data/``), and the source checkout the package was imported from. Loading data
happens here, outside the simulator; the simulator itself never reads host files.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

ENV_VAR = "CWGYM_DATA"
DEFAULT_WORLD = "ubuntu-workstation"
_PACKAGE = Path(__file__).resolve().parent


def data_root() -> Path:
    """The folder holding ``worlds/``, ``procedures/`` and ``envs/``."""
    override = os.environ.get(ENV_VAR)
    if override:
        root = Path(override)
        if not (root / "worlds").is_dir():
            raise FileNotFoundError(f"{ENV_VAR}={override} has no worlds/ folder")
        return root
    for root in (_PACKAGE / "_data", _PACKAGE.parent):
        if (root / "worlds").is_dir():
            return root
    raise FileNotFoundError("cwgym data not found: set CWGYM_DATA or reinstall the package")


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
    """A world definition by folder name (or a path to a JSON file) as a plain dict."""
    candidate = Path(name)
    path = candidate if candidate.suffix == ".json" and candidate.is_file() else worlds_dir() / name / "world.json"
    if not path.is_file():
        raise FileNotFoundError(f"no world {name!r}; known worlds: {', '.join(world_names())}")
    with path.open("rb") as handle:
        return json.load(handle)
