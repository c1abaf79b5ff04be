"""Browser rows: a browser.v1 navigate to the office wiki's home page (an empty wiki,
DNS cached), and a form fill, each beside the reference engine doing the same in the same
world in the same run. Not like for like yet: the reference lays the page out (its
navigate took 77 ms p50 on this machine, its reload 2.8 ms), while cwgym's browser is
headless until page layout lands."""

from __future__ import annotations

import copy

from benchmarks.harness import Row, measure, reference_engine
from cwgym import World
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


def run(quick: bool = False) -> list[Row]:
    ref = reference_engine()
    n = 100 if quick else 1000
    rows = []
    for name, op, payload in (("browser.v1 navigate to an empty wiki's home page", "navigate", {"url": URL}),
                              ("browser.v1 reload of that page", "reload", {})):
        rows.append(measure(GROUP, name, "small-office", _act(World, op, payload), n,
                            _act(ref.World, op, payload) if ref else None))
    return rows
