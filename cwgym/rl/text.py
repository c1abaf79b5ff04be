"""Text for observations and actions: the character set, the tokenizer, the typing vocabulary.

Everything here is deterministic across processes and ``PYTHONHASHSEED`` values: token
ids come from :func:`cwgym.kernel.digest.u64`, never from ``hash()``.

* :data:`CHARSET` is what a ``Text`` observation may hold; :func:`fit` replaces any other
  character with ``?`` and cuts the text to its space's length.
* :func:`tokens` splits text into lower-case words and single punctuation marks;
  :func:`token_ids` turns them into a fixed-length array of ids in ``1..vocab-1`` with
  ``0`` as padding; :func:`scaled_token_ids` divides them by ``vocab - 1`` into ``[0, 1]``
  (the SB3 preset's ``instruction_tokens`` and ``terminal_tokens``).
* :func:`terminal_text` is a ``terminal.v1`` result as a terminal shows it.
* :func:`vocabulary` is what the ``type-token`` action types: a space, then the distinct
  words of the instruction in the order they first appear.
"""

from __future__ import annotations

import functools
import re

import numpy as np

from cwgym.kernel.digest import u64

__all__ = ["CHARSET", "fit", "scaled_token_ids", "terminal_text", "token_id", "token_ids", "tokens", "vocabulary"]


def _ranges(*spans: tuple[int, int]) -> str:
    return "".join(chr(c) for lo, hi in spans for c in range(lo, hi + 1))


#: Characters a ``Text`` observation or action may hold: tab, newline, printable ASCII,
#: Latin-1 and Latin Extended-A letters, general punctuation (dashes, quotes, ellipsis,
#: bullet), the euro sign, arrows, box drawing and the check mark.
CHARSET = "\t\n" + _ranges(
    (0x20, 0x7E), (0xA0, 0x17F), (0x2010, 0x2027), (0x2030, 0x205E), (0x20AC, 0x20AC),
    (0x2190, 0x21FF), (0x2500, 0x257F), (0x2713, 0x2713),
)
_ALLOWED = frozenset(CHARSET)
_TOKEN = re.compile(r"[0-9a-z]+|[^\s0-9a-z]")
_LEAD = "\"'“‘(<[{"
_TRAIL = "\"'”’)>]},.;:!?"


def fit(text: str, length: int, *, keep: str = "head") -> str:
    """``text`` with characters outside :data:`CHARSET` as ``?``, cut to ``length``.

    ``keep="tail"`` keeps the end of a long text (a terminal's latest output) instead of
    its beginning.
    """
    if len(text) > length:
        text = text[-length:] if keep == "tail" else text[:length]
    if all(c in _ALLOWED for c in text):
        return text
    return "".join(c if c in _ALLOWED else "?" for c in text)


def tokens(text: str) -> list[str]:
    """Lower-case runs of letters and digits, and every other non-space character alone.

    ``"Save it as notes.txt!"`` gives ``save it as notes . txt !``.
    """
    return _TOKEN.findall(text.lower())


@functools.lru_cache(maxsize=65536)
def token_id(token: str, vocab: int) -> int:
    """The id of one token: ``1 + u64(token) % (vocab - 1)`` (``0`` is padding)."""
    return 1 + u64(token) % (vocab - 1)


def token_ids(text: str, length: int, vocab: int, *, keep: str = "head") -> np.ndarray:
    """``length`` token ids of ``text`` as ``int64``, padded with ``0`` at the end.

    The first tokens, or with ``keep="tail"`` the last ones (a terminal's latest output).
    """
    out = np.zeros(length, dtype=np.int64)
    found = tokens(text)
    kept = found[-length:] if keep == "tail" else found[:length]
    for index, token in enumerate(kept):
        out[index] = token_id(token, vocab)
    return out


def scaled_token_ids(text: str, length: int, vocab: int, *, keep: str = "head") -> np.ndarray:
    """:func:`token_ids` as ``float32`` in ``[0, 1]``: ``id / (vocab - 1)``.

    ``round(v * (vocab - 1))`` gives the id back. Networks that take observations unscaled
    (stable-baselines3's default policies) see values of the element table's range.
    """
    return token_ids(text, length, vocab, keep=keep).astype(np.float32) / (vocab - 1)


def terminal_text(result: dict | None) -> str:
    """A ``terminal.v1`` result as a terminal shows it: standard output, standard error,
    then ``[exit N]``; ``""`` before any command."""
    if not result:
        return ""
    out = (result.get("stdout") or "") + (result.get("stderr") or "")
    if out and not out.endswith("\n"):
        out += "\n"
    return f"{out}[exit {result.get('exit_code')}]"


def typing_vocabulary(instruction: str, size: int, characters: str = "") -> list[str]:
    """``type-token``'s slots: :func:`vocabulary`, then with ``characters`` its unused slots
    as ``""`` (refused as ``not_in_vocabulary``) and one slot per character, so a
    character's slot is the same in every episode."""
    words = vocabulary(instruction, size)
    if not characters:
        return words
    return [*words, *[""] * (size - len(words)), *characters]


def vocabulary(instruction: str, size: int) -> list[str]:
    """What ``type-token`` can type: ``" "`` then the instruction's distinct words.

    Words are split on white space, with quotes and brackets stripped from their start and
    quotes, brackets and ``, . ; : ! ?`` from their end (``"notes.txt."`` gives
    ``notes.txt``). A word with a dot inside (a file name) is followed by its stem, the
    part before the last dot (``notes``), which is what a rename field wants. First
    appearance order, duplicates dropped, at most ``size`` entries.
    """
    words = [" "]
    seen = {" "}
    for raw in instruction.split():
        word = raw.lstrip(_LEAD).rstrip(_TRAIL)
        stem = word.rsplit(".", 1)[0] if "." in word.strip(".") else ""
        for candidate in (word, stem):
            if candidate and candidate not in seen:
                seen.add(candidate)
                words.append(candidate)
        if len(words) >= size:
            break
    return words[:size]
