"""The grant an owner gives an actor: ``EnvironmentConfig`` and its presets."""

from __future__ import annotations

import msgspec

DEFAULT_ACTION_BUDGET = 1024


class EnvironmentConfig(msgspec.Struct, forbid_unknown_fields=True):
    """Which machines, action families and observation channels a session may use.

    ``action_budget`` is the largest batch one ``step`` may carry.
    """

    actor: str
    machines: list[str]
    actions: list[str]
    observations: list[str]
    action_budget: int = DEFAULT_ACTION_BUDGET

    @classmethod
    def terminal(cls, actor: str, machines: list[str]) -> EnvironmentConfig:
        """Shell work only: terminal and filesystem actions, their observations."""
        return cls(
            actor=actor,
            machines=list(machines),
            actions=["terminal.v1", "filesystem.v1"],
            observations=["terminal.v1", "filesystem.v1"],
        )

    @classmethod
    def desktop(cls, actor: str, machines: list[str]) -> EnvironmentConfig:
        """A person at a desktop: pointer, keyboard and applications, seen on screen."""
        return cls(
            actor=actor,
            machines=list(machines),
            actions=["application.v1", "keyboard.v1", "pointer.v1"],
            observations=["semantic.v1", "pixels.v1"],
        )

    def to_plain(self) -> dict:
        return msgspec.to_builtins(self)
