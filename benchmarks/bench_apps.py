"""App rows: a keystroke into the editor (type then Backspace), a click that opens a folder
in the file manager, and the scene with files, editor and terminal open."""

from __future__ import annotations

from benchmarks.harness import Row, measure, reference_engine
from benchmarks.worlds import default_world
from cwgym import World

GROUP = "apps"
M = "workstation"
CONFIG = {
    "actor": "ada",
    "machines": [M],
    "actions": ["application.v1", "keyboard.v1", "pointer.v1"],
    "observations": ["semantic.v1", "pixels.v1"],
}


def _env(make, kind: str, argument: str | None = None):
    env = make().environment(CONFIG)
    payload = {"kind": kind} if argument is None else {"kind": kind, "argument": argument}
    out = env.step([{"family": "application.v1", "op": "launch", "machine": M, "payload": payload}])
    return env, out["outcomes"][0]["value"]["window"]


def run(quick: bool = False) -> list[Row]:
    ref = reference_engine()
    definition = default_world()
    n = 50 if quick else 300
    ours = lambda: World(definition, 7)  # noqa: E731
    theirs = (lambda: ref.World(definition, 7)) if ref else None
    rows: list[Row] = []

    def keystroke(make):
        def setup():
            env, _ = _env(make, "editor", "/home/ada/notes.txt")
            batch = [
                {"family": "keyboard.v1", "op": "type", "machine": M, "payload": {"text": "x"}},
                {"family": "keyboard.v1", "op": "key", "machine": M, "payload": {"key": "Backspace"}},
            ]
            return lambda: env.step(batch)
        return setup

    rows.append(measure(GROUP, "editor keystroke: type + Backspace (two actions)", "default", keystroke(ours), n,
                        keystroke(theirs) if theirs else None))

    def open_folder():
        world = ours()
        env, _ = _env(lambda: world, "files", "/home/ada")
        scene = world.scene(env.id, 1280, 800)
        start = world.snapshot()
        row = next(a for a in scene.accessibility() if a.name.rstrip("/") == "Documents" and a.hit)
        x, y = row.hit
        action = [{"family": "pointer.v1", "op": "double_click", "machine": M, "payload": {"x": x, "y": y, "width": 1280, "height": 800}}]

        def call():
            world.restore(start)
            return env.step(action)
        return call

    row = measure(GROUP, "files: double-click that opens a folder", "default", open_folder, n)
    row.note = "timed call includes a snapshot restore (O(1)) so every click opens the folder afresh"
    rows.append(row)

    def three_windows(make):
        def setup():
            env = make().environment(CONFIG)
            for kind in ("files", "editor", "terminal"):
                env.step([{"family": "application.v1", "op": "launch", "machine": M, "payload": {"kind": kind}}])
            return lambda: env.scene(1280, 800)
        return setup

    rows.append(measure(GROUP, "scene(1280, 800) with files, editor and terminal open", "default", three_windows(ours), n,
                        three_windows(theirs) if theirs else None))
    return rows
