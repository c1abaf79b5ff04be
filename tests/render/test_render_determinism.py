"""Frames are the same bytes in two processes with different hash seeds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import render_scenes

from cwgym.render import render_scene

REPO_ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

_SCRIPT = r"""
import hashlib, json, random, sys
sys.path.insert(0, sys.argv[1])
import render_scenes
from edits import edit
from cwgym.render import Renderer, render_scene
out = {}
for name in ("desktop", "primitives", "transforms", "translucent"):
    for w, h in ((1280, 800), (84, 84)):
        out[f"{name}@{w}x{h}"] = hashlib.sha256(render_scene(render_scenes.build(name, w, h))).hexdigest()
renderer = Renderer()
scene = render_scenes.build("desktop", 320, 240)
rng = random.Random(11)
frames = []
for step in range(8):
    scene = edit(scene, rng, step)
    frames.append(hashlib.sha256(renderer.render(scene)).hexdigest())
out["episode"] = frames
print(json.dumps(out, sort_keys=True))
"""


def _run(seed: str) -> dict:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(REPO_ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(HERE)],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO_ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_two_processes_with_different_hash_seeds_render_the_same_bytes():
    first = _run("1")
    second = _run("4242")
    assert first == second
    import hashlib

    here = hashlib.sha256(render_scene(render_scenes.build("desktop", 84, 84))).hexdigest()
    assert first["desktop@84x84"] == here


def test_rendering_twice_in_one_process_gives_the_same_bytes():
    scene = render_scenes.build("primitives", 320, 240)
    assert render_scene(scene) == render_scene(scene)
