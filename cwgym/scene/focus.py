"""Keyboard focus and the text caret."""

from __future__ import annotations

import msgspec

from cwgym.scene.geometry import Rect

__all__ = ["ROUTES", "Caret", "Focus", "Keyboard"]

#: Where a keystroke goes, in the keyboard.v1 dispatch order's vocabulary.
ROUTES = ("none", "panel", "application", "address", "page", "terminal", "editor", "window")


class Caret(msgspec.Struct, frozen=True):
    """The insertion point: the character cell it occupies and its model position."""

    bounds: Rect
    line: int
    column: int
    offset: int


class Keyboard(msgspec.Struct, frozen=True):
    """Where the next keystroke would go (``route`` is one of :data:`ROUTES`)."""

    route: str = "none"
    window: int | None = None
    target: str | None = None
    text_entry: bool = False


class Focus(msgspec.Struct, frozen=True):
    """The focused window and control, the caret, and the keyboard route."""

    window: int | None = None
    node: int | None = None
    interaction: str | None = None
    role: str = ""
    label: str = ""
    value: str | None = None
    caret: Caret | None = None
    keyboard: Keyboard = Keyboard()
