"""Network rows: an http.v1 GET of a small static page (DNS cached) and ``curl -s`` of the same
page in the shell, on the small office with a static intranet on its file server; beside the
reference engine's http.v1 GET of its office wiki (the reference has no ``static`` kind, so
its row fetches the wiki page the same world declares: a 13 kB page it renders, against
cwgym's 18-byte file; the ratio compares the request path, not the same work)."""

from __future__ import annotations

import copy

from benchmarks.harness import Row, measure, reference_engine
from cwgym import World
from cwgym.resources import load_world

GROUP = "net"
PAGE = "http://intranet.office.internal:8080/"
WIKI = "http://wiki.office.internal/"


def _office(static: bool) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    if static:
        d["services"].append({"id": "intranet", "kind": "static", "node": "fileserver", "port": 8080,
                              "initial_state": {"files": {"/": "<h1>Intranet</h1>\n"}}})
        d["network"]["dns"].append({"name": "intranet.office.internal", "address": "10.20.1.5", "resolver": "fileserver"})
    return d


def _step(make, action_of):
    def build():
        d = _office(static=make is World)
        c = d["computers"][0]
        env = make(d, 7).environment({"actor": c["user"], "machines": [c["id"]], "actions": ["http.v1", "terminal.v1"],
                                      "observations": []})
        action = [action_of(c["id"])]
        env.step(action)  # warm: the DNS answer is cached from here on
        return lambda: env.step(action)
    return build


def _get(url):
    return lambda machine: {"family": "http.v1", "op": "request", "machine": machine, "payload": {"method": "GET", "url": url}}


def _curl(url):
    return lambda machine: {"family": "terminal.v1", "op": "execute", "machine": machine, "payload": {"command": f"curl -s {url}"}}


def _big_network() -> dict:
    """The small office grown to 100 nodes and 1,000 DNS records (snapshot and fork should
    not notice: records are definition, the topology is shared between checkpoints)."""
    d = _office(static=False)
    for i in range(97):
        d["network"]["nodes"].append({"id": f"n{i}", "address": f"10.30.{i // 250}.{i % 250 + 1}"})
        d["network"]["links"].append({"from": f"n{i}", "to": "fileserver", "latency_us": 50 + i})
    for i in range(999):
        d["network"]["dns"].append({"name": f"host{i}.office.internal", "address": f"10.30.{(i % 97) // 250}.{(i % 97) % 250 + 1}"})
    return d


def _checkpoint(make, definition, what):
    def build():
        world = make(definition(), 7)
        world.snapshot()  # warm
        if what == "fork":
            snap = world.snapshot()  # the reference's fork takes a snapshot; ours may too
            return lambda: world.fork(snap)
        return world.snapshot
    return build


def run(quick: bool = False) -> list[Row]:
    ref = reference_engine()
    n = 200 if quick else 2000
    theirs = _step(ref.World, _get(WIKI)) if ref else None
    return [
        measure(GROUP, "http.v1 GET of a small page (DNS cached); reference: its office wiki page", "small-office",
                _step(World, _get(PAGE)), n, theirs),
        measure(GROUP, "terminal step: curl -s of the same page; reference: http.v1 GET of its wiki", "small-office",
                _step(World, _curl(PAGE)), n, theirs),
        *(measure(GROUP, f"{what}() with 100 nodes and 1,000 DNS records; beside: the same on the small office", "big-network",
                  _checkpoint(World, _big_network, what), n, _checkpoint(World, lambda: _office(False), what))
          for what in ("snapshot", "fork")),
        *(measure(GROUP, f"{what}() with 100 nodes and 1,000 DNS records; reference: the same world", "big-network",
                  _checkpoint(World, _big_network, what), n,
                  _checkpoint(ref.World, _big_network, what) if ref else None)
          for what in ("snapshot", "fork")),
    ]
