"""Gymnasium spaces as JSON-able descriptions, and back.

The agent needs its action and observation spaces to act (to sample, to size a network),
but a space object never crosses the evaluator boundary: the evaluator sends a
description — ``{"type": "Discrete", "n": 131, "start": 0}`` — and the agent's side builds
an equal space from it. Only the spaces cwgym's envs use are described: ``Box``,
``Discrete``, ``MultiDiscrete``, ``MultiBinary``, ``Text``, ``Dict``, ``Tuple`` and
``OneOf``. A ``Box`` whose bounds are one value gives that value; otherwise nested lists.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

__all__ = ["build_space", "describe_space"]


def _bound(values: np.ndarray) -> Any:
    flat = values.reshape(-1)
    if flat.size and np.all(flat == flat[0]):
        return flat[0].item()
    return values.tolist()


def describe_space(space: spaces.Space) -> dict[str, Any]:
    """``space`` as plain data :func:`build_space` turns back into an equal space.

    Raises:
        TypeError: a space type this module does not describe.
    """
    kind = type(space).__name__
    if isinstance(space, spaces.Box):
        return {"type": kind, "low": _bound(space.low), "high": _bound(space.high), "shape": list(space.shape), "dtype": space.dtype.str}
    if isinstance(space, spaces.Discrete):
        return {"type": kind, "n": int(space.n), "start": int(space.start)}
    if isinstance(space, spaces.MultiDiscrete):
        return {"type": kind, "nvec": space.nvec.tolist(), "start": space.start.tolist(), "dtype": space.dtype.str}
    if isinstance(space, spaces.MultiBinary):
        return {"type": kind, "n": np.asarray(space.n).tolist()}
    if isinstance(space, spaces.Text):  # ObservationText differs only in shared memory: the agent gets a Text
        return {"type": "Text", "min_length": space.min_length, "max_length": space.max_length, "charset": "".join(space.character_list)}
    if isinstance(space, spaces.Dict):
        return {"type": kind, "spaces": {key: describe_space(sub) for key, sub in space.spaces.items()}}
    if isinstance(space, (spaces.Tuple, spaces.OneOf)):
        return {"type": kind, "spaces": [describe_space(sub) for sub in space.spaces]}
    raise TypeError(f"a {kind} space has no description for the agent")


def build_space(description: dict[str, Any]) -> spaces.Space:
    """The space :func:`describe_space` described.

    Raises:
        ValueError: not a description of a known space.
    """
    kind = description.get("type") if isinstance(description, dict) else None
    d = description
    if kind == "Box":
        shape, dtype = tuple(d["shape"]), np.dtype(d["dtype"])
        low, high = (np.broadcast_to(np.asarray(d[k], dtype=dtype), shape) for k in ("low", "high"))
        return spaces.Box(low, high, shape, dtype=dtype)
    if kind == "Discrete":
        return spaces.Discrete(d["n"], start=d["start"])
    if kind == "MultiDiscrete":
        return spaces.MultiDiscrete(np.asarray(d["nvec"]), dtype=np.dtype(d["dtype"]), start=np.asarray(d["start"]))
    if kind == "MultiBinary":
        return spaces.MultiBinary(d["n"])
    if kind == "Text":
        return spaces.Text(d["max_length"], min_length=d["min_length"], charset=d["charset"])
    if kind == "Dict":
        return spaces.Dict({key: build_space(sub) for key, sub in d["spaces"].items()})
    if kind == "Tuple":
        return spaces.Tuple([build_space(sub) for sub in d["spaces"]])
    if kind == "OneOf":
        return spaces.OneOf([build_space(sub) for sub in d["spaces"]])
    raise ValueError(f"not a space description: {description!r:.80}")
