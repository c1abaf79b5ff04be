"""Service rows: an http.v1 GET of each kind's home page, with an empty ``initial_state``,
on the small office (the office wiki's slot takes each kind in turn), beside the reference
engine's GET of the same kind in the same world, in the same run; and building and
snapshotting the company world, which joins the public web (a snapshot costs what the
small office's does: it shares the state, whatever its size)."""

from __future__ import annotations

import copy

from benchmarks.harness import Row, measure, reference_engine
from cwgym import World
from cwgym.net.services import SERVICE_KINDS
from cwgym.resources import load_world

GROUP = "services"
URL = "http://wiki.office.internal/"


def _office(kind: str) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"][0]["kind"] = kind
    d["services"][0]["initial_state"] = {}
    return d


def _get(make, kind: str):
    def build():
        d = _office(kind)
        c = d["computers"][0]
        env = make(d, 7).environment({"actor": c["user"], "machines": [c["id"]], "actions": ["http.v1"], "observations": []})
        action = [{"family": "http.v1", "op": "request", "machine": c["id"], "payload": {"method": "GET", "url": URL}}]
        env.step(action)  # warm: the DNS answer is cached from here on
        return lambda: env.step(action)
    return build


def _world(name: str, what: str):
    def build():
        d = load_world(name)
        if what == "build":
            return lambda: World(d, 7)
        world = World(d, 7)
        return world.snapshot
    return build


def run(quick: bool = False) -> list[Row]:
    ref = reference_engine()
    n = 100 if quick else 1000
    rows = [measure(GROUP, f"http.v1 GET of an empty {kind} service's home page", "small-office",
                    _get(World, kind), n, _get(ref.World, kind) if ref and kind != "static" else None)
            for kind in SERVICE_KINDS.names()]
    rows.append(measure(GROUP, "World(company): build the company world (14 services, and the public web's 8)",
                        "company", _world("company", "build"), 5 if quick else 20))
    rows.append(measure(GROUP, "snapshot() of the company world (22 services)", "company", _world("company", "snapshot"), n))
    rows.append(measure(GROUP, "snapshot() of the small office, for scale (1 service)", "small-office",
                        _world("small-office", "snapshot"), n))
    return rows
