"""The seeds a leaderboard suite's tasks are played on: the public split, or a hidden one.

The public split (the default) draws each task's seeds without replacement from the
task's range with a generator seeded by the suite's ``seed`` and the env id: anyone can
recompute them, which is what development needs.

A hidden split draws them the same way with a generator seeded by
``HMAC-SHA256(secret, suite name + env id)``: only whoever holds the secret knows them, so
an agent developed on the public split cannot have seen them. What a hidden split records
is ``sha256(secret)``, which tells a later ``cwgym verify`` whether it was given the same
secret, and never the seeds themselves.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["MIN_SECRET_BYTES", "SecretError", "Split", "read_secret", "suite_seeds"]

MIN_SECRET_BYTES = 16


class SecretError(ValueError):
    """The secret of a hidden split cannot be read, or is too short."""


def _draw(rng: np.random.Generator, task: dict[str, Any], episodes: int | None) -> list[int]:
    lo, hi = task["seeds"]
    count = task["episodes"] if episodes is None else min(episodes, task["episodes"])
    drawn = rng.choice(hi - lo, size=task["episodes"], replace=False)
    return [int(lo + s) for s in drawn[:count]]


def suite_seeds(suite: dict[str, Any], task: dict[str, Any], episodes: int | None = None) -> list[int]:
    """The public seeds of a task: drawn without replacement from its range by the suite's seed."""
    return _draw(np.random.default_rng([int(suite.get("seed", 0)), zlib.crc32(task["env"].encode())]), task, episodes)


def read_secret(path: str | None = None, env_var: str | None = None) -> bytes:
    """The secret in file ``path`` or environment variable ``env_var`` (surrounding whitespace removed).

    Raises:
        SecretError: unreadable, unset, or shorter than :data:`MIN_SECRET_BYTES` bytes.
    """
    if path is not None:
        try:
            secret = Path(path).read_bytes().strip()
        except OSError as exc:
            raise SecretError(f"cannot read the secret file {path} ({exc.strerror})") from None
        where = f"the secret file {path}"
    else:
        if env_var not in os.environ:
            raise SecretError(f"the environment variable {env_var} holding the secret is not set")
        secret = os.environ[env_var].encode().strip()
        where = f"${env_var}"
    if len(secret) < MIN_SECRET_BYTES:
        raise SecretError(f"{where} holds {len(secret)} bytes; a hidden split needs at least {MIN_SECRET_BYTES}")
    return secret


@dataclass(frozen=True)
class Split:
    """Which seeds a suite is played on: public (``secret`` is ``None``) or hidden."""

    secret: bytes | None = None

    @property
    def hidden(self) -> bool:
        return self.secret is not None

    def seeds(self, suite: dict[str, Any], task: dict[str, Any], episodes: int | None = None) -> list[int]:
        """The seeds of ``task`` in this split (the first ``episodes`` of them)."""
        if self.secret is None:
            return suite_seeds(suite, task, episodes)
        message = f"cwgym-hidden-split\n{suite['suite']}\n{task['env']}".encode()
        digest = hmac.new(self.secret, message, hashlib.sha256).digest()
        return _draw(np.random.default_rng(int.from_bytes(digest, "big")), task, episodes)

    def describe(self) -> dict[str, Any]:
        """The split as results and submissions record it (the secret only as its SHA-256)."""
        if self.secret is None:
            return {"kind": "public"}
        return {"kind": "hidden", "secret_sha256": hashlib.sha256(self.secret).hexdigest()}
