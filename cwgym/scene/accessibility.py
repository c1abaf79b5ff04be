"""The accessibility tree: one entry per control, merging every node painted for it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import msgspec

from cwgym.kernel.digest import u64
from cwgym.scene.focus import Focus
from cwgym.scene.geometry import Rect
from cwgym.scene.hit import HitIndex
from cwgym.scene.node import Node, parse_window
from cwgym.scene.primitives import Text, UiText, UiTextBold

__all__ = ["AxNode", "Control", "build_accessibility", "controls"]

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


class Control(NamedTuple):
    """What the nodes painted for one interaction say together (see :func:`controls`).

    ``state_focused`` is true when a node's state says focused; scene focus is the
    caller's to add.
    """

    role: str
    name: str
    value: str | None
    enabled: bool
    focusable: bool
    state_focused: bool
    checked: bool | None
    selected: bool | None
    expanded: bool | None
    window: int | None


def controls(painted: Sequence[Node]) -> list[tuple[str, list[Node], Control]]:
    """Each interaction of ``painted`` with its nodes (painter order) and what they say:
    the first semantic's role, label and value (the label falling back to the first
    painted text), the first checked, selected and expanded state, and the window (of a
    ``window:<id>:`` interaction, else the first node's). The accessibility tree and the
    ``semantic.v1`` projection both merge controls this way."""
    groups: dict[str, list[Node]] = {}
    for n in painted:
        target = n.interaction
        if target is not None:
            group = groups.get(target)
            if group is None:
                groups[target] = [n]
            else:
                group.append(n)
    out = []
    for target, nodes in groups.items():
        sem = next((n.semantic for n in nodes if n.semantic is not None), None)
        name = sem.label if sem is not None else ""
        if not name:
            name = next((n.primitive.text for n in nodes if isinstance(n.primitive, _TEXT)), "")
        checked = selected = expanded = None
        focused = False
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
        control = Control(
            sem.role if sem is not None else "",
            name,
            sem.value if sem is not None else None,
            not (sem is not None and sem.disabled),
            sem is not None and sem.focusable,
            focused,
            checked,
            selected,
            expanded,
            window,
        )
        out.append((target, nodes, control))
    return out


def build_accessibility(painted: Sequence[Node], hits: HitIndex, focus: Focus) -> list[AxNode]:
    """The accessibility entries of nodes in painter order (see :class:`AxNode`)."""
    out: list[AxNode] = []
    for order, (target, nodes, c) in enumerate(controls(painted)):
        focused = c.state_focused or focus.interaction == target or (
            focus.node is not None and any(n.id == focus.node for n in nodes)
        )
        bounds = nodes[0].screen_bounds()
        for n in nodes[1:]:
            bounds = bounds.union(n.screen_bounds())
        hit = None
        if c.enabled:
            for n in reversed(nodes):
                hit = hits.reachable_point(n.id)
                if hit is not None:
                    break
        fields = (
            target,
            c.role,
            c.name,
            c.value,
            c.enabled,
            c.focusable,
            focused,
            c.checked,
            c.selected,
            c.expanded,
            c.window,
            bounds,
            [n.id for n in nodes],
            max(n.z for n in nodes),
            order,
            hit,
        )
        out.append(AxNode(*fields, u64((fields, [n.revision for n in nodes]))))
    return out
