"""Browser rows, each beside the reference engine doing the same in the same world in the
same run: a headless ``browser.v1`` navigate and reload of the office wiki's home page (an
empty wiki, DNS cached), then the same page open in a browser window on the reception
desktop: a navigate in the window, ``scene`` at 1280×800 and 84×84, ``render`` at both
sizes, and RL loops (a random click, then the semantic observation or a scene).

The reference's headless navigate lays the page out (its own native page); cwgym's headless
browser does not (nothing is on a screen), so only the window rows compare the same work."""

from __future__ import annotations

import copy

from benchmarks.harness import Row, measure, rate_note, reference_engine
from cwgym import World
from cwgym.kernel.rng import RandomStreams
from cwgym.resources import load_world

GROUP = "browser"
URL = "http://wiki.office.internal/"


def _office() -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"][0]["initial_state"] = {}
    return d


def _act(make, op: str, payload: dict):
    def build():
        d = _office()
        c = d["computers"][0]
        env = make(d, 7).environment({"actor": c["user"], "machines": [c["id"]], "actions": ["browser.v1"], "observations": []})
        navigate = [{"family": "browser.v1", "op": "navigate", "machine": c["id"], "payload": {"url": URL}}]
        env.step(navigate)  # warm: DNS cached, the page loaded
        action = [{"family": "browser.v1", "op": op, "machine": c["id"], "payload": payload}]
        return lambda: env.step(action)
    return build


DESKTOP = {
    "actor": "grace",
    "machines": ["reception"],
    "actions": ["application.v1", "keyboard.v1", "pointer.v1", "browser.v1"],
    "observations": ["semantic.v1"],
}


def _window(make):
    """A world whose reception desktop shows the wiki's home page in a browser window."""
    world = make(_office(), 7)
    env = world.environment(DESKTOP)
    out = env.step([{"family": "browser.v1", "op": "navigate", "machine": "reception", "payload": {"url": URL}}])
    if not out["outcomes"][0]["success"]:
        raise RuntimeError(f"navigate failed: {out['outcomes'][0]['error']}")
    return world, env


def _clicks(n: int, seed: int = 1) -> list[dict]:
    streams = RandomStreams(seed)
    return [{"family": "pointer.v1", "op": "click", "machine": "reception",
             "payload": {"x": streams.randbelow("x", 1280), "y": streams.randbelow("y", 800), "width": 1280, "height": 800}}
            for _ in range(n)]


def window_rows(ref, n: int) -> list[Row]:
    rows = []
    label = "small-office, wiki page in a window"

    def navigate(make):
        def setup():
            _, env = _window(make)
            action = [{"family": "browser.v1", "op": "navigate", "machine": "reception", "payload": {"url": URL}}]
            return lambda: env.step(action)
        return setup

    rows.append(measure(GROUP, "browser.v1 navigate in the window", label, navigate(World), n,
                        navigate(ref.World) if ref else None))
    for op, (w, h) in (("scene", (1280, 800)), ("scene", (84, 84)), ("render", (1280, 800)), ("render", (84, 84))):
        def visual(make, op=op, w=w, h=h):
            def setup():
                _, env = _window(make)
                return lambda: getattr(env, op)(w, h)
            return setup
        rows.append(measure(GROUP, f"{op}({w}, {h}), page open", label, visual(World), n,
                            visual(ref.World) if ref else None))

    def typed_render(w, h):
        def setup():
            _, env = _window(World)
            env.step([{"family": "keyboard.v1", "op": "key", "machine": "reception", "payload": {"key": "Ctrl+l"}}])
            keys = [[{"family": "keyboard.v1", "op": "type", "machine": "reception", "payload": {"text": "x"}}],
                    [{"family": "keyboard.v1", "op": "key", "machine": "reception", "payload": {"key": "Backspace"}}]]
            state = {"i": 0}

            def call():  # a keystroke in the address bar, then the frame: a real repaint and render
                state["i"] += 1
                env.step(keys[state["i"] % 2])
                return env.render(w, h)
            return call
        return setup

    for w, h in ((1280, 800), (84, 84)):
        rows.append(measure(GROUP, f"keystroke in the address bar then render({w}, {h}), page open (cwgym only)", label,
                            typed_render(w, h), n))

    def loop(make, observe):
        def setup():
            _, env = _window(make)
            clicks = _clicks(10_000)
            state = {"i": 0}

            def call():
                state["i"] += 1
                env.step([clicks[state["i"] % len(clicks)]])
                return observe(env)
            return call
        return setup

    for name, observe in (("RL loop: random click + semantic observation, page open", lambda e: None),
                          ("RL loop: random click + scene(1280, 800), page open", lambda e: e.scene(1280, 800))):
        row = measure(GROUP, name, label, loop(World, observe), n, loop(ref.World, observe) if ref else None)
        row.extra["steps_per_s"] = 1000.0 / row.extra["mean_ms"]
        row.note = rate_note(row)
        rows.append(row)
    return rows


def run(quick: bool = False) -> list[Row]:
    ref = reference_engine()
    n = 100 if quick else 1000
    rows = []
    for name, op, payload in (("browser.v1 navigate to an empty wiki's home page (headless)", "navigate", {"url": URL}),
                              ("browser.v1 reload of that page (headless)", "reload", {})):
        rows.append(measure(GROUP, name, "small-office", _act(World, op, payload), n,
                            _act(ref.World, op, payload) if ref else None))
    rows += window_rows(ref, 30 if quick else 300)
    return rows
