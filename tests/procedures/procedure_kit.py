"""Helpers the procedure tests share: fresh worlds, staged instances, runs in either mode."""

from __future__ import annotations

from pathlib import Path

import msgspec

from cwgym import World
from cwgym.procedures import Instance, Procedure, project, stage
from cwgym.procedures.library import display_path, load_file, procedure_files
from cwgym.resources import load_world

TOOL = {"mode": "tool"}
GUI = {"mode": "gui"}
MODES = {"gui": GUI, "tool": TOOL}
FILES = procedure_files()


def file_id(path: Path) -> str:
    return display_path(path)


def load(path: Path) -> Procedure:
    return load_file(path)


def fresh_world(procedure: Procedure, seed: int = 0) -> World:
    return World(load_world(procedure.world), seed=seed)


def staged(procedure: Procedure | dict, seed: int, world_name: str = "ubuntu-workstation") -> tuple[World, Instance]:
    name = procedure.world if isinstance(procedure, Procedure) else procedure.get("world", world_name)
    world = World(load_world(name), seed=0)
    return world, stage(world, procedure, seed)


def run_mode(procedure: Procedure | dict, seed: int, mode: str, **options):
    world, instance = staged(procedure, seed)
    return world, instance, project(world, instance, {**MODES[mode], **options})


def run_tool(procedure: Procedure | dict, seed: int):
    return run_mode(procedure, seed, "tool")


def run_gui(procedure: Procedure | dict, seed: int, **options):
    return run_mode(procedure, seed, "gui", **options)


def without_phase(instance: Instance, index: int) -> Instance:
    return msgspec.structs.replace(instance, phases=[p for i, p in enumerate(instance.phases) if i != index])


def first_phases(instance: Instance, count: int) -> Instance:
    return msgspec.structs.replace(instance, phases=instance.phases[:count])


def failures(demo) -> list[tuple[str, str, str]]:
    return [(c.kind, c.subject, c.reason) for c in demo.verification.failures()]
