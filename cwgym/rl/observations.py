"""The observation codec: the agent's view of its session, as a ``Dict`` space.

Keys follow the grant (an observation needs its channel granted):

======================  ===============================================  ===============
key                     space                                            needs
======================  ===============================================  ===============
``pixels``              ``Box(0, 255, (H, W, 3), uint8)``                ``pixels.v1``
``elements``            ``Box(0, 1, (K, 15), float32)``                  ``semantic.v1``
``terminal``            ``Text(text_length)``                            ``terminal.v1``
``terminal_tokens``     ``Box(0, 1, (tokens,), float32)``                ``terminal.v1``
``instruction``         ``Text(text_length)``                            —
``instruction_tokens``  ``Box(0, 1, (tokens,), float32)``                —
======================  ===============================================  ===============

``pixels`` is the frame ``Environment.render`` draws at the viewport; ``elements`` is the
table of :mod:`cwgym.rl.elements` built from the session's ``semantic.v1`` view; ``terminal``
is the session's ``terminal.v1`` latch as a terminal shows it (standard output, standard
error, then ``[exit N]``), keeping the end of a long output; ``instruction`` is the
procedure instance's instruction. The ``sb3`` preset swaps the text entries for their token
ids (:func:`cwgym.rl.text.token_ids`) scaled to ``[0, 1]`` as ``id / (token_vocab - 1)``
(``0`` is padding; ``round(v * (token_vocab - 1))`` gives the id back), so every entry is a
``Box`` of values in ``[0, 1]``, as the element table's ids are: stable-baselines3's
default policies feed observations to their networks unscaled, and raw ids in the
thousands drown the table's features (PPO on ``easy-open-desktop-file`` reached 39% on
test seeds with raw ids, 100% with them scaled or left out).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import spaces

from cwgym.render import frame_array
from cwgym.rl.elements import FEATURES
from cwgym.rl.text import CHARSET, fit, token_ids

if TYPE_CHECKING:
    from cwgym.rl.config import TaskConfig
    from cwgym.rl.episode import Episode

__all__ = ["ObservationCodec", "terminal_text"]

TEXT_KEYS = ("terminal", "instruction")


def terminal_text(result: dict | None) -> str:
    """A ``terminal.v1`` result as a terminal shows it; ``""`` before any command."""
    if not result:
        return ""
    out = (result.get("stdout") or "") + (result.get("stderr") or "")
    if out and not out.endswith("\n"):
        out += "\n"
    return f"{out}[exit {result.get('exit_code')}]"


class ObservationCodec:
    """Builds the ``Dict`` space of a configuration and fills observations of an episode."""

    def __init__(self, config: TaskConfig) -> None:
        self.config = config
        self.keys = config.obs_keys()
        self.text_length = config.text_length
        entries: dict[str, spaces.Space] = {}
        for key in self.keys:
            entries[key] = self._space(key)
        self.space = spaces.Dict(entries)
        self.box_keys = [k for k in self.keys if isinstance(entries[k], spaces.Box)]
        self.wants_table = "elements" in self.keys

    def _space(self, key: str) -> spaces.Space:
        c = self.config
        if key == "pixels":
            return spaces.Box(0, 255, (c.height, c.width, 3), dtype=np.uint8)
        if key == "elements":
            return spaces.Box(0.0, 1.0, (c.elements, len(FEATURES)), dtype=np.float32)
        if key in TEXT_KEYS:
            return spaces.Text(max_length=c.text_length, min_length=0, charset=CHARSET)
        return spaces.Box(0.0, 1.0, (c.tokens,), dtype=np.float32)

    def encode(self, episode: Episode, out: dict[str, np.ndarray] | None = None) -> dict[str, Any]:
        """The observation of ``episode`` now. ``Box`` entries are written into ``out``'s
        arrays when given (a vector env's rows), else into fresh arrays."""
        c = self.config
        obs: dict[str, Any] = {}
        for key in self.keys:
            target = out.get(key) if out is not None else None
            if key == "pixels":
                frame = episode.actor.render(c.width, c.height)
                view = frame_array(frame["rgba"], c.width, c.height, 3)
                if target is None:
                    target = np.empty((c.height, c.width, 3), dtype=np.uint8)
                np.copyto(target, view)
                obs[key] = target
            elif key == "elements":
                table = episode.table
                if target is None:
                    obs[key] = table.array.copy()
                else:
                    np.copyto(target, table.array)
                    obs[key] = target
            elif key == "instruction":
                obs[key] = fit(episode.instance.instruction, self.text_length)
            elif key == "terminal":
                obs[key] = fit(terminal_text(episode.terminal()), self.text_length, keep="tail")
            else:
                if key == "instruction_tokens":
                    ids = token_ids(episode.instance.instruction, c.tokens, c.token_vocab)
                else:
                    ids = token_ids(terminal_text(episode.terminal()), c.tokens, c.token_vocab, keep="tail")
                ids = ids.astype(np.float32) / (c.token_vocab - 1)
                if target is None:
                    obs[key] = ids
                else:
                    np.copyto(target, ids)
                    obs[key] = target
        return obs
