"""Action effects: what an accepted action changed, as the actor can see it.

A projection of the target machine's actor-visible state for the acting session is taken
before and after dispatch; the effect's tags name the parts that differ and ``state``
digests the after. The parts: the session's terminal latch (``terminal``), the machine
clipboard (``clipboard``), the desktop's data files in the home (``settings``,
``notifications`` and ``library``: :mod:`cwgym.machine.settings`,
:mod:`cwgym.machine.notifications`, :mod:`cwgym.machine.recent`), and the session's desktop on that machine
(:func:`cwgym.desktop.visible.visible_parts`): per-window geometry, title, document,
content, inner focus and scroll offsets, which are compared only for windows present
before and after (a new window is ``window.opened``, a gone one ``window.closed``), plus
the focused window and stacking (``window.focused``) and the shell (``shell``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cwgym.apps import APPS
from cwgym.desktop.state import Desktop
from cwgym.desktop.visible import visible_parts
from cwgym.kernel.digest import u64
from cwgym.machine._userdata import peek_all
from cwgym.machine.notifications import NOTIFICATIONS_FILE
from cwgym.machine.recent import RECENT_FILE
from cwgym.machine.settings import SETTINGS_FILE
from cwgym.protocol import effects
from cwgym.protocol.envelope import ActionEffect

if TYPE_CHECKING:
    from cwgym.environment.session import Session
    from cwgym.machine.machine import Machine

_WINDOWS = "windows"
_STACK = "stack"
_PER_WINDOW = (_WINDOWS, _STACK)
_NO_DESKTOP = visible_parts(Desktop(), {})
#: The tags of a projection the session's desktop on the machine gives.
DESKTOP_PARTS = tuple(_NO_DESKTOP)
#: The desktop's data files in the home and the tag a change to each is reported as.
_DESKTOP_TAGS = (effects.SETTINGS, effects.NOTIFICATIONS, effects.LIBRARY)
_DESKTOP_FILES = (SETTINGS_FILE, NOTIFICATIONS_FILE, RECENT_FILE)


def visible_projection(
    session: Session, machine: Machine, browsers: Any = None, *, desktop: bool = True
) -> dict[str, Any]:
    """Tag -> value of each actor-visible part of ``machine`` for ``session``; ``browsers``
    (the world's ``browsers`` subsystem) adds the machine's headless browser: where it is
    (``navigate``), the page it shows (``document``) and what was typed into it
    (``content``). Without ``desktop``, the :data:`DESKTOP_PARTS` are left out."""
    parts: dict[str, Any] = {effects.TERMINAL: session.terminal.get(machine.id), effects.CLIPBOARD: machine.clipboard}
    parts.update(zip(_DESKTOP_TAGS, peek_all(machine, _DESKTOP_FILES)))
    headless = browsers.by_machine.get(machine.id) if browsers is not None else None
    if headless is not None:
        tab = headless.state.active_tab
        entry = tab.current
        parts[effects.NAVIGATE] = (tab.id, tab.index, entry.url)
        parts[effects.DOCUMENT] = (entry.url, entry.title, entry.status, len(headless.state.tabs))
        parts[effects.CONTENT] = headless.fields
    if desktop:
        desk = session.desktops.get(machine.id)
        parts.update(visible_parts(desk, APPS) if desk is not None else _NO_DESKTOP)
    return parts


def effect_between(before: dict[str, Any], after: dict[str, Any], machine: Machine) -> ActionEffect:
    changed = {tag for tag, value in after.items() if tag not in _PER_WINDOW and before.get(tag) != value}
    old = before.get(_WINDOWS, {})
    new = after.get(_WINDOWS, {})
    url = None
    opened: list[int] = []
    closed: list[int] = []
    if old is not new:  # the same parts when the desktop was looked at once (see Runtime._run)
        if old.keys() != new.keys():
            opened = sorted(set(new) - set(old))
            closed = sorted(set(old) - set(new))
            if opened:
                changed.add(effects.WINDOW_OPENED)
            if closed:
                changed.add(effects.WINDOW_CLOSED)
        common = set(new) & set(old)
        for wid in common:
            was, now = old[wid], new[wid]
            if was == now:
                continue
            changed.update(tag for tag, value in now.items() if was.get(tag) != value)
            if now.get(effects.NAVIGATE) and was.get(effects.NAVIGATE) != now[effects.NAVIGATE]:
                url = now[effects.DOCUMENT] or None
        for wid in opened:  # a browser window that opened on a page navigated there
            if new[wid].get(effects.NAVIGATE) and new[wid].get(effects.DOCUMENT):
                changed.update((effects.NAVIGATE, effects.CONTENT))
                url = new[wid][effects.DOCUMENT]
        stack_before, stack_after = before.get(_STACK, ()), after.get(_STACK, ())
        if stack_before != stack_after and (
            [w for w in stack_before if w in common] != [w for w in stack_after if w in common]
        ):
            changed.add(effects.WINDOW_FOCUSED)
    if effects.NAVIGATE in after and before.get(effects.NAVIGATE) != after[effects.NAVIGATE]:
        url = after[effects.NAVIGATE][2]  # the headless browser's address
    return ActionEffect(sorted(changed), _state(machine.visible_digest(), after), opened, closed,
                        after.get(effects.WINDOW_FOCUSED), url)


#: ``(visible digest, projection, state)`` of the last effect. The state is a function of
#: the first two alone, so an action that leaves what the actor sees as it was (most
#: requests, most clicks on an unchanged screen) reuses it: compared by value, it holds
#: across machines and worlds.
_last: tuple[bytes, dict[str, Any], int] = (b"", {}, 0)


def _state(visible: bytes, after: dict[str, Any]) -> int:
    """The effect's ``state``: a digest of the machine's visible digest and ``after``."""
    global _last
    last = _last
    if last[0] == visible and last[1] == after:
        return last[2]
    plain = sorted((k, v) for k, v in after.items() if k != _WINDOWS and v is not None)
    state = u64((visible, plain, sorted(after.get(_WINDOWS, {}).items())))
    _last = (visible, after, state)
    return state
