"""Observation channels: what ``observe()`` returns for each granted channel.

A channel is an object with a ``version`` and ``observe(world, session) -> value``; built-in
channels key their value by machine. ``observe`` never rasterizes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from cwgym.environment.session import Session
    from cwgym.environment.world import World


class ObservationChannel(Protocol):
    version: str

    def observe(self, world: World, session: Session) -> Any: ...


class TerminalChannel:
    """The last ``terminal.v1`` result per machine (``None`` before any command)."""

    version = "1"

    def observe(self, world: World, session: Session) -> dict[str, Any]:
        return {m: session.terminal.get(m) for m in session.machines}


class FilesystemChannel:
    """The shell's working directory per machine: the actor's place, not a world inspector."""

    version = "1"

    def observe(self, world: World, session: Session) -> dict[str, Any]:
        return {m: {"cwd": world._machines[m].shell.cwd} for m in session.machines}


class SemanticChannel:
    """The focused machine's screen as structure (windows, controls, text), keyed by machine.

    Built from the scene at the theme's native size without rasterizing; the shape is
    :mod:`cwgym.desktop.semantic`'s.
    """

    version = "1"

    def observe(self, world: World, session: Session) -> dict[str, Any]:
        from cwgym.environment.session import seat_for

        machine = session.focus
        if machine is None or machine not in world._machines:
            return {}
        seat = seat_for(world, session, machine)
        return {machine: seat.cache.projection(seat.scene(*seat.native))}


class PixelsChannel:
    """Always ``{}``: observing never rasterizes; the grant authorizes ``render``."""

    version = "1"

    def observe(self, world: World, session: Session) -> dict[str, Any]:
        return {}


def builtin_channels() -> dict[str, ObservationChannel]:
    return {
        "terminal.v1": TerminalChannel(),
        "filesystem.v1": FilesystemChannel(),
        "semantic.v1": SemanticChannel(),
        "pixels.v1": PixelsChannel(),
    }
