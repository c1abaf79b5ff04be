"""Every native application, exercised the same way on the ``ubuntu-apps`` world: listed
and launchable, offered in the dock, opened by its launcher and with a sample document;
every control it paints answers a click without breaking the world; snapshot, fork and
replay land on the same state; golden frames; the same screen under other hash seeds.

The golden hashes live in ``tests/apps/native_golden.json``. After an intended change to
how an application draws, rewrite them from the repository root with

    python tests/apps/test_native_apps.py --update

and look at the frames it writes (``tests/apps/native_frames/``, not committed) first.
Pixels depend on the skia build, so the hashes are checked only with the skia-python
version that wrote them.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import skia

from cwgym import World
from cwgym.apps import APPS
from cwgym.environment.replay import replay
from cwgym.protocol.catalogue import LABELS, NATIVE
from cwgym.resources import load_world

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GOLDEN = HERE / "native_golden.json"
M = "workstation"
#: The native applications cwgym implements (the issue's fourteen).
IMPLEMENTED = (
    "calculator",
    "calendar",
    "clock",
    "code",
    "contacts",
    "database",
    "docs",
    "mail",
    "music",
    "notes",
    "paint",
    "photos",
    "settings",
    "spreadsheet",
)
#: What each one opens in the sample frame (``None``: launched without an argument).
SAMPLES = {
    "calculator": None,
    "calendar": None,
    "clock": None,
    "code": "/home/ada/Projects/website",
    "contacts": None,
    "database": "/home/ada/Documents/inventory.db",
    "docs": "/home/ada/Documents/report.md",
    "mail": None,
    "music": None,
    "notes": None,
    "paint": "/home/ada/Pictures/forest.png",
    "photos": "/home/ada/Pictures/beach.png",
    "settings": None,
    "spreadsheet": "/home/ada/Documents/budget.csv",
}
VIEWPORTS = ((1280, 800), (84, 84))


def _session(seed: int = 0):
    world = World(load_world("ubuntu-apps"), seed)
    env = world.environment(
        {
            "actor": "ada",
            "machines": [M],
            "actions": ["application.v1", "keyboard.v1", "pointer.v1"],
            "observations": ["semantic.v1", "pixels.v1"],
        }
    )
    return world, env


def _step(env, family: str, op: str, **payload) -> dict:
    return env.step([{"family": family, "op": op, "machine": M, "payload": payload}])["outcomes"][0]


def _open(env, app_id: str) -> int:
    payload = {"kind": app_id}
    if SAMPLES[app_id]:
        payload["argument"] = SAMPLES[app_id]
    out = _step(env, "application.v1", "launch", **payload)
    assert out["success"], (app_id, out)
    assert _step(env, "application.v1", "maximize")["success"]
    return out["value"]["window"]


def _controls(env, window: int) -> list[str]:
    prefix = f"window:{window}:content:"
    elements = env.observe()["channels"]["semantic.v1"][M]["elements"]
    return sorted({e["id"] for e in elements if e["id"].startswith(prefix) and e.get("enabled", True)})


def test_the_fourteen_native_applications_are_implemented_and_catalogued():
    for app_id in IMPLEMENTED:
        assert APPS.get(app_id) is not None, f"{app_id} has no application module"
        assert app_id in NATIVE and app_id in LABELS
    _, env = _session()
    listed = {e["id"]: e for e in _step(env, "application.v1", "list")["value"]}
    for app_id in IMPLEMENTED:
        assert listed[app_id]["launchable"] and listed[app_id]["blocked_by"] is None, listed[app_id]
        assert listed[app_id]["kind"] == "native"


@pytest.mark.parametrize("app_id", IMPLEMENTED)
def test_the_dock_or_grid_launches_it_with_its_title(app_id):
    _, env = _session()
    assert _step(env, "application.v1", "launcher")["success"]
    out = _step(env, "application.v1", "shell", target=f"shell:grid:{app_id}")
    assert out["success"], out
    window = out["value"]["window"]
    scene = env.scene(1280, 800)
    title = next(w["title"] for w in scene["windows"] if w["id"] == window)
    label = next(e["label"] for e in _step(env, "application.v1", "list")["value"] if e["id"] == app_id)
    assert label in title, (app_id, title)


@pytest.mark.parametrize("app_id", IMPLEMENTED)
def test_every_control_answers_a_click_and_the_world_stays_whole(app_id):
    """Click each control of the freshly opened window (from a snapshot each time): the
    action succeeds or fails with a clean error, never an exception, and the world still
    snapshots and hashes."""
    world, env = _session()
    window = _open(env, app_id)
    snap = world.snapshot()
    base = world.state_hash()
    controls = _controls(env, window)
    assert controls, f"{app_id} paints no control"
    for target in controls:
        out = _step(env, "application.v1", "shell", target=target)
        assert out["success"] or out["error"]["code"] in ("invalid", "action_failed", "not_found", "denied"), (target, out)
        world.state_hash()
        env.scene(1280, 800)
        world.restore(snap)
    assert world.state_hash() == base


@pytest.mark.parametrize("app_id", IMPLEMENTED)
def test_snapshot_fork_and_replay_land_on_the_same_state(app_id):
    world, env = _session(seed=3)
    world.enable_replay_verification()
    window = _open(env, app_id)
    controls = _controls(env, window)
    snap = world.snapshot()
    before = world.state_hash()
    for i, target in enumerate(controls[:: max(1, len(controls) // 6)][:6]):
        _step(env, "application.v1", "shell", target=target)
        _step(env, "keyboard.v1", "type", text=f"a{i}")
        _step(env, "keyboard.v1", "key", key="Enter")
    after = world.state_hash()
    scene = env.scene(1280, 800)["digest"]
    fork = world.fork()
    assert fork.state_hash() == after
    again = replay(load_world("ubuntu-apps"), 3, world.trajectory())
    assert again.state_hash() == after
    world.restore(snap)
    assert world.state_hash() == before
    world.restore(fork.snapshot())
    assert world.state_hash() == after and env.scene(1280, 800)["digest"] == scene


def frames() -> dict[str, dict[str, str]]:
    out = {}
    for app_id in IMPLEMENTED:
        _, env = _session()
        _open(env, app_id)
        out[app_id] = {}
        for w, h in VIEWPORTS:
            rgba = bytes(env.render(w, h)["rgba"])
            out[app_id][f"{w}x{h}"] = hashlib.sha256(rgba).hexdigest()
    return out


def fingerprint() -> dict:
    """What must not depend on the process: each application's scene digest and state hash."""
    out = {}
    for app_id in IMPLEMENTED:
        world, env = _session()
        _open(env, app_id)
        out[app_id] = {"scene": env.scene(1280, 800)["digest"], "state": world.state_hash()}
    return out


