"""A granted session: the actor's config plus what it keeps between steps.

Besides the terminal latches and the focused machine, a session owns one desktop per
machine it has used through the GUI families (windows, stacking, focus, shell panels):
desktop state is per session, machine state (files, shell) is shared.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cwgym.desktop.state import Desktop
from cwgym.protocol.config import EnvironmentConfig

if TYPE_CHECKING:
    from cwgym.desktop.seat import Seat
    from cwgym.environment.world import World


class Session:
    """One actor's grant and its per-session state (terminal latches, focus, desktops)."""

    __slots__ = ("config", "desktops", "focus", "id", "terminal")

    def __init__(self, session_id: str, config: EnvironmentConfig) -> None:
        self.id = session_id
        self.config = config
        self.terminal: dict[str, dict | None] = {m: None for m in config.machines}
        self.focus: str | None = config.machines[0] if config.machines else None
        self.desktops: dict[str, Desktop] = {}

    @property
    def machines(self) -> list[str]:
        return self.config.machines

    def _desktops(self) -> list[tuple[str, Desktop]]:
        """Desktops of machines still granted, by machine id."""
        granted = set(self.config.machines)
        return [(m, d) for m, d in sorted(self.desktops.items()) if m in granted]

    def frozen(self) -> tuple:
        return (
            self.id,
            self.config,
            tuple(sorted(self.terminal.items())),
            self.focus,
            tuple((m, d.frozen()) for m, d in self._desktops()),
        )

    @classmethod
    def thaw(cls, value: tuple) -> Session:
        session_id, config, terminal, focus, desktops = value
        session = cls.__new__(cls)
        session.id = session_id
        session.config = config
        session.terminal = dict(terminal)
        session.focus = focus
        session.desktops = {m: Desktop.thaw(d) for m, d in desktops}
        return session

    def desktop_docs(self) -> dict[str, Any]:
        """Each desktop as plain data, by machine id."""
        return {m: d.plain() for m, d in self._desktops()}

    def plain(self) -> dict[str, Any]:
        out = {
            "id": self.id,
            "config": self.config.to_plain(),
            "terminal": dict(sorted(self.terminal.items())),
            "focus": self.focus,
        }
        desktops = self.desktop_docs()
        if desktops:
            out["desktops"] = desktops
        return out


def seat_for(world: World, session: Session, machine_id: str, *, create: bool = False) -> Seat:
    """The session's desktop on ``machine_id``, bound to the machine, theme and grants.

    With ``create``, a session that had no desktop there gets one kept in its state (the
    GUI families act on it); otherwise a fresh empty desktop is used and not kept (looking
    at a screen changes nothing). The seat's repaint cache is the one of its theme and
    granted families: its keys are content, so every session of the world and its forks
    can share it.
    """
    from cwgym.apps import load
    from cwgym.desktop.compositor import SceneCache
    from cwgym.desktop.seat import Seat
    from cwgym.desktop.themes import theme

    load()
    desk = session.desktops.get(machine_id)
    if desk is None:
        desk = Desktop()
        if create:
            session.desktops[machine_id] = desk
    name = machine_theme(world, machine_id)
    caches = world.__dict__.setdefault("_gui_cache", {})  # shared with forks: see World.fork
    key = (name, tuple(sorted(session.config.actions)))
    cache = caches.get(key)
    if cache is None:
        cache = caches[key] = SceneCache()
    config = session.config
    return Seat(
        desk,
        world._machines[machine_id],
        theme(name),
        frozenset(config.actions),
        frozenset(config.observations),
        cache,
        latch=lambda result: session.terminal.__setitem__(machine_id, result),
    )


def machine_theme(world: World, machine_id: str) -> str | None:
    """The desktop theme the world's definition names for a machine, or ``None``."""
    themes = world._definition.metadata.get("desktop_themes")
    name = themes.get(machine_id) if isinstance(themes, dict) else None
    return name if isinstance(name, str) else None
