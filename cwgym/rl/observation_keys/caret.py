"""``caret``: where the focused text field's caret is, ``Box(0, 1, (10,), float32)``.

Read from the ``semantic.v1`` view's ``focus.caret`` (line, column and offset into the
focused field's value) and the value of the element table row of ``focus.target`` (the editor's text, the
terminal's input line, a one-line field's text)::

    0  present         1 when the focused control declares a caret, else the row is all 0
    1  line            min(line, 63) / 63
    2  column          min(column, 127) / 127
    3  offset          min(offset, 1023) / 1023
    4  at_end          the caret is after the value's last character
    5  line_start      column 0
    6  line_end        the next character is a newline, or there is none
    7  first_line      line 0
    8  last_line       no newline after the caret
    9  after_space     the character before the caret is whitespace

Keys that only move the caret (``Ctrl+End``, the arrows, ``Home``, a ``Shift`` selection)
change nothing else a policy sees: without this key the observations before and after them
are the same, and so are a terminal line before and after a typed space (``focus_tokens``
drops spaces). The selection itself is not in ``semantic.v1``. The flags say what the
scaled numbers say only in their last bits.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from cwgym.rl.config import TaskConfig
from cwgym.rl.observation_keys import EpisodeView, ObservationKey, observation_key
from cwgym.rl.observation_keys.focus_tokens import focused_value

#: The caps of the scaled line, column and offset.
MAX_LINE, MAX_COLUMN, MAX_OFFSET = 63, 127, 1023
WIDTH = 10
_NONE = np.zeros(WIDTH, dtype=np.float32)
_NONE.flags.writeable = False


def caret_features(caret: dict | None, value: str) -> np.ndarray:
    """The key's row for a ``focus.caret`` of ``semantic.v1`` (``None``: zeros) in ``value``."""
    row = np.zeros(WIDTH, dtype=np.float32)
    if not caret:
        return row
    line, column = int(caret.get("line", 0)), int(caret.get("column", 0))
    offset = min(max(int(caret.get("offset", 0)), 0), len(value))
    row[:4] = 1.0, min(line, MAX_LINE) / MAX_LINE, min(column, MAX_COLUMN) / MAX_COLUMN, min(offset, MAX_OFFSET) / MAX_OFFSET
    row[4] = offset >= len(value)
    row[5] = column == 0
    row[6] = offset >= len(value) or value[offset] == "\n"
    row[7] = line == 0
    row[8] = "\n" not in value[offset:]
    row[9] = offset > 0 and value[offset - 1].isspace()
    return row


@observation_key("caret")
class Caret(ObservationKey):
    channel = "semantic.v1"
    uses_table = True

    def __init__(self, config: TaskConfig) -> None:
        super().__init__(config)
        self.space = spaces.Box(0.0, 1.0, (WIDTH,), dtype=np.float32)

    def encode(self, episode: EpisodeView, out: np.ndarray | None) -> np.ndarray:
        focus = (episode.semantic_view() or {}).get("focus") or {}
        caret = focus.get("caret")
        if caret is None:
            return self.box(_NONE, out)
        return self.box(caret_features(caret, _value(episode.table.rows, focus.get("target"))), out, fresh=True)


def _value(rows: list[dict], target: str | None) -> str:
    """The value of the focus target's row (an editor in a window behind keeps its row's
    ``focused`` flag, so the first focused row is not always the caret's), else of the
    first focused row."""
    for row in rows:
        if row.get("id") == target:
            return row.get("value") or ""
    return focused_value(rows)
