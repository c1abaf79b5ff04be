"""The families' flags change no result. An outcome's ``value`` is the caller's own: a
family that builds its values afresh says so (``owned``) and is handed out as it is, any
other family's value is copied; a family that refuses only before acting
(``refuses_first``) needs no copy of the session kept; and the effect of a family that
never reaches the desktop (``touches_desktop = False``) is the one a full look before and
after the action gives."""

from __future__ import annotations

import copy

import pytest

from cwgym import World
from cwgym.environment.effects import effect_between, visible_projection
from cwgym.environment.families import FAMILIES
from cwgym.protocol import errors
from cwgym.resources import load_world

M = "workstation"


def _world() -> World:
    return World(load_world("ubuntu-workstation"), seed=5)


class Live:
    """An owner's family whose value is a live object it keeps (not ``owned``)."""

    version = "1"

    def __init__(self) -> None:
        self.kept = {"rows": [{"n": 1}], "pair": ("a", ["b"])}

    def dispatch(self, ctx, op, payload):
        return self.kept


class Refusing:
    """An owner's family that changes the session's desktop, then refuses."""

    version = "1"

    def __init__(self, refuses_first: bool) -> None:
        self.refuses_first = refuses_first

    def dispatch(self, ctx, op, payload):
        ctx.seat()  # creates and keeps the session's desktop on the machine
        raise errors.ActionError(errors.INVALID)


def test_a_family_that_is_not_owned_has_its_value_copied():
    world = _world()
    live = Live()
    world.register_action_family("live.v1", live)
    env = world.environment({"actor": "ada", "machines": [M], "actions": ["live.v1"], "observations": []})
    pristine = copy.deepcopy(live.kept)
    value = env.step([{"family": "live.v1", "op": "get", "machine": M, "payload": {}}])["outcomes"][0]["value"]
    assert value == pristine and value is not live.kept
    value["rows"][0]["n"] = 99
    value["pair"][1].append("forged")
    value.clear()
    assert live.kept == pristine


def test_the_built_in_owned_families_hand_out_fresh_values():
    assert all(getattr(FAMILIES[name], "owned", False) for name in ("http.v1", "terminal.v1", "keyboard.v1"))
    world = _world()
    env = world.environment({"actor": "ada", "machines": [M], "actions": ["terminal.v1"], "observations": ["terminal.v1"]})
    echo = [{"family": "terminal.v1", "op": "execute", "machine": M, "payload": {"command": "echo hi"}}]
    first = env.step(echo)
    first["outcomes"][0]["value"]["stdout"] = "forged"
    assert env.observe()["channels"]["terminal.v1"][M]["stdout"] == "hi\n"  # the latch is not the value
    second = env.step(echo)["outcomes"][0]["value"]
    assert second["stdout"] == "hi\n" and second is not first["outcomes"][0]["value"]


def test_a_refusal_puts_the_session_back_unless_the_family_refuses_first():
    for refuses_first, kept in ((False, False), (True, True)):
        world = _world()
        world.register_action_family("refusing.v1", Refusing(refuses_first))
        env = world.environment({"actor": "ada", "machines": [M], "actions": ["refusing.v1"], "observations": []})
        out = env.step([{"family": "refusing.v1", "op": "x", "machine": M, "payload": {}}])["outcomes"][0]
        assert out["error"]["code"] == errors.INVALID
        # a family that says it refuses first is trusted: what it did before refusing stays
        assert ("desktops" in world.inspect()["state"]["sessions"][env.id]) is kept


@pytest.mark.parametrize("family", ["terminal.v1", "http.v1"])
def test_a_family_off_the_desktop_reports_the_effect_a_full_look_gives(family):
    assert getattr(FAMILIES[family], "touches_desktop", True) is False
    world = _world()
    env = world.environment({"actor": "ada", "machines": [M], "actions": ["application.v1", family],
                             "observations": ["semantic.v1"]})
    for kind in ("files", "editor"):
        env.step([{"family": "application.v1", "op": "launch", "machine": M, "payload": {"kind": kind}}])
    payload = ({"command": "echo hi > made.txt; xdg-open made.txt"} if family == "terminal.v1"
               else {"method": "GET", "url": "http://localhost/"})
    runtime = world._runtime
    session, machine = runtime.sessions.get(env.id), runtime.machines[M]
    before = visible_projection(session, machine, runtime.subsystems.get("browsers"))
    assert before["windows"]  # the desktop has windows to compare
    out = env.step([{"family": family, "op": "request" if family == "http.v1" else "execute", "machine": M,
                     "payload": payload}])["outcomes"][0]
    after = visible_projection(session, machine, runtime.subsystems.get("browsers"))
    assert out["effect"] == effect_between(before, after, machine).to_plain()
