"""Native application rows: for each of the fourteen, launching it, a keystroke then
``scene(1280, 800)`` with it focused, and a keystroke then a 1280x800 render (a frame drawn
afresh: an unchanged screen's frame is cached) — on the
``ubuntu-apps`` world, beside the reference engine's same application where it launches
one (it refuses calendar, contacts, docs, mail and music without their services)."""

from __future__ import annotations

from benchmarks.harness import Row, measure, reference_engine
from cwgym import World
from cwgym.resources import load_world

GROUP = "native"
M = "workstation"
CONFIG = {
    "actor": "ada",
    "machines": [M],
    "actions": ["application.v1", "keyboard.v1", "pointer.v1"],
    "observations": ["semantic.v1", "pixels.v1"],
}
APPS = (
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
#: The key each application gets: a character it takes where it has a focused field.
KEYS = {"calculator": "7", "spreadsheet": "7"}
#: Where an application opens on a start screen, the button that opens a blank document.
#: It is clicked, in either engine, when the launched window shows it, so both time a
#: keystroke typed into a document: the reference's spreadsheet opens on a start centre
#: (a keystroke there changes nothing), and both engines' notes take typing in a new note.
OPEN_DOCUMENT = {"notes": "New note", "spreadsheet": "Blank workbook"}


def _launch(app_id: str) -> list[dict]:
    return [{"family": "application.v1", "op": "launch", "machine": M, "payload": {"kind": app_id}}]


def _opened(make, app_id: str):
    world = make()
    env = world.environment(CONFIG)
    out = env.step(_launch(app_id))["outcomes"][0]
    if not out["success"]:
        raise RuntimeError(f"{app_id} did not launch: {out['error']}")
    label = OPEN_DOCUMENT.get(app_id)
    if label is not None:
        _click_label(env, label)
    return world, env


def _click_label(env, label: str) -> None:
    """Click the centre of the node labelled ``label`` if the screen shows one."""
    for node in env.scene(1280, 800)["nodes"]:
        if (node["semantic"] or {}).get("label") == label and node["interaction"]:
            b, t = node["bounds"], node["transform"]
            x = (b["x"] + b["width"] // 2) * t["a"] // 1024 + t["tx"]
            y = (b["y"] + b["height"] // 2) * t["d"] // 1024 + t["ty"]
            click = {"family": "pointer.v1", "op": "click", "machine": M, "payload": {"x": x, "y": y}}
            out = env.step([click])["outcomes"][0]
            if not out["success"]:
                raise RuntimeError(f"clicking {label!r} failed: {out['error']}")
            return


def run(quick: bool = False) -> list[Row]:
    ref = reference_engine()
    definition = load_world("ubuntu-apps")
    n = 20 if quick else 100
    ours = lambda: World(definition, 7)  # noqa: E731
    theirs = (lambda: ref.World(definition, 7)) if ref else None
    rows: list[Row] = []
    for app_id in APPS:

        def launch(make, app_id=app_id):
            def setup():
                world = make()
                env = world.environment(CONFIG)
                start = world.snapshot()

                def call():
                    world.restore(start)
                    return env.step(_launch(app_id))

                return call

            return setup

        def keystroke(make, app_id=app_id):
            def setup():
                _, env = _opened(make, app_id)
                key = [{"family": "keyboard.v1", "op": "type", "machine": M, "payload": {"text": KEYS.get(app_id, "a")}}]
                return lambda: (env.step(key), env.scene(1280, 800))

            return setup

        def render(make, app_id=app_id):
            def setup():
                _, env = _opened(make, app_id)
                key = [{"family": "keyboard.v1", "op": "type", "machine": M, "payload": {"text": KEYS.get(app_id, "a")}}]
                return lambda: (env.step(key), env.render(1280, 800))  # a keystroke first: a new frame, not a cached one

            return setup

        row = measure(GROUP, f"{app_id}: launch", "ubuntu-apps", launch(ours), n, launch(theirs) if theirs else None)
        row.note = "timed call includes a snapshot restore (O(1)) so every launch opens the first window"
        rows.append(row)
        rows.append(measure(GROUP, f"{app_id}: keystroke then scene(1280, 800)", "ubuntu-apps", keystroke(ours), n,
                            keystroke(theirs) if theirs else None))
        rows.append(measure(GROUP, f"{app_id}: keystroke then render(1280, 800)", "ubuntu-apps", render(ours), max(10, n // 4),
                            render(theirs) if theirs else None))
    return rows
