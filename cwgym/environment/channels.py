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


def builtin_channels() -> dict[str, ObservationChannel]:
    return {"terminal.v1": TerminalChannel(), "filesystem.v1": FilesystemChannel()}
