"""The element table: the ``semantic.v1`` controls of the screen as a fixed-size ``float32`` array.

One row per control the session's ``semantic.v1`` channel lists (roles in ``skip_roles``
left out), topmost first — the later a control is painted, the earlier its row: an open
panel, the top bar and dock, then windows from the front, then the desktop — cut to ``K``
rows; empty rows are all zero. A control partly or wholly under another window is still
listed, as the channel lists it. Every feature is in ``[0, 1]``:

====  ==============  ===========================================================
col   name            value
====  ==============  ===========================================================
0     present         1 for a control, 0 for an empty row
1     role            ``ROLES.index(role) / len(ROLES)`` (``other`` for unknown roles)
2     label           ``bucket(label) / LABEL_BUCKETS``: a hashed label id
3-6   bounds          ``x0 / W, y0 / H, x1 / W, y1 / H`` of the screen
7-8   centre          the centre of the bounds, ``x / W, y / H`` (of the clamped bounds)
9     enabled         1 or 0
10    focused         1 or 0
11    checked         1 when checked or selected
12    in_window       1 when the control belongs to a window (0: the desktop shell)
13    value           ``bucket(value) / LABEL_BUCKETS`` (0 without a value)
14    mentioned       1 when every word of the label is a word of the instruction
====  ==============  ===========================================================

``bucket(text) = 1 + u64(text) % (LABEL_BUCKETS - 1)`` with :func:`cwgym.kernel.digest.u64`
(never ``hash()``), so ids are the same in every process; ``round(v * LABEL_BUCKETS)``
gives the id back exactly. The rows themselves (id, role, label, value, state, bounds)
are ``info["elements"]``.

``mentioned`` compares the words of :func:`cwgym.rl.text.tokens` of the label and of the
instruction: the ``Files`` launcher is mentioned by "Open Files from the dock", a
``notes.txt`` icon by "Open notes.txt". It is computed from what the agent already sees
(the instruction and the labels on the screen) and spares a small policy from learning
string matching through hashed ids; it never marks the target as such.

``click-element`` clicks row ``k`` where hit testing says a click reaches that control on
the screen at the env's viewport (:func:`click_point`), found when the action is taken.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

import numpy as np

from cwgym.kernel.digest import u64
from cwgym.rl.text import tokens
from cwgym.scene import Scene

__all__ = ["FEATURES", "LABEL_BUCKETS", "ROLES", "ElementTable", "bucket", "click_point", "element_table"]

#: Known roles, in id order; anything else is ``other``.
ROLES = (
    "", "button", "icon", "titlebar", "grip", "textbox", "searchbox", "list", "listitem", "row",
    "columnheader", "tab", "menu", "menuitem", "dialog", "alert", "status", "slider", "scrollbar",
    "checkbox", "radio", "link", "combobox", "image", "heading", "text", "toolbar", "other",
)
_ROLE_ID = {role: index for index, role in enumerate(ROLES)}
FEATURES = (
    "present", "role", "label", "x0", "y0", "x1", "y1", "cx", "cy", "enabled", "focused", "checked", "in_window", "value",
    "mentioned",
)
LABEL_BUCKETS = 4096


@functools.lru_cache(maxsize=65536)
def bucket(text: str) -> int:
    """The hashed id of a label or value, ``1..LABEL_BUCKETS-1`` (0 is reserved for none)."""
    return 1 + u64(text) % (LABEL_BUCKETS - 1)


class ElementTable:
    """A table and the ``semantic.v1`` elements its rows are."""

    __slots__ = ("array", "rows")

    def __init__(self, array: np.ndarray, rows: list[dict]) -> None:
        self.array = array
        self.rows = rows


@functools.lru_cache(maxsize=65536)
def _label_words(label: str) -> frozenset[str]:
    return frozenset(tokens(label))


#: Rows made before, by element identity, for :func:`element_table` of ``shared`` views.
#: Emptied when full. Sized for the views a scene cache keeps alive (a few thousand
#: elements): every entry is a handful of objects the garbage collector walks at each full
#: collection: at 65,536 entries the memo held most of the tracked heap, and full
#: collections took a third more of an easy env's step time than at this size.
_ROWS: dict[int, tuple[dict, float, float, frozenset[str], tuple]] = {}
_ROWS_KEPT = 1 << 12


def element_table(
    view: dict | None, rows: int, skip_roles: Iterable[str] = (), instruction: frozenset[str] = frozenset(),
    *, shared: bool = False,
) -> ElementTable:
    """The table of a ``semantic.v1`` view (``None``: an empty table); ``instruction`` is
    the set of the instruction's words (:func:`cwgym.rl.text.tokens`) for ``mentioned``.

    ``shared`` says the view is a scene cache's own, never changed
    (:meth:`~cwgym.desktop.semantic.Template.shared`): its elements are the same dicts from
    screen to screen while their window is unchanged, so their rows are made once."""
    array = np.zeros((rows, len(FEATURES)), dtype=np.float32)
    if not view:
        return ElementTable(array, [])
    skip = frozenset(skip_roles)
    chosen = [e for e in reversed(view.get("elements") or ()) if e.get("role") not in skip][:rows]
    n = len(chosen)
    if not n:
        return ElementTable(array, chosen)
    screen = view.get("screen") or {}
    width, height = float(screen.get("width") or 1), float(screen.get("height") or 1)
    other = _ROLE_ID["other"]
    role_id = _ROLE_ID.get
    rows_out = []  # one pass in Python, then one conversion: fewer numpy calls for a few dozen rows
    for e in chosen:
        if shared:
            kept = _ROWS.get(id(e))
            if kept is not None and kept[0] is e and kept[1] == width and kept[2] == height and kept[3] is instruction:
                rows_out.append(kept[4])
                continue
        b = e["bounds"]
        x0 = min(max(b["x"] / width, 0.0), 1.0)
        y0 = min(max(b["y"] / height, 0.0), 1.0)
        x1 = min(max((b["x"] + b["width"]) / width, 0.0), 1.0)
        y1 = min(max((b["y"] + b["height"]) / height, 0.0), 1.0)
        label = e.get("label") or ""
        value = e.get("value")
        rows_out.append((
            1.0, role_id(e.get("role", ""), other), bucket(label), x0, y0, x1, y1, (x0 + x1) / 2, (y0 + y1) / 2,
            e.get("enabled", True), bool(e.get("focused")), bool(e.get("checked") or e.get("selected")), "window" in e,
            bucket(value) if value else 0, _mentioned(label, instruction) if instruction else False,
        ))
        if shared:
            if len(_ROWS) >= _ROWS_KEPT:
                _ROWS.clear()
            _ROWS[id(e)] = (e, width, height, instruction, rows_out[-1])
    table = array[:n]
    table[:] = np.array(rows_out, dtype=np.float64)
    table[:, 1] /= len(ROLES)  # in float32, as the ids are stored
    table[:, 2] /= LABEL_BUCKETS
    table[:, 13] /= LABEL_BUCKETS
    return ElementTable(array, chosen)


def _mentioned(label: str, instruction: frozenset[str]) -> bool:
    words = _label_words(label)
    return bool(words) and words <= instruction


def click_point(scene: Scene, interaction: str) -> tuple[int, int] | None:
    """Where a click on ``scene`` reaches the control ``interaction``, or ``None``.

    The topmost of the control's nodes that a click reaches decides, as the scene's
    accessibility entries choose their point.
    """
    nodes = [n for n in scene.painted() if n.interaction == interaction]
    for node in reversed(nodes):
        point = scene.reachable_point(node.id)
        if point is not None:
            return point
    return None
