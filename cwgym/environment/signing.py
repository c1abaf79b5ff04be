"""Signatures an owner puts on what it exports, so an import can require them.

A leaderboard that receives snapshots or trajectories from elsewhere cannot tell a forged
one from a real one by its structure alone: whoever forges one can recompute the journal
chain and the state hash. An HMAC-SHA256 under a key only the owner holds can. The owner
signs on export (``World.export_snapshot(key=...)``, :func:`sign_trajectory`) and requires
the signature on import (``World.import_snapshot(text, key=...)``, ``replay(..., key=...,
signature=...)``). Signatures cover canonical JSON, so they do not depend on key order or
whitespace.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from cwgym.kernel.digest import canonical

__all__ = ["check_key", "sign", "sign_trajectory", "verify"]


def check_key(key: Any) -> bytes:
    """``key`` as bytes; a signing key is bytes (or a str, UTF-8) of at least 16 bytes."""
    if isinstance(key, str):
        key = key.encode()
    if not isinstance(key, (bytes, bytearray)) or len(key) < 16:
        raise ValueError("invalid: a signing key must be at least 16 bytes")
    return bytes(key)


def sign(value: Any, key: bytes | str) -> str:
    """The hex HMAC-SHA256 of ``value``'s canonical JSON under ``key``."""
    return hmac.new(check_key(key), canonical(value), hashlib.sha256).hexdigest()


def verify(value: Any, signature: Any, key: bytes | str) -> bool:
    """Whether ``signature`` is ``value``'s signature under ``key`` (constant-time)."""
    return isinstance(signature, str) and hmac.compare_digest(sign(value, key), signature)


def trajectory_body(definition_digest: str, seed: int, trajectory: list[dict]) -> dict[str, Any]:
    """What a trajectory's signature covers: the definition, the seed and every entry."""
    return {"definition_digest": definition_digest, "seed": seed, "trajectory": trajectory}


def sign_trajectory(world: Any, key: bytes | str) -> str:
    """The signature of ``world``'s trajectory, bound to its definition and seed; give it to
    ``replay(..., key=key, signature=...)``."""
    runtime = world.runtime
    return sign(trajectory_body(runtime.definition_digest, runtime.kernel.seed, world.trajectory()), key)
