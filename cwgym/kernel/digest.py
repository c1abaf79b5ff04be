"""Canonical encoding and digests: the same value hashes the same in every process.

Dicts are encoded with sorted keys, so neither insertion order nor ``PYTHONHASHSEED``
reaches a digest.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

_encoder = msgspec.msgpack.Encoder(order="deterministic")
canonical = _encoder.encode

#: Modulus of the additive multiset digests (AdHash over sha256).
MODULUS = 1 << 256


def sha256_hex(*parts: bytes) -> str:
    """Hex sha256 of the concatenated parts."""
    h = hashlib.sha256()
    for part in parts:
        h.update(part)
    return h.hexdigest()


def value_digest(value: Any) -> bytes:
    """A 32-byte digest of any msgspec-encodable value."""
    return hashlib.sha256(_encoder.encode(value)).digest()


def u64(value: Any) -> int:
    """A 64-bit digest of a value (used for effect states, node revisions, scene digests)."""
    return int.from_bytes(hashlib.blake2b(_encoder.encode(value), digest_size=8).digest(), "big")


def entry_term(key: Any, digest: bytes) -> int:
    """The term one map entry adds to an additive multiset digest."""
    return int.from_bytes(hashlib.sha256(_encoder.encode(key) + digest).digest(), "big")
