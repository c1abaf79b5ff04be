"""The key-name grammar of ``keyboard.v1 key``: chords such as ``Ctrl+S`` or ``Shift+Tab``.

A key name is zero or more modifiers and one key, joined with ``+``, matched without regard
to case (``Ctrl+S`` and ``ctrl+s`` are the same chord):

* modifiers: ``Ctrl`` (``Control``), ``Alt`` (``Option``), ``Shift``, ``Meta`` (``Super``,
  ``Cmd``, ``Command``, ``Win``);
* named keys: ``Enter`` (``Return``), ``Tab``, ``Escape`` (``Esc``), ``Backspace``,
  ``Delete`` (``Del``), ``Insert``, ``Home``, ``End``, ``PageUp`` (``PgUp``), ``PageDown``
  (``PgDn``), ``ArrowUp`` ``ArrowDown`` ``ArrowLeft`` ``ArrowRight`` (``Up`` ``Down``
  ``Left`` ``Right``), ``Space``, ``F1`` … ``F12``, ``ContextMenu``, ``MediaPlayPause``,
  ``MediaTrackNext``, ``MediaTrackPrevious``;
* a modifier on its own (``Meta``, ``Alt``, ...) is a key too: pressing and releasing it;
* any single printable character (``a``, ``/``, `````, ``+``). Letters are case-folded; an
  upper-case letter with no modifier means Shift and that letter (``A`` is ``Shift+a``).

Anything else is not a key: :func:`parse_key` raises :class:`KeyError`, which
``keyboard.v1`` reports as ``invalid``.

Applications write their command shortcuts with the placeholder modifier ``Primary``
(``Primary+s``, ``Primary+Shift+z``): :func:`shortcut` spells one out with the primary
modifier of the desktop's theme — ``Ctrl`` on Ubuntu, ``Meta`` (Cmd) where a theme says
so. An actor never types ``Primary``; it names the real keys.
"""

from __future__ import annotations

import functools

__all__ = ["MODIFIERS", "NAMED_KEYS", "PRIMARY", "PRIMARY_MODIFIERS", "Chord", "parse_key", "shortcut"]

#: Modifier spellings -> canonical modifier.
MODIFIERS: dict[str, str] = {
    "ctrl": "Ctrl",
    "control": "Ctrl",
    "alt": "Alt",
    "option": "Alt",
    "shift": "Shift",
    "meta": "Meta",
    "super": "Meta",
    "cmd": "Meta",
    "command": "Meta",
    "win": "Meta",
}

#: Canonical named keys (spelled as :attr:`Chord.key` carries them).
NAMED_KEYS = (
    "Enter",
    "Tab",
    "Escape",
    "Backspace",
    "Delete",
    "Insert",
    "Home",
    "End",
    "PageUp",
    "PageDown",
    "ArrowUp",
    "ArrowDown",
    "ArrowLeft",
    "ArrowRight",
    "Space",
    "ContextMenu",
    "MediaPlayPause",
    "MediaTrackNext",
    "MediaTrackPrevious",
    *(f"F{i}" for i in range(1, 13)),
)

_ALIASES = {
    "return": "Enter",
    "esc": "Escape",
    "del": "Delete",
    "pgup": "PageUp",
    "pgdn": "PageDown",
    "up": "ArrowUp",
    "down": "ArrowDown",
    "left": "ArrowLeft",
    "right": "ArrowRight",
    " ": "Space",
    "spacebar": "Space",
    "menu": "ContextMenu",
}
_NAMED = {name.lower(): name for name in NAMED_KEYS} | _ALIASES

#: The placeholder modifier of a shortcut spec (see :func:`shortcut`).
PRIMARY = "Primary"
#: The modifiers a theme may make primary.
PRIMARY_MODIFIERS = ("Ctrl", "Meta")
_MOD_ORDER = ("Ctrl", "Alt", "Shift", "Meta")


