"""Desktop state is world state: hashed, snapshotted, forked, exported, same in any process."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from desktop_fixture import app, definition, desktop, key, ok, point, ptr, type_, window, world

from cwgym import World

SCRIPT = [
    app("launch", kind="notepad_test"),
    type_("alpha"),
    app("launch", kind="notepad_test", argument="/home/ada/Desktop/todo.note"),
    key("Tab"),
    ptr("wheel", 500, 450, delta_y=84),
    key("Meta"),
    type_("term"),
]


def _run(w: World):
    env = desktop(w)
    effects = [o["effect"]["state"] for o in env.step(SCRIPT)["outcomes"]]
    return env, effects


def test_scene_digest_and_effects_survive_restore_and_fork():
    w = world()
    env, _ = _run(w)
    snap = w.snapshot()
    scene = env.scene(1280, 800)
    hash_before = w.state_hash()
    ok(env, key("Escape"))
    x, y = point(env.scene(1280, 800), "window:0:drag")
    env.step([ptr("down", x, y), ptr("move", x + 40, y + 40), ptr("up", x + 40, y + 40), type_("!")])
    assert env.scene(1280, 800)["digest"] != scene["digest"] and w.state_hash() != hash_before
    fork = w.fork(snap)
    w.restore(snap)
    assert w.state_hash() == hash_before == fork.state_hash()
    assert env.scene(1280, 800) == scene
    assert fork.session(env.id).scene(1280, 800) == scene
    # the restored world acts exactly like the original did
    a = env.step([key("Escape"), type_("z")])["outcomes"]
    b = fork.session(env.id).step([key("Escape"), type_("z")])["outcomes"]
    assert a == b


def test_a_snapshot_does_not_see_later_changes():
    w = world()
    env, _ = _run(w)
    snap = w.snapshot()
    env.step([key("Escape"), app("close", window=0), app("launch", kind="notepad_test")])
    w.restore(snap)
    scene = env.scene(1280, 800)
    assert [x["id"] for x in scene["windows"]] == [0, 1]
    assert window(scene, 0)["title"] == "*Untitled"


def test_export_and_import_carry_the_desktop():
    w = world()
    env, _ = _run(w)
    text = w.export_snapshot()
    doc = json.loads(text)
    assert doc["sessions"][0]["desktops"]["workstation"]["windows"][0]["state"]["text"] == "alpha"
    other = World(definition(), seed=99)
    other.import_snapshot(text)
    assert other.state_hash() == w.state_hash()
    assert other.session(env.id).scene(1280, 800) == env.scene(1280, 800)


def test_the_same_run_in_a_fresh_process_with_another_hash_seed():
    code = textwrap.dedent(
        f"""
        import json, sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from desktop_fixture import world
        from test_desktop_determinism import _run
        w = world()
        env, effects = _run(w)
        scene = env.scene(1280, 800)
        small = env.scene(84, 84)
        print(json.dumps([w.state_hash(), effects, scene["digest"], small["digest"],
                          [n["revision"] for n in scene["nodes"]], env.observe()]))
        """
    )
    outputs = []
    for seed in ("0", "31337"):
        proc = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True,
            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).parents[2])},
        )
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    w = world()
    env, effects = _run(w)
    here = json.loads(outputs[0])
    assert here[0] == w.state_hash() and here[1] == effects and here[2] == env.scene(1280, 800)["digest"]


def test_state_hash_covers_window_geometry_and_application_state():
    w = world()
    env = desktop(w)
    ok(env, app("launch", kind="notepad_test"))
    seen = {w.state_hash()}
    ok(env, type_("a"))
    seen.add(w.state_hash())
    ok(env, app("maximize"))
    seen.add(w.state_hash())
    ok(env, key("Tab"))
    seen.add(w.state_hash())
    assert len(seen) == 4
    assert "desktops" in w.inspect()["state"]["sessions"][env.id]


def test_the_repaint_cache_never_changes_a_result():
    w = world()
    env, _ = _run(w)
    warm = env.scene(1280, 800)
    w.runtime.gui_cache.clear()
    assert env.scene(1280, 800) == warm
    cold = world()
    cold_env, _ = _run(cold)
    assert cold_env.scene(1280, 800) == warm


def test_replay_of_a_desktop_session_reaches_the_same_state():
    from cwgym.environment.replay import replay

    w = world()
    w.enable_replay_verification()
    _run(w)
    again = replay(definition(), 7, w.trajectory())
    assert again.state_hash() == w.state_hash()
