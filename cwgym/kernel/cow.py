"""A copy-on-write map: O(1) freeze, and writes after a freeze copy only one bucket.

``CowMap`` spreads its entries over a fixed number of plain dict buckets. ``freeze()``
returns the current buckets as an immutable ``FrozenMap`` and marks every bucket shared;
the next write to a shared bucket copies that bucket (and only it) first. Thawing a frozen
map shares all buckets again. Snapshots of a large map therefore cost the same as
snapshots of a small one, and a fork pays only for the buckets it writes.

Keys are ints or strs; they are bucketed by value (``crc32`` for strings), never by
``hash()``, so placement does not depend on ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from typing import Any, Generic, TypeVar

K = TypeVar("K", int, str)
V = TypeVar("V")

BUCKETS = 64


def _bucket_of(key: int | str) -> int:
    if isinstance(key, int):
        return key % BUCKETS
    return zlib.crc32(key.encode("utf-8", "surrogatepass")) % BUCKETS


class FrozenMap(Generic[K, V]):
    """An immutable map as frozen by :meth:`CowMap.freeze`."""

    __slots__ = ("_buckets", "_len")

    def __init__(self, buckets: tuple[dict, ...], length: int) -> None:
        self._buckets = buckets
        self._len = length

    def get(self, key: K, default: Any = None) -> Any:
        return self._buckets[_bucket_of(key)].get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._buckets[_bucket_of(key)]  # type: ignore[arg-type]

    def __len__(self) -> int:
        return self._len

    def items(self) -> Iterator[tuple[K, V]]:
        """Entries in key order (deterministic)."""
        pairs = [pair for bucket in self._buckets for pair in bucket.items()]
        pairs.sort(key=lambda kv: kv[0])
        return iter(pairs)


class CowMap(Generic[K, V]):
    """A mutable map whose snapshots are O(1) and whose copies share unchanged buckets."""

    __slots__ = ("_buckets", "_len", "_owned")

    def __init__(self, frozen: FrozenMap[K, V] | None = None) -> None:
        if frozen is None:
            self._buckets: list[dict] = [{} for _ in range(BUCKETS)]
            self._owned = bytearray(b"\x01" * BUCKETS)
            self._len = 0
        else:
            self._buckets = list(frozen._buckets)
            self._owned = bytearray(BUCKETS)
            self._len = frozen._len

    def _writable(self, index: int) -> dict:
        bucket = self._buckets[index]
        if not self._owned[index]:
            bucket = dict(bucket)
            self._buckets[index] = bucket
            self._owned[index] = 1
        return bucket

    def get(self, key: K, default: Any = None) -> Any:
        return self._buckets[_bucket_of(key)].get(key, default)

    def __getitem__(self, key: K) -> V:
        return self._buckets[_bucket_of(key)][key]

    def __contains__(self, key: object) -> bool:
        return key in self._buckets[_bucket_of(key)]  # type: ignore[arg-type]

    def __len__(self) -> int:
        return self._len

    def set(self, key: K, value: V) -> None:
        bucket = self._writable(_bucket_of(key))
        if key not in bucket:
            self._len += 1
        bucket[key] = value

    __setitem__ = set

    def delete(self, key: K) -> None:
        bucket = self._writable(_bucket_of(key))
        del bucket[key]
        self._len -= 1

    def pop(self, key: K, default: Any = None) -> Any:
        index = _bucket_of(key)
        if key not in self._buckets[index]:
            return default
        value = self._writable(index).pop(key)
        self._len -= 1
        return value

    def keys(self) -> list[K]:
        """Keys in sorted order."""
        return sorted(k for bucket in self._buckets for k in bucket)

    def __iter__(self) -> Iterator[K]:
        return iter(self.keys())

    def values_unordered(self) -> Iterator[V]:
        """Values in storage order: for order-independent folds only (sums, counts)."""
        for bucket in self._buckets:
            yield from bucket.values()

    def items(self) -> Iterator[tuple[K, V]]:
        """Entries in key order (deterministic)."""
        pairs = [pair for bucket in self._buckets for pair in bucket.items()]
        pairs.sort(key=lambda kv: kv[0])
        return iter(pairs)

    def freeze(self) -> FrozenMap[K, V]:
        """An immutable view of the current entries; later writes never show in it."""
        self._owned = bytearray(BUCKETS)
        return FrozenMap(tuple(self._buckets), self._len)