class Chord:
    """A parsed key: modifier flags and the key itself.

    Attributes:
        ctrl, alt, shift, meta: modifiers held.
        key: a named key from :data:`NAMED_KEYS`, a modifier name pressed alone
            (``"Meta"``), or one character (letters lower-case).
        name: the canonical spelling, modifiers in the order Ctrl, Alt, Shift, Meta
            (``"Ctrl+Shift+k"``, ``"Alt+Tab"``, ``"Meta"``).
    """

    __slots__ = ("alt", "ctrl", "key", "meta", "name", "shift")

    def __init__(self, key: str, ctrl=False, alt=False, shift=False, meta=False) -> None:
        self.key = key
        self.ctrl, self.alt, self.shift, self.meta = bool(ctrl), bool(alt), bool(shift), bool(meta)
        mods = [m for m, on in zip(_MOD_ORDER, (self.ctrl, self.alt, self.shift, self.meta)) if on]
        self.name = "+".join([*mods, key])

    @property
    def modifiers(self) -> tuple[str, ...]:
        """The held modifiers, canonical order."""
        flags = (self.ctrl, self.alt, self.shift, self.meta)
        return tuple(m for m, on in zip(_MOD_ORDER, flags) if on)

    @property
    def char(self) -> str | None:
        """The character this chord types into a text field, or ``None``.

        A printable character (Shift upper-cases a letter) or ``Space``, with no Ctrl,
        Alt or Meta held.
        """
        if self.ctrl or self.alt or self.meta:
            return None
        if self.key == "Space":
            return " "
        if len(self.key) != 1:
            return None
        return self.key.upper() if self.shift and self.key.isalpha() else self.key

    def is_(self, *names: str) -> bool:
        """True when this chord is any of ``names`` (parsed with the same grammar)."""
        for name in names:
            try:
                if parse_key(name) == self:
                    return True
            except KeyError:
                continue
        return False

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Chord) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"Chord({self.name!r})"


def _key_part(part: str) -> tuple[str, bool]:
    """The canonical key of one part and whether it implies Shift."""
    if len(part) == 1:
        if not part.isprintable():
            raise KeyError(part)
        if part == " ":
            return "Space", False
        if part.isalpha() and part != part.lower():
            return part.lower(), True
        return part.lower() if part.isalpha() else part, False
    low = part.lower()
    if low in _NAMED:
        return _NAMED[low], False
    if low in MODIFIERS:
        return MODIFIERS[low], False
    raise KeyError(part)


@functools.lru_cache(maxsize=1024)
def parse_key(text: str) -> Chord:
    """Parse a key name (see the module docstring); raises ``KeyError`` when it is none."""
    if not isinstance(text, str) or not text or len(text) > 64:
        raise KeyError(text)
    if text in ("+", " "):
        return Chord("+" if text == "+" else "Space")
    if text.endswith("++"):
        head, key_part = text[:-2], "+"
        parts = head.split("+") if head else []
    else:
        parts = text.split("+")
        key_part = parts.pop()
    if not key_part:
        raise KeyError(text)
    mods = set()
    for part in parts:
        mod = MODIFIERS.get(part.strip().lower())
        if mod is None or mod in mods:
            raise KeyError(text)
        mods.add(mod)
    key, implied_shift = _key_part(key_part if len(key_part) == 1 else key_part.strip())
    if implied_shift and not mods:
        mods.add("Shift")
    if key in mods:  # "Ctrl+Ctrl"
        raise KeyError(text)
    return Chord(key, "Ctrl" in mods, "Alt" in mods, "Shift" in mods, "Meta" in mods)


@functools.lru_cache(maxsize=1024)
def shortcut(spec: str, primary: str) -> str:
    """The canonical chord name of ``spec``, with ``Primary`` spelled as ``primary``.

    ``shortcut("Primary+Shift+s", "Ctrl") == "Ctrl+Shift+s"`` and
    ``shortcut("Primary+Shift+s", "Meta") == "Shift+Meta+s"``; a spec without ``Primary``
    is only made canonical. Raises ``KeyError`` for a spec that is no key and
    ``ValueError`` for a primary that is not one of :data:`PRIMARY_MODIFIERS`.
    """
    if primary not in PRIMARY_MODIFIERS:
        raise ValueError(f"the primary modifier is one of {', '.join(PRIMARY_MODIFIERS)}, got {primary!r}")
    parts = spec.split("+")
    named = [primary if part.strip().lower() == "primary" else part for part in parts[:-1]]
    return parse_key("+".join([*named, parts[-1]])).name
