"""Desktop rows: scene composition with three windows, diff, hit testing, and RL-style loops
(a random click, then an observation) — side by side with the reference engine when present."""

from __future__ import annotations

from benchmarks.harness import Row, measure, rate_note, reference_engine
from benchmarks.worlds import default_world
from cwgym import World
from cwgym.kernel.rng import RandomStreams

GROUP = "desktop"
M = "workstation"
CONFIG = {
    "actor": "ada",
    "machines": [M],
    "actions": ["application.v1", "keyboard.v1", "pointer.v1", "terminal.v1", "filesystem.v1"],
    "observations": ["semantic.v1", "pixels.v1", "terminal.v1"],
}
APPS = ("files", "editor", "terminal")


def _launch_all(env) -> list[str]:
    """Open the three windows; returns the kinds that could not be launched."""
    missing = []
    for kind in APPS:
        out = env.step([{"family": "application.v1", "op": "launch", "machine": M, "payload": {"kind": kind}}])
        if not out["outcomes"][0]["success"]:
            missing.append(kind)
    return missing


def _three_windows(make_world):
    world = make_world()
    env = world.environment(CONFIG)
    missing = _launch_all(env)
    return world, env, missing


def _click_points(n: int, seed: int = 1) -> list[dict]:
    streams = RandomStreams(seed)
    return [
        {"family": "pointer.v1", "op": "click", "machine": M,
         "payload": {"x": streams.randbelow("x", 1280), "y": streams.randbelow("y", 800), "width": 1280, "height": 800}}
        for _ in range(n)
    ]


def run(quick: bool = False) -> list[Row]:
    ref = reference_engine()
    definition = default_world()
    n = 50 if quick else 300
    rows: list[Row] = []
    ours_world = lambda: World(definition, 7)  # noqa: E731
    ref_world = (lambda: ref.World(definition, 7)) if ref else None
    _, _, missing = _three_windows(ours_world)
    label = "3 windows" if not missing else f"3 windows ({', '.join(missing)} not launchable)"

    def scene_setup(make):
        def setup():
            _, env, _ = _three_windows(make)
            return lambda: env.scene(1280, 800)
        return setup

    rows.append(measure(GROUP, "scene(1280, 800)", label, scene_setup(ours_world), n,
                        scene_setup(ref_world) if ref else None))

    def scene_after_key(make):
        def setup():
            _, env, _ = _three_windows(make)
            keys = [{"family": "keyboard.v1", "op": "type", "machine": M, "payload": {"text": "x"}}]
            return lambda: (env.step(keys), env.scene(1280, 800))
        return setup

    rows.append(measure(GROUP, "keystroke then scene(1280, 800)", label, scene_after_key(ours_world), n,
                        scene_after_key(ref_world) if ref else None))

    def typed_diff():
        world, env, _ = _three_windows(ours_world)
        a = world.scene(env.id, 1280, 800)
        b = world.scene(env.id, 1280, 800)
        return lambda: b.diff(a)

    rows.append(measure(GROUP, "Scene.diff of an unchanged scene (typed)", label, typed_diff, n * 10))

    def hit():
        world, env, _ = _three_windows(ours_world)
        scene = world.scene(env.id, 1280, 800)
        scene.hit_test(1, 1)
        points = [(p["payload"]["x"], p["payload"]["y"]) for p in _click_points(64)]
        state = {"i": 0}

        def call():
            state["i"] = (state["i"] + 1) % len(points)
            return scene.hit_test(*points[state["i"]])

        return call

    rows.append(measure(GROUP, "Scene.hit_test (typed)", label, hit, n * 10))

    def loop(make, observe):
        def setup():
            world, env, _ = _three_windows(make)
            clicks = _click_points(10_000)
            state = {"i": 0}

            def call():
                state["i"] += 1
                env.step([clicks[state["i"] % len(clicks)]])
                return observe(world, env)
            return call
        return setup

    semantic = lambda world, env: None  # noqa: E731  (step already returns the semantic.v1 observation)
    for name, observe_ours, observe_ref in (
        ("RL loop: random click + semantic observation", semantic, semantic),
        ("RL loop: random click + scene(1280, 800)", lambda w, e: e.scene(1280, 800), lambda w, e: e.scene(1280, 800)),
        ("RL loop: random click + typed scene (rl path)", lambda w, e: w.scene(e.id, 1280, 800), None),
    ):
        row = measure(GROUP, name, label, loop(ours_world, observe_ours), n,
                      loop(ref_world, observe_ref) if (ref and observe_ref) else None)
        row.extra["steps_per_s"] = 1000.0 / row.extra["mean_ms"]
        row.note = rate_note(row)
        rows.append(row)
    rows += terminal_rows(ours_world, ref_world, n)
    return rows


TERMINAL_CONFIG = {**CONFIG, "observations": ["semantic.v1", "pixels.v1"]}
ECHO = [{"family": "terminal.v1", "op": "execute", "machine": M, "payload": {"command": "echo hello"}}]


def terminal_rows(ours_world, ref_world, n: int) -> list[Row]:
    """A terminal.v1 step whose session also holds the desktop (semantic.v1 and pixels.v1), so
    each step returns the screen's semantic view: with no window open and with three."""

    def setup(make, apps):
        def build():
            env = make().environment(TERMINAL_CONFIG)
            for kind in apps:
                env.step([{"family": "application.v1", "op": "launch", "machine": M, "payload": {"kind": kind}}])
            env.step(ECHO)
            return lambda: env.step(ECHO)
        return build

    rows = []
    for label, apps in (("no window", ()), ("3 windows", APPS)):
        rows.append(measure(GROUP, "terminal step: echo hello, desktop granted (semantic.v1 + pixels.v1)", label,
                            setup(ours_world, apps), n * 4, setup(ref_world, apps) if ref_world else None))
    return rows
