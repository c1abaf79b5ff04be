"""``Environment.scene`` hands out a scene the caller owns: changing it changes nothing else."""

from __future__ import annotations

from cwgym import EnvironmentConfig, World
from cwgym.resources import load_world


def test_a_changed_scene_does_not_change_the_next_one():
    world = World(load_world("ubuntu-workstation"), 7)
    env = world.environment(EnvironmentConfig.desktop("ada", ["workstation"]))
    env.step([{"family": "application.v1", "op": "launch", "machine": "workstation", "payload": {"kind": "files"}}])
    first = env.scene(1280, 800)
    expected = env.scene(1280, 800)
    assert first == expected and first is not expected
    first["nodes"][0]["bounds"]["x"] = -1
    first["nodes"][0]["primitive"]["kind"] = "changed"
    first["nodes"].clear()
    first["focus"].clear()
    if first.get("windows"):
        first["windows"][0]["bounds"]["x"] = -1
    assert env.scene(1280, 800) == expected
