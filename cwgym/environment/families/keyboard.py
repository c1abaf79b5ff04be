"""keyboard.v1: ``type {text}`` and ``key {key}``, routed by focus.

The route, in order: the shell's own shortcuts, an open shell panel, the focused
window's application, then the window manager (see :mod:`cwgym.desktop.routing`). Key
names follow :mod:`cwgym.desktop.keys`; a name that is no key is ``invalid``, and so is
typing with nothing to type into.
"""

from __future__ import annotations

from typing import Any

from cwgym.environment.families import FAMILIES, ActionContext, unsupported


class KeyboardFamily:
    version = "1"
    owned = True  # the value is always None

    def dispatch(self, ctx: ActionContext, op: str, payload: dict[str, Any]) -> Any:
        if op == "type":
            ctx.seat().type_text(payload.get("text"))
            return None
        if op == "key":
            ctx.seat().key(payload.get("key"))
            return None
        raise unsupported()


FAMILIES.register("keyboard.v1", KeyboardFamily())
