"""What a position's screen shows besides its pixels: the element table, the pointer, the hit.

The element table is the ``semantic.v1`` projection of the screen, drawn on the owner
side (so a terminal-only agent's episode has one too), topmost control first as the env's
table orders its rows. The pointer is where an action's last pointer envelope pointed, in
screen pixels; the hit is the control a click there reaches on the screen the action was
chosen from, by the scene's own hit testing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cwgym.desktop.semantic import semantic_view

if TYPE_CHECKING:
    from cwgym.scene import Scene

__all__ = ["element_rows", "hit_element", "pointer_of"]

#: The fields of an element kept for the page's table.
KEPT = ("id", "role", "label", "value", "enabled", "focused", "checked", "selected", "window")


def element_rows(scene: Scene) -> list[dict[str, Any]]:
    """The screen's controls, topmost first: id, role, label, value, state and ``[x, y, w, h]``."""
    rows = []
    for element in reversed(semantic_view(scene).get("elements") or ()):
        row = {k: element[k] for k in KEPT if element.get(k) not in (None, False, "")}
        row.setdefault("enabled", False)
        b = element["bounds"]
        row["bounds"] = [b["x"], b["y"], b["width"], b["height"]]
        rows.append(row)
    return rows


def pointer_of(envelopes: list[dict[str, Any]], width: int, height: int) -> list[int] | None:
    """``[x, y]`` of the last pointer envelope with a position, in ``width`` x ``height`` pixels."""
    point = None
    for envelope in envelopes:
        payload = envelope.get("payload") if isinstance(envelope, dict) else None
        if envelope.get("family") != "pointer.v1" or not isinstance(payload, dict):
            continue
        if isinstance(payload.get("x"), (int, float)) and isinstance(payload.get("y"), (int, float)):
            sx = width / payload["width"] if payload.get("width") else 1.0
            sy = height / payload["height"] if payload.get("height") else 1.0
            point = [int(payload["x"] * sx), int(payload["y"] * sy)]
    return point


def hit_element(scene: Scene, rows: list[dict[str, Any]], point: list[int] | None) -> dict[str, Any] | None:
    """The control a click at ``point`` reaches on ``scene``: its id, role, label and bounds.

    ``rows`` is that screen's :func:`element_rows`; a control the table does not list is
    given by its id alone. ``None`` when nothing clickable is there.
    """
    if point is None:
        return None
    node = scene.hit_test(point[0], point[1])
    if node is None or node.interaction is None:
        return None
    for row in rows:
        if row["id"] == node.interaction:
            return {k: row[k] for k in ("id", "role", "label", "bounds") if k in row}
    return {"id": node.interaction}
