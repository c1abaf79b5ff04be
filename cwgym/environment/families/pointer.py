"""pointer.v1: ``click``, ``double_click``, ``down``, ``move``, ``up``, ``cancel``, ``wheel``.

Payload ``{x, y, width?, height?, button?, modifiers?}`` (``wheel``: ``delta_x?``,
``delta_y?``); a viewport past :mod:`cwgym.protocol.limits`'s caps is ``invalid``. Points are hit-tested against the scene at the viewport, exactly as the
actor sees it; see :mod:`cwgym.desktop.routing` for press identity, capture, the context
button and scrolling.
"""

from __future__ import annotations

from typing import Any

from cwgym.desktop.routing import POINTER_OPS
from cwgym.environment.families import FAMILIES, ActionContext, invalid, unsupported
from cwgym.protocol.limits import viewport_ok


class PointerFamily:
    version = "1"

    def dispatch(self, ctx: ActionContext, op: str, payload: dict[str, Any]) -> Any:
        if op not in POINTER_OPS:
            raise unsupported()
        seat = ctx.seat()
        if "width" in payload or "height" in payload:
            last = seat.desk.viewport or list(seat.native)
            if not viewport_ok(payload.get("width", last[0]), payload.get("height", last[1])):
                raise invalid()  # a viewport past the caps (docs/reference/security.md)
        return seat.pointer(op, payload)


FAMILIES.register("pointer.v1", PointerFamily())
