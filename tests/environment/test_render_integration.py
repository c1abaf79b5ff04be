"""env.render: the gate, the frame shape, incremental frames equal full ones, screenshots."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from cwgym import World
from cwgym.render import render_scene
from cwgym.resources import load_world

M = "workstation"
GUI = {"actor": "ada", "machines": [M], "actions": ["application.v1", "pointer.v1", "keyboard.v1"], "observations": ["pixels.v1"]}


@pytest.fixture
def world():
    return World(load_world("ubuntu-workstation"), seed=3)


def test_render_shape_and_gate(world):
    env = world.environment(GUI)
    frame = env.render(320, 240)
    assert set(frame) == {"width", "height", "rgba"}
    assert (frame["width"], frame["height"], len(frame["rgba"])) == (320, 240, 320 * 240 * 4)
    blind = world.environment({**GUI, "observations": []})
    with pytest.raises(ValueError, match="denied"):
        blind.render(320, 240)
    with pytest.raises(ValueError, match="viewport"):
        env.render(0, 10)


def test_incremental_frames_equal_full_renders(world):
    env = world.environment(GUI)
    env.render(640, 400)
    for action in (
        {"family": "application.v1", "op": "launcher", "machine": M, "payload": {}},
        {"family": "keyboard.v1", "op": "type", "machine": M, "payload": {"text": "te"}},
        {"family": "keyboard.v1", "op": "key", "machine": M, "payload": {"key": "Escape"}},
        {"family": "pointer.v1", "op": "click", "machine": M, "payload": {"x": 60, "y": 40, "width": 640, "height": 400}},
    ):
        env.step([action])
        incremental = env.render(640, 400)["rgba"]
        assert incremental == render_scene(world.scene(env.id, 640, 400))


def test_screenshot_needs_pixels_and_writes_a_png(world):
    env = world.environment(GUI)
    shot = {"family": "application.v1", "op": "shell", "machine": M, "payload": {"target": "shell:screenshot"}}
    first = env.step([shot])["outcomes"][0]
    second = env.step([shot])["outcomes"][0]
    assert first["value"] == {"path": "/home/ada/Pictures/screen-0.png"}
    assert second["value"] == {"path": "/home/ada/Pictures/screen-1.png"}
    assert world.machine(M).fs.read_path(first["value"]["path"]).startswith(b"\x89PNG\r\n\x1a\n")
    semantic_only = world.environment({**GUI, "observations": ["semantic.v1"]})
    refused = semantic_only.step([shot])["outcomes"][0]
    assert refused["error"]["reason"] == "pixels_not_granted"


EPISODE = textwrap.dedent(
    """
    import hashlib
    from cwgym import World
    from cwgym.resources import load_world
    w = World(load_world("ubuntu-workstation"), seed=3)
    e = w.environment({"actor": "ada", "machines": ["workstation"],
                       "actions": ["application.v1", "pointer.v1", "keyboard.v1"], "observations": ["pixels.v1"]})
    out = []
    for a in ([{"family": "application.v1", "op": "launcher", "machine": "workstation", "payload": {}}],
              [{"family": "keyboard.v1", "op": "type", "machine": "workstation", "payload": {"text": "files"}}],
              [{"family": "pointer.v1", "op": "click", "machine": "workstation", "payload": {"x": 30, "y": 130}}]):
        e.step(a)
        for size in ((1280, 800), (320, 240), (84, 84)):
            out.append(hashlib.sha256(e.render(*size)["rgba"]).hexdigest())
    print(" ".join(out))
    """
)


def test_the_same_episode_renders_the_same_bytes_in_two_processes():
    runs = [
        subprocess.run([sys.executable, "-c", EPISODE], capture_output=True, text=True, check=True,
                       env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"}).stdout
        for seed in ("0", "977")
    ]
    assert runs[0] == runs[1] and len(runs[0].split()) == 9


def test_a_keystroke_repaints_only_what_it_draws(world):
    """A text field's new value is announced on a pane-sized node; only the typed glyphs are damage."""
    env = world.environment(GUI)
    env.step([{"family": "application.v1", "op": "launch", "machine": M, "payload": {"kind": "terminal"}}])
    env.render(1280, 800)
    env.step([{"family": "keyboard.v1", "op": "type", "machine": M, "payload": {"text": "x"}}])
    frame = env.render(1280, 800)["rgba"]
    renderer = world.runtime.renderers[(env.id, 1280, 800)]
    assert renderer.last_mode == "partial"
    assert sum(r.area for r in renderer.last_damage) < 40_000
    assert frame == render_scene(world.scene(env.id, 1280, 800))
