"""The accessibility tree: one entry per control, merging every node painted for it."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from cwgym.kernel.digest import u64
from cwgym.scene.focus import Focus
from cwgym.scene.geometry import Rect
from cwgym.scene.hit import HitIndex
from cwgym.scene.node import Node, parse_window
from cwgym.scene.primitives import Text, UiText, UiTextBold

__all__ = ["AxNode", "build_accessibility"]

_TEXT = (UiText, UiTextBold, Text)


class AxNode(msgspec.Struct, frozen=True):
    """One control as an assistive reader sees it.

    Attributes:
        id: the interaction id (what actions address).
        role, name, value: from the control's semantic node; ``name`` falls back to the
            first painted text of the control when the semantic has no label.
        enabled, focusable: from the semantic node.
        focused: a node of the control is focused, or scene focus names it.
        checked, selected, expanded: the first such state among its nodes (painter order).
        window: from a ``window:<id>:`` interaction, else the first node's window.
        bounds: union of the nodes' screen bounds (transformed, clips not applied).
        nodes: ids of the merged nodes, painter order.
        z: highest ``z`` among them.
        order: position of this entry in the list (painter order of first node).
        hit: a point a click reaches the control at, ``None`` when it cannot be reached.
        revision: digest of everything above.
    """

    id: str
    role: str
    name: str
    value: str | None
    enabled: bool
    focusable: bool
    focused: bool
    checked: bool | None
    selected: bool | None
    expanded: bool | None
    window: int | None
    bounds: Rect
    nodes: list[int]
    z: int
    order: int
    hit: tuple[int, int] | None
    revision: int


def build_accessibility(painted: Sequence[Node], hits: HitIndex, focus: Focus) -> list[AxNode]:
    """The accessibility entries of nodes in painter order (see :class:`AxNode`)."""
    groups: dict[str, list[Node]] = {}
    for n in painted:
        if n.interaction is not None:
            groups.setdefault(n.interaction, []).append(n)
    out: list[AxNode] = []
    for order, (target, nodes) in enumerate(groups.items()):
        sem = next((n.semantic for n in nodes if n.semantic is not None), None)
        name = sem.label if sem is not None else ""
        if not name:
            name = next((n.primitive.text for n in nodes if isinstance(n.primitive, _TEXT)), "")
        checked = selected = expanded = None
        focused = focus.interaction == target or (
            focus.node is not None and any(n.id == focus.node for n in nodes)
        )
        for n in nodes:
            st = n.state
            if st is None:
                continue
            if checked is None:
                checked = st.checked
            if selected is None:
                selected = st.selected
            if expanded is None:
                expanded = st.expanded
            if st.focused:
                focused = True
        window = parse_window(target)
        if window is None:
            window = next((n.window for n in nodes if n.window is not None), None)
        bounds = nodes[0].screen_bounds()
        for n in nodes[1:]:
            bounds = bounds.union(n.screen_bounds())
        enabled = not (sem is not None and sem.disabled)
        hit = None
        if enabled:
            for n in reversed(nodes):
                hit = hits.reachable_point(n.id)
                if hit is not None:
                    break
        fields = (
            target,
            sem.role if sem is not None else "",
            name,
            sem.value if sem is not None else None,
            enabled,
            sem is not None and sem.focusable,
            focused,
            checked,
            selected,
            expanded,
            window,
            bounds,
            [n.id for n in nodes],
            max(n.z for n in nodes),
            order,
            hit,
        )
        out.append(AxNode(*fields, u64((fields, [n.revision for n in nodes]))))
    return out
