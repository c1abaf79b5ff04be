"""Replay: rebuild a world from (definition, seed, trajectory) and check it lands the same.

Grants, agent actions and topology edits are re-issued in order; every other entry
(command output, folders made at login) is a consequence and must reappear by itself.
With ``verify``, each action whose entry recorded a state hash (see
``World.enable_replay_verification``) is checked right after it runs, and the first
mismatch raises :class:`~cwgym.protocol.errors.ReplayDiverged`; the regenerated journal
must also equal the given one entry for entry. A run that took answers from the real
internet (``World.begin_external``) is not replayable: the outside world is not in it.

A trajectory that is not one a world could have written (not a list of entries, an entry
of the wrong shape, a grant or an edit this world refuses) raises
:class:`~cwgym.protocol.errors.TrajectoryError` with the index of the entry. With ``key``,
the trajectory must carry the ``signature`` :func:`~cwgym.environment.signing.sign_trajectory`
gave it under that key.
"""

from __future__ import annotations

from typing import Any

import msgspec

from cwgym.environment.signing import trajectory_body, verify
from cwgym.environment.world import World
from cwgym.kernel.digest import canonical, sha256_hex
from cwgym.protocol.config import EnvironmentConfig
from cwgym.protocol.errors import Refused, ReplayDiverged, TrajectoryError
from cwgym.protocol.plain import NotPlainData, plain_copy

__all__ = ["replay"]

REPLAYED = ("session.granted", "agent.action", "topology.add_computer", "topology.remove_computer")


def replay(
    definition: Any,
    seed: int,
    trajectory: list[dict],
    *,
    verify: bool = True,
    key: bytes | str | None = None,
    signature: str | None = None,
) -> World:
    """A world that has been through ``trajectory``.

    Raises:
        TrajectoryError: a malformed trajectory, naming the entry; or, with ``key``, a
            missing or wrong signature.
        ReplayDiverged: the replay reached another state or journal than recorded.
    """
    world = World(definition, seed)
    runtime = world.runtime
    if not isinstance(trajectory, list):
        raise TrajectoryError(None, f"a trajectory is a list of journal entries, got {type(trajectory).__name__}")
    trajectory = [_plain(index, entry) for index, entry in enumerate(trajectory)]
    if key is not None and not _signed(runtime.definition_digest, seed, trajectory, key, signature):
        raise TrajectoryError(None, "the signature is missing or does not match this trajectory")
    if any(isinstance(e, dict) and e.get("kind") == "agent.action" and isinstance(e.get("data"), dict) and "state" in e["data"] for e in trajectory):
        world.enable_replay_verification(True)
    for index, entry in enumerate(trajectory):
        if isinstance(entry, dict) and str(entry.get("kind", "")).startswith("network.external"):
            raise TrajectoryError(index, "a run that took answers from the real internet cannot be replayed (begin_external)")
    for index, entry in enumerate(trajectory):
        kind, data = _entry(index, entry)
        if kind not in REPLAYED:
            continue
        try:
            if kind == "session.granted":
                config = msgspec.convert(_field(index, data, "config", dict), EnvironmentConfig)
                runtime.grant(runtime.check_config(config), _field(index, data, "session", str))
            elif kind == "agent.action":
                runtime.step(_field(index, data, "session", str), [data.get("action")])
            elif kind == "topology.add_computer":
                world.add_computer(_field(index, data, "computer", dict), _field(index, data, "node", dict),
                                   _field(index, data, "links", list))
            else:
                world.remove_computer(_field(index, data, "computer", str))
        except TrajectoryError:
            raise
        except (ValueError, TypeError, KeyError, Refused, msgspec.ValidationError) as exc:
            raise TrajectoryError(index, f"{kind} cannot be replayed ({exc})") from None
        if kind == "agent.action":
            recorded = data.get("state")
            if verify and recorded is not None:
                actual = runtime.journal.entries()[-1].data.get("state")
                if actual != recorded:
                    raise ReplayDiverged(index, str(recorded), actual or "")
    if verify:
        regenerated = world.trajectory()
        for index, (want, got) in enumerate(zip(trajectory, regenerated)):
            if want != got:
                raise ReplayDiverged(index, _digest(want), _digest(got))
        if len(regenerated) != len(trajectory):
            raise ReplayDiverged(min(len(regenerated), len(trajectory)), "", "")
    return world


def _signed(definition_digest: str, seed: int, trajectory: list, key: bytes | str, signature: Any) -> bool:
    try:
        return verify(trajectory_body(definition_digest, seed, trajectory), signature, key)
    except (TypeError, ValueError) as exc:
        raise TrajectoryError(None, f"cannot be signed ({exc})") from None


def _plain(index: int, entry: Any) -> Any:
    """A checked copy of one entry: JSON data only (so nothing the caller holds is used)."""
    try:
        return plain_copy(entry)
    except NotPlainData as exc:
        raise TrajectoryError(index, str(exc)) from None


def _entry(index: int, entry: Any) -> tuple[str, dict]:
    if not isinstance(entry, dict):
        raise TrajectoryError(index, f"an entry is an object, got {type(entry).__name__}")
    kind = entry.get("kind")
    if not isinstance(kind, str):
        raise TrajectoryError(index, "an entry needs a string 'kind'")
    data = entry.get("data")
    if data is None:
        data = {}
    if not isinstance(data, dict) and kind in REPLAYED:
        raise TrajectoryError(index, f"{kind} needs an object 'data'")
    return kind, data


def _field(index: int, data: dict, name: str, kind: type) -> Any:
    value = data.get(name)
    if not isinstance(value, kind):
        raise TrajectoryError(index, f"data.{name} must be a {kind.__name__}")
    return value


def _digest(entry: Any) -> str:
    return sha256_hex(canonical(entry))