def test_golden_frames():
    golden = json.loads(GOLDEN.read_text())
    if skia.__version__ != golden["skia"]:
        pytest.skip(f"golden hashes were written with skia-python {golden['skia']}, this is {skia.__version__}")
    assert sorted(golden["frames"]) == sorted(IMPLEMENTED)
    got = frames()
    changed = [f"{a} {v}" for a in IMPLEMENTED for v in got[a] if got[a][v] != golden["frames"][a][v]]
    assert not changed, f"frames changed: {changed}; if intended, run python tests/apps/test_native_apps.py --update"


def test_the_same_screens_in_processes_with_other_hash_seeds():
    here = fingerprint()
    for seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        out = subprocess.run(
            [sys.executable, str(Path(__file__)), "--fingerprint"],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            check=True,
            timeout=600,
        )
        assert json.loads(out.stdout) == here, f"PYTHONHASHSEED={seed} gave another screen"


def _update() -> None:
    from cwgym.render import to_png

    folder = HERE / "native_frames"
    folder.mkdir(exist_ok=True)
    for app_id in IMPLEMENTED:
        _, env = _session()
        _open(env, app_id)
        frame = env.render(1280, 800)
        (folder / f"{app_id}.png").write_bytes(to_png(frame["rgba"], 1280, 800))
    GOLDEN.write_text(json.dumps({"skia": skia.__version__, "frames": frames()}, indent=2, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN} and the frames in {folder}")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    if "--update" in sys.argv:
        _update()
    elif "--fingerprint" in sys.argv:
        print(json.dumps(fingerprint()))
