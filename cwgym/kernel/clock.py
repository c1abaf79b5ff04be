"""The logical clock: unsigned microseconds that only move forward."""

from __future__ import annotations

#: Wall time the world reads at tick 0: Thu 17 Sep 2026 09:00:00 UTC, in Unix seconds.
WORLD_EPOCH_S = 1_789_635_600
MAX_TICK = (1 << 64) - 1


class ClockError(ValueError):
    """A clock move backwards or past the 64-bit range."""


class Clock:
    """Logical time in microseconds. Nothing in the simulator reads host time."""

    __slots__ = ("now_us",)

    def __init__(self, now_us: int = 0) -> None:
        self.now_us = now_us

    def advance(self, delta_us: int) -> int:
        """Move forward by ``delta_us``; returns the new time."""
        if delta_us < 0:
            raise ClockError(f"the clock cannot move backwards (delta {delta_us} us)")
        return self.advance_to(self.now_us + delta_us)

    def advance_to(self, when_us: int) -> int:
        """Move to ``when_us``, which must not be earlier than now."""
        if when_us < self.now_us:
            raise ClockError(f"the clock cannot move backwards ({self.now_us} -> {when_us} us)")
        if when_us > MAX_TICK:
            raise ClockError("the clock would overflow 64 bits")
        self.now_us = when_us
        return when_us

    def unix_seconds(self) -> int:
        """World wall time, in whole Unix seconds, that the clock reads now."""
        return WORLD_EPOCH_S + self.now_us // 1_000_000
