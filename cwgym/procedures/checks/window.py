"""``window``: windows on the machine's desktop that hold all the given fields.

Some window matches, or exactly ``count`` do (``0``: no such window). The desktop is the
latest session's that has one on the machine (the user's current login). ``title`` is a
part of the title; ``document`` a path (relative to home allowed); ``within`` a rectangle
``[x0, y0, x1, y1]`` of the native screen the whole frame lies in.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from cwgym.procedures.checks import CheckKind, CheckResult, register
from cwgym.procedures.files import abspath

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine


class WindowCheck(Struct, forbid_unknown_fields=True, kw_only=True):
    """The fields a window must hold (see the module notes), and how many may."""

    app: str | None = None
    title: str | None = None
    document: str | None = None
    maximized: bool | None = None
    minimized: bool | None = None
    focused: bool | None = None
    within: list[int] | None = None
    count: int | None = None


#: The fields a window is matched on (all but ``count``).
MATCHED = tuple(f for f in WindowCheck.__struct_fields__ if f != "count")


def problems(payload: WindowCheck) -> Iterator[tuple[str, str]]:
    if payload.count is not None and payload.count < 0:
        yield "count", "count must be 0 or more"
    within = payload.within
    if within is not None and (len(within) != 4 or within[0] > within[2] or within[1] > within[3]):
        yield "within", "within is [x0, y0, x1, y1] with x0 <= x1 and y0 <= y1"
    if all(getattr(payload, f) is None for f in MATCHED):
        yield "", "a window check names at least one of " + ", ".join(MATCHED)


def matches(window: dict[str, Any], spec: dict[str, Any], document: str | None) -> bool:
    """Whether ``window`` (as ``World.windows`` lists it) holds every field ``spec`` gives."""
    if spec.get("app") is not None and window["app"] != spec["app"]:
        return False
    if spec.get("title") is not None and spec["title"] not in (window["title"] or ""):
        return False
    if document is not None and window["document"] != document:
        return False
    for flag in ("maximized", "minimized", "focused"):
        if spec.get(flag) is not None and window[flag] != spec[flag]:
            return False
    within = spec.get("within")
    if within is not None:
        x, y, width, height = window["bounds"]
        if not (within[0] <= x and within[1] <= y and x + width <= within[2] and y + height <= within[3]):
            return False
    return True


def judge(world: World, machine: Machine, spec: dict[str, Any], r: CheckResult) -> None:
    count = spec.get("count")
    wanted = {k: v for k, v in spec.items() if k != "count" and v is not None}
    within = spec.get("within")
    if within is not None and len(within) != 4:
        r.reason = "within must be [x0, y0, x1, y1]"
        return
    document = abspath(machine, spec["document"]) if spec.get("document") is not None else None
    if document is not None:
        wanted["document"] = document
    r.subject = f"window {spec['app']}" if spec.get("app") else "window"
    r.expected = {"window": wanted, "count": count if count is not None else "at least 1"}
    if world.desktop_session(machine.id) is None:
        r.reason = "no session has a desktop on this machine"
        return
    windows = world.windows(machine.id)
    matching = [w for w in windows if matches(w, spec, document)]
    r.found = {
        "count": len(matching),
        "windows": [{k: w[k] for k in ("app", "title", "bounds", "minimized", "maximized", "focused")} for w in windows],
    }
    r.passed = len(matching) == count if count is not None else bool(matching)
    if not r.passed:
        r.reason = f"{len(matching)} window(s) match"


KIND = register(CheckKind("window", WindowCheck, judge, problems))
