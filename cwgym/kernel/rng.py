"""Named random streams: ``sha256-named-splitmix64-v1``.

Each stream's 64-bit state starts as the first 8 bytes (big-endian) of
``sha256(b"cwgym-rng-v1\\0" + seed as 8 bytes big-endian + b"\\0" + name as UTF-8)`` and
advances with SplitMix64. A stream depends only on (seed, name), so a new draw in one
subsystem never shifts the numbers another subsystem sees.
"""

from __future__ import annotations

import hashlib

ALGORITHM = "sha256-named-splitmix64-v1"
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def stream_seed(seed: int, name: str) -> int:
    """The initial state of stream ``name`` under world ``seed``."""
    material = b"cwgym-rng-v1\x00" + (seed & _MASK).to_bytes(8, "big") + b"\x00" + name.encode()
    return int.from_bytes(hashlib.sha256(material).digest()[:8], "big")


def splitmix64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: ``(new_state, output)``."""
    state = (state + _GOLDEN) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


class RandomStreams:
    """All named streams of one world; their states are part of the world state."""

    __slots__ = ("seed", "states")

    def __init__(self, seed: int, states: dict[str, int] | None = None) -> None:
        self.seed = seed
        self.states: dict[str, int] = dict(states) if states else {}

    def next_u64(self, name: str) -> int:
        state = self.states.get(name)
        if state is None:
            state = stream_seed(self.seed, name)
        state, out = splitmix64(state)
        self.states[name] = state
        return out

    def randbelow(self, name: str, n: int) -> int:
        """A uniform integer in ``[0, n)`` without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next_u64(name)
            if value < limit:
                return value % n

    def uniform(self, name: str) -> float:
        """A float in ``[0, 1)`` with 53 random bits."""
        return (self.next_u64(name) >> 11) / float(1 << 53)
