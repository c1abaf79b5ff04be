"""An effect's ``state`` is remembered from the action before when what the actor sees is
unchanged; the remembered value is the one a fresh digest gives, on every machine."""

from __future__ import annotations

from cwgym import World
from cwgym.environment import effects
from cwgym.resources import load_world

CONFIG = {"actions": ["terminal.v1", "http.v1"], "observations": []}


def _actions(world_def: dict) -> list[dict]:
    machines = [c["id"] for c in world_def["computers"]][:2]
    out = []
    for m in machines:
        out += [
            {"family": "http.v1", "op": "request", "machine": m, "payload": {"method": "GET", "url": "http://wiki.office.internal/"}},
            {"family": "terminal.v1", "op": "execute", "machine": m, "payload": {"command": "echo hi > note.txt"}},
            {"family": "terminal.v1", "op": "execute", "machine": m, "payload": {"command": "cat note.txt"}},
            {"family": "terminal.v1", "op": "execute", "machine": m, "payload": {"command": "cat note.txt"}},
            {"family": "http.v1", "op": "request", "machine": m, "payload": {"method": "GET", "url": "http://wiki.office.internal/"}},
        ]
    return out


def _states(forget: bool) -> list[str | None]:
    definition = load_world("small-office")
    world = World(definition, 3)
    machines = [c["id"] for c in definition["computers"]][:2]
    envs = {m: world.environment({"actor": c["user"], "machines": [m], **CONFIG})
            for c in definition["computers"] for m in machines if c["id"] == m}
    out = []
    for action in _actions(definition):
        if forget:
            effects._last = (b"", {}, 0)
        outcome = envs[action["machine"]].step([action])["outcomes"][0]
        out.append((outcome["effect"] or {}).get("state") if outcome["success"] else outcome["error"]["code"])
    return out


def test_remembered_states_are_the_fresh_ones_on_every_machine():
    remembered, fresh = _states(forget=False), _states(forget=True)
    assert remembered == fresh
    assert all(s.isdigit() for s in fresh)  # every action ran
    assert len(set(fresh)) > 4  # some changed what is seen, some (the repeated ones) did not
    assert fresh[0] != fresh[5]  # the same request, another machine
