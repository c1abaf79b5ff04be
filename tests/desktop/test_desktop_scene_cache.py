"""The repaint cache a world shares with its forks and keeps across restores never changes a
result: every scene and frame is the one a world with a cold cache composes."""

from __future__ import annotations

import random

from desktop_fixture import M, app, click, definition, desktop, key, ok, type_, world

from cwgym import World

VIEWPORTS = ((1280, 800), (320, 240), (84, 84))
SCRIPT = [app("launch", kind="notepad_test"), type_("alpha"), app("launch", kind="files"), key("Meta")]


def _looks(env) -> list:
    """Scene digests and frames at every viewport, smallest first (a cold cache paints there first)."""
    return [(env.scene(w, h)["digest"], env.render(w, h)["rgba"]) for w, h in reversed(VIEWPORTS)]


def _cold(w: World, session: str) -> list:
    """What a separate world (its own, empty cache) shows in ``w``'s state."""
    other = World(definition(), 7)
    other.import_snapshot(w.export_snapshot())
    return _looks(other.session(session))


def test_a_fork_shows_what_a_cold_world_shows():
    w = world()
    env = desktop(w)
    env.step(SCRIPT)
    before = _looks(env)
    fork = w.fork()
    ok(fork.session(env.id), type_("fork only"))
    assert _looks(env) == before
    assert _looks(fork.session(env.id)) == _cold(fork, env.id)


def test_a_restore_never_brings_back_a_stale_scene():
    w = world()
    env = desktop(w)
    snap = w.snapshot()
    start = _looks(env)
    env.step(SCRIPT)
    w.restore(snap)
    assert _looks(env) == start
    env.step([app("launch", kind="files"), type_("beta")])
    assert _looks(env) == _cold(w, env.id)


def test_a_file_written_outside_the_desktop_shows_in_an_open_folder():
    w = world()
    env = desktop(w)
    ok(env, app("launch", kind="files"))
    shown = env.scene(1280, 800)
    machine = w.machine(M)
    machine.user_fs().write(f"{machine.home}/fresh.txt", machine.home, b"new\n")
    assert env.scene(1280, 800)["digest"] != shown["digest"]
    texts = [t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"]]
    assert "fresh.txt" in texts
    assert _looks(env) == _cold(w, env.id)


def test_reused_pieces_of_a_window_never_change_what_it_shows():
    """Files reuses rows, toolbars and the sidebar painted in earlier states (another row
    selected, another sort); every state still looks as a world with a cold cache shows it."""
    w = world()
    env = desktop(w)
    ok(env, app("launch", kind="files"))
    rng = random.Random(3)
    targets = [f"window:0:content:open:{i}" for i in range(4)] + [
        "window:0:content:files-sort:size",
        "window:0:content:files-sort:name",
        "window:0:content:files-hidden",
        "window:0:content:files-star",
        "window:0:content:files-back",
    ]
    for _ in range(12):
        target = rng.choice(targets)
        scene = env.scene(1280, 800)
        if any(n["interaction"] == target for n in scene["nodes"]):
            click(env, target)
            assert _looks(env) == _cold(w, env.id), target
