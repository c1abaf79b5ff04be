"""A granted session: the actor's config plus what its channels latch between steps."""

from __future__ import annotations

from typing import Any

from cwgym.protocol.config import EnvironmentConfig


class Session:
    """One actor's grant and its per-session state (terminal latches, focused machine)."""

    __slots__ = ("config", "focus", "id", "terminal")

    def __init__(self, session_id: str, config: EnvironmentConfig) -> None:
        self.id = session_id
        self.config = config
        self.terminal: dict[str, dict | None] = {m: None for m in config.machines}
        self.focus: str | None = config.machines[0] if config.machines else None

    @property
    def machines(self) -> list[str]:
        return self.config.machines

    def frozen(self) -> tuple:
        return (
            self.id,
            self.config,
            tuple(sorted(self.terminal.items())),
            self.focus,
        )

    @classmethod
    def thaw(cls, value: tuple) -> Session:
        session_id, config, terminal, focus = value
        session = cls.__new__(cls)
        session.id = session_id
        session.config = config
        session.terminal = dict(terminal)
        session.focus = focus
        return session

    def plain(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "config": self.config.to_plain(),
            "terminal": dict(sorted(self.terminal.items())),
            "focus": self.focus,
        }
