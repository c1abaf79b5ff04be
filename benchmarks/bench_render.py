"""Render rows: the three-window desktop drawn from scratch, after one keystroke, unchanged,
at 1280x800, 320x240 and 84x84, and a click-and-render loop — beside the reference engine
when it is installed."""

from __future__ import annotations

from benchmarks.harness import Row, measure, rate_note, reference_engine
from benchmarks.worlds import default_world
from cwgym import World
from cwgym.kernel.rng import RandomStreams
from cwgym.render import render_scene

GROUP = "render"
M = "workstation"
CONFIG = {
    "actor": "ada",
    "machines": [M],
    "actions": ["application.v1", "keyboard.v1", "pointer.v1"],
    "observations": ["semantic.v1", "pixels.v1"],
}
KEY = [{"family": "keyboard.v1", "op": "type", "machine": M, "payload": {"text": "x"}}]


def _desktop(make):
    world = make()
    env = world.environment(CONFIG)
    for kind in ("files", "editor", "terminal"):
        env.step([{"family": "application.v1", "op": "launch", "machine": M, "payload": {"kind": kind}}])
    return world, env


def run(quick: bool = False) -> list[Row]:
    ref = reference_engine()
    definition = default_world()
    n = 30 if quick else 200
    ours = lambda: World(definition, 7)  # noqa: E731
    theirs = (lambda: ref.World(definition, 7)) if ref else None
    rows: list[Row] = []
    for width, height in ((1280, 800), (320, 240), (84, 84)):
        size = f"{width}x{height}"

        def scratch(width=width, height=height):
            world, env = _desktop(ours)
            scene = world.scene(env.id, width, height)
            return lambda: render_scene(scene)

        rows.append(measure(GROUP, f"render {size} from scratch (3 windows)", "default", scratch, n // 2))

        def after_key(make, width=width, height=height):
            def setup():
                _, env = _desktop(make)
                env.render(width, height)
                return lambda: (env.step(KEY), env.render(width, height))
            return setup

        rows.append(measure(GROUP, f"keystroke then render {size}", "default", after_key(ours), n,
                            after_key(theirs) if theirs else None))

        def unchanged(make, width=width, height=height):
            def setup():
                _, env = _desktop(make)
                env.render(width, height)
                return lambda: env.render(width, height)
            return setup

        rows.append(measure(GROUP, f"render {size}, unchanged", "default", unchanged(ours), n,
                            unchanged(theirs) if theirs else None))

    def loop(make, width, height):
        def setup():
            _, env = _desktop(make)
            streams = RandomStreams(5)
            clicks = [
                {"family": "pointer.v1", "op": "click", "machine": M,
                 "payload": {"x": streams.randbelow("x", width), "y": streams.randbelow("y", height), "width": width, "height": height}}
                for _ in range(4096)
            ]
            state = {"i": 0}

            def call():
                state["i"] += 1
                env.step([clicks[state["i"] % len(clicks)]])
                return env.render(width, height)
            return call
        return setup

    for width, height in ((84, 84), (320, 240)):
        row = measure(GROUP, f"RL loop: random click + render {width}x{height}", "default", loop(ours, width, height), n,
                      loop(theirs, width, height) if theirs else None)
        row.note = rate_note(row)
        rows.append(row)
    return rows
