"""Action masks: which of a discrete interface's actions can do something on the screen now.

A policy that spends most of its samples on empty element rows, covered icons and typing
into nothing learns slowly; sb3-contrib's ``MaskablePPO`` removes such actions from the
distribution when the env says which they are. :func:`action_mask` says it for every
interface with a ``Discrete`` or ``MultiDiscrete`` space, from what the agent itself sees
(its element table and its ``semantic.v1`` focus) and the same hit testing a click goes
through, so a masked action is exactly one the env would refuse or that cannot reach a
control:

========================  ==============================================================
part                      an entry is ``True`` when
========================  ==============================================================
``click-element``,        the row holds a control that is enabled and that a click at
``double-click-element``  the env's viewport reaches (not off screen, not covered by a
                          window, panel or menu above it)
``type-token``            the slot holds text and a text field has the keyboard focus
                          (``semantic.v1``'s ``focus.text_entry``)
``keys``                  always: a key can act anywhere (shortcuts, Escape, Enter)
``pointer`` (grid)        always: a point is a point
``done``                  always
``shell-tokens``          per word slot: nothing, a shell word, or a vocabulary slot
                          that holds a word
========================  ==============================================================

The mask of a flat combination is its parts' masks one after another, in the order of the
action indices; a ``MultiDiscrete`` space's mask is its dimensions' masks concatenated, as
``MaskablePPO`` expects. ``Text``, ``Box`` and ``OneOf`` interfaces have no mask
(:func:`action_mask` returns ``None``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from cwgym.rl.actions import (
    SHELL_WORDS,
    ActionCodec,
    ClickElementCodec,
    DoneCodec,
    FlatCodec,
    KeysCodec,
    PointerGridCodec,
    ShellTokensCodec,
    TypeTokenCodec,
)

if TYPE_CHECKING:
    from cwgym.environment import Environment, World
    from cwgym.rl.actions import DecodeContext
    from cwgym.rl.config import TaskConfig
    from cwgym.rl.elements import ElementTable
    from cwgym.scene import Scene

__all__ = ["MaskView", "action_mask", "mask_size", "reachable_rows"]


class MaskView(Protocol):
    """What a mask reads of an episode (:class:`cwgym.rl.episode.Episode` is one): the
    agent's element table, vocabulary and ``semantic.v1`` view, and its screen's scene."""

    world: World
    actor: Environment
    config: TaskConfig
    table: ElementTable | None
    ctx: DecodeContext

    def semantic_view(self) -> dict[str, Any] | None: ...


def mask_size(codec: ActionCodec) -> int | None:
    """The length of ``codec``'s mask, ``None`` when its space has none."""
    if isinstance(codec, (PointerGridCodec, ShellTokensCodec)):  # MultiDiscrete: the dimensions' masks
        return int(np.sum(codec.space.nvec))
    return codec.size  # Discrete interfaces and flat combinations; None for the rest


def action_mask(codec: ActionCodec, episode: MaskView) -> np.ndarray | None:
    """The mask of ``codec``'s actions on ``episode``'s screen now (see the module docstring)."""
    if mask_size(codec) is None:
        return None
    if isinstance(codec, PointerGridCodec):
        return np.ones(mask_size(codec), dtype=np.bool_)
    parts = codec.parts if isinstance(codec, FlatCodec) else (codec,)
    return np.concatenate([_part(part, episode) for part in parts])


def _part(part: ActionCodec, episode: MaskView) -> np.ndarray:
    if isinstance(part, ClickElementCodec):
        mask = np.zeros(part.size, dtype=np.bool_)
        table = episode.table
        if table is not None and table.rows:
            scene = episode.world.scene(episode.actor.id, episode.config.width, episode.config.height)
            mask[: len(table.rows)] = _reachable_rows_of_stamped(scene, tuple(row["id"] for row in table.rows))
        return mask
    if isinstance(part, TypeTokenCodec):
        view = episode.semantic_view() or {}
        if not (view.get("focus") or {}).get("text_entry"):
            return np.zeros(part.size, dtype=np.bool_)
        words = episode.ctx.vocabulary
        return np.array([i < len(words) and bool(words[i]) for i in range(part.size)], dtype=np.bool_)
    if isinstance(part, ShellTokensCodec):
        words = episode.ctx.vocabulary
        vocabulary = part.choices - 1 - len(SHELL_WORDS)
        slot = [True] * (1 + len(SHELL_WORDS)) + [i < len(words) and bool(words[i].strip()) for i in range(vocabulary)]
        return np.array(slot * len(part.space.nvec), dtype=np.bool_)
    if isinstance(part, (KeysCodec, DoneCodec, PointerGridCodec)):
        return np.ones(part.size, dtype=np.bool_)
    raise TypeError(f"no action mask for interface part {type(part).__name__}")  # pragma: no cover - every discrete part is above


#: Scenes' answers kept by :func:`_reachable_rows_of_stamped`, oldest first.
_REACHABLE: dict[tuple, list[bool]] = {}
_REACHABLE_KEPT = 64


def _reachable_rows_of_stamped(scene: Scene, ids: tuple[str, ...]) -> list[bool]:
    """:func:`reachable_rows` of a freshly composed (stamped) scene, kept by its content
    digest: a screen that stays the same for several steps (or is asked about by two mask
    parts) is hit-tested once. The digest covers every node's bounds, transform, clips,
    z, interaction and state, which is all hit testing reads."""
    if not scene.digest:
        return reachable_rows(scene, ids)
    key = (scene.digest, scene.width, scene.height, ids)
    rows = _REACHABLE.pop(key, None)
    if rows is None:
        rows = reachable_rows(scene, ids)
        while len(_REACHABLE) >= _REACHABLE_KEPT:
            del _REACHABLE[next(iter(_REACHABLE))]
    _REACHABLE[key] = rows  # most recently used last
    return rows


def reachable_rows(scene: Scene, ids: Sequence[str]) -> list[bool]:
    """For each control id, whether a click on ``scene`` reaches it (as
    :func:`cwgym.rl.elements.click_point` finds it; see :meth:`~cwgym.scene.Scene.reaching`)."""
    reachable = scene.reaching(set(ids))
    return [reachable.get(i, False) for i in ids]
