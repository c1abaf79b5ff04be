"""The benchmark worlds: the default world and a generated one ten times larger (10,000 files)."""

from __future__ import annotations

import copy

from cwgym.resources import load_world

LARGE_FILES = 10_000


def default_world() -> dict:
    return load_world("ubuntu-workstation")


def large_world(files: int = LARGE_FILES) -> dict:
    """The default world plus ``files`` generated files spread over 100 project folders."""
    definition = copy.deepcopy(default_world())
    definition["id"] = f"ubuntu-workstation-{files}-files"
    seeded = definition["computers"][0]["initial_files"]
    for i in range(files):
        folder = f"Archive/project-{i % 100:03d}"
        seeded[f"{folder}/record-{i:05d}.txt"] = f"record {i}\nowner: ada\nvalue: {i * 37 % 1000}\n"
    return definition


WORLDS = {"default": default_world, "10k-files": large_world}
