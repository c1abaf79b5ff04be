"""Actions as JSON data: what an agent sends, what a submission records, what is stepped.

The agent's side turns its action into JSON data (:func:`to_json`: arrays become lists,
numpy scalars Python numbers). The evaluator turns that JSON back into the action it
steps (:func:`from_json`, the same function ``cwgym verify`` replays with) and checks it
with the space's own ``contains``. The conversion is strict — an integer space takes
integers, not ``true`` or ``5.7`` or ``"5"`` — so the recorded JSON is exactly what was
stepped; anything else is :class:`InvalidAction`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

__all__ = ["InvalidAction", "checked_action", "from_json", "to_json"]


class InvalidAction(ValueError):
    """An agent's action is not an element of the env's action space."""


def to_json(value: Any) -> Any:
    """An action as JSON data (arrays become lists, numpy scalars Python numbers)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"an action must be JSON data or numpy, got {type(value).__name__}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _array(space: spaces.Space, value: Any) -> np.ndarray:
    if not isinstance(value, list):
        raise InvalidAction(f"{space} takes a list of numbers, got {type(value).__name__}")
    try:
        raw = np.asarray(value)
    except (ValueError, OverflowError) as exc:
        raise InvalidAction(f"{space} takes a list of numbers: {exc}") from None
    integral = np.issubdtype(space.dtype, np.integer) or space.dtype == np.bool_
    if raw.dtype.kind not in ("iu" if integral else "iuf") and not (raw.size == 0 and raw.dtype.kind == "f"):
        raise InvalidAction(f"{space} takes {'integers' if integral else 'numbers'}, got {raw.dtype} values")
    return raw.astype(space.dtype)


def from_json(space: spaces.Space, value: Any) -> Any:
    """The action of ``space`` that ``value`` (JSON data) stands for.

    Raises:
        InvalidAction: ``value`` is not the JSON form of an action of ``space``.
    """
    if isinstance(space, spaces.Discrete):
        if not _is_int(value):
            raise InvalidAction(f"{space} takes an integer, got {type(value).__name__}")
        return value
    if isinstance(space, (spaces.Box, spaces.MultiDiscrete, spaces.MultiBinary)):
        return _array(space, value)
    if isinstance(space, spaces.Text):
        if not isinstance(value, str):
            raise InvalidAction(f"a Text space takes a string, got {type(value).__name__}")
        return value
    if isinstance(space, spaces.OneOf):
        if not (isinstance(value, list) and len(value) == 2 and _is_int(value[0]) and 0 <= value[0] < len(space.spaces)):
            raise InvalidAction(f"a OneOf of {len(space.spaces)} takes [part, action of that part], got {value!r:.80}")
        return (value[0], from_json(space.spaces[value[0]], value[1]))
    if isinstance(space, spaces.Tuple):
        if not (isinstance(value, list) and len(value) == len(space.spaces)):
            raise InvalidAction(f"a Tuple of {len(space.spaces)} takes a list of {len(space.spaces)}, got {value!r:.80}")
        return tuple(from_json(s, v) for s, v in zip(space.spaces, value))
    if isinstance(space, spaces.Dict):
        if not (isinstance(value, dict) and value.keys() == space.spaces.keys()):
            raise InvalidAction(f"a Dict takes the keys {sorted(space.spaces)}, got {value!r:.80}")
        return {k: from_json(s, value[k]) for k, s in space.spaces.items()}
    raise InvalidAction(f"actions of a {type(space).__name__} space cannot be read from JSON")


def checked_action(space: spaces.Space, value: Any) -> Any:
    """:func:`from_json`, then ``space.contains``: the action to step, or :class:`InvalidAction`."""
    action = from_json(space, value)
    if not space.contains(action):
        raise InvalidAction(f"{value!r:.80} is not in the action space {space!r:.80}")
    return action
