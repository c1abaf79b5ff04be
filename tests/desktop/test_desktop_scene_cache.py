"""The repaint cache a world shares with its forks and keeps across restores never changes a
result: every scene and frame is the one a world with a cold cache composes."""

from __future__ import annotations

from desktop_fixture import M, app, definition, desktop, key, ok, type_, world

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
