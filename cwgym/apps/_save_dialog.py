"""The Save As and unsaved-changes dialogs of the document applications (the text
editor, the document editor and the spreadsheet): one geometry and one way of painting
them, so the three ask the same things in the same places.

Targets (``window:<id>:content:<target>``): the Save As dialog's ``save-name`` and
``save-folder`` fields and its ``save-cancel`` and ``save-confirm`` buttons; the
unsaved-changes dialog's ``close-cancel``, ``close-discard`` and ``close-save``. The
application keeps the dialog's state (``{"kind": "save-as" | "close", "name", "folder",
"error"}``, the fields as :mod:`cwgym.apps._textpane` fields) and handles its targets.
"""

from __future__ import annotations

from dataclasses import dataclass

from cwgym.apps import _textpane as tp
from cwgym.apps._palette import ERROR
from cwgym.desktop.painter import Painter
from cwgym.scene import Box, Rect, RoundedBox, Semantic, UiText, UiTextBold
from cwgym.text import line_height, measure

__all__ = ["CLOSE_BUTTONS", "SAVE_BUTTONS", "DialogStyle", "button_row", "dialog_rects", "paint_dialog"]

SAVE_BUTTONS = (("save-cancel", "Cancel"), ("save-confirm", "Save"))
#: The unsaved-changes dialog's buttons, left to right, as GNOME's applications show them.
CLOSE_BUTTONS = (("close-cancel", "Cancel"), ("close-discard", "Discard"), ("close-save", "Save"))


@dataclass(frozen=True)
class DialogStyle:
    """What differs between the applications' dialogs: the width range, the
    unsaved-changes dialog's title and buttons (left to right), and the hint above the
    Save As name field (the formats the application writes)."""

    min_width: int
    max_width: int
    close_title: str
    name_hint: str = "Name"
    close_buttons: tuple[tuple[str, str], ...] = CLOSE_BUTTONS


def button_row(
    box: Rect, buttons: tuple[tuple[str, str], ...], *, padding: int = 32, height: int = 34, inset: int = 48
) -> dict[str, Rect]:
    """``buttons`` (target, label) right-aligned along the bottom of ``box``, in order:
    each as wide as its label plus ``padding``, ``height`` tall, its top ``inset`` above
    the box's bottom."""
    controls: dict[str, Rect] = {}
    x = box.right - 16
    for name, label in reversed(buttons):
        width = measure(label, "sans", 14) + padding
        x -= width
        controls[name] = Rect(x, box.bottom - inset, width, height)
        x -= 8
    return controls


def dialog_rects(width: int, height: int, kind: str, style: DialogStyle) -> tuple[Rect, dict[str, Rect]]:
    """The dialog of ``kind`` (``save-as`` or ``close``), centred in a ``width`` x
    ``height`` content area, and its controls by target."""
    w = max(style.min_width, min(style.max_width, width - 40))
    h = 236 if kind == "save-as" else 156
    box = Rect((width - w) // 2, max(0, (height - h) // 2), w, h)
    if kind == "save-as":
        controls = {
            "save-name": Rect(box.x + 16, box.y + 64, w - 32, 32),
            "save-folder": Rect(box.x + 16, box.y + 124, w - 32, 32),
        }
        controls.update(button_row(box, SAVE_BUTTONS))
        return box, controls
    return box, button_row(box, style.close_buttons)


def paint_dialog(p: Painter, dialog: dict, focus: str, style: DialogStyle, close_message: str) -> None:
    """Paint ``dialog`` over the content; ``focus`` is the application's focused field
    (``save-name`` or ``save-folder`` in the Save As dialog), ``close_message`` what the
    unsaved-changes dialog asks."""
    pal = p.palette
    kind = dialog["kind"]
    p.paint(Box((0, 0, 0, 70)), Rect(0, 0, p.width, p.height), key="scrim")
    box, controls = dialog_rects(p.width, p.height, kind, style)
    title = "Save As" if kind == "save-as" else style.close_title
    p.paint(RoundedBox(pal["window"], 12, pal["border"], 1), box, key="dialog", semantic=Semantic("dialog", title))
    p.paint(
        UiTextBold(title, 15, pal["text"]),
        Rect(box.x + 16, box.y + 14, measure(title, "sans-bold", 15), line_height("sans-bold", 15)),
        key="dialog-title",
    )
    if kind == "save-as":
        p.text(style.name_hint, box.x + 16, box.y + 44, size=13, color=pal["muted"], key="label-name")
        tp.paint_field(p, "save-name", dialog["name"], controls["save-name"], label="Name", focused=focus == "save-name")
        p.text("Folder", box.x + 16, box.y + 104, size=13, color=pal["muted"], key="label-folder")
        tp.paint_field(
            p, "save-folder", dialog["folder"], controls["save-folder"], label="Folder", focused=focus == "save-folder"
        )
        error = dialog["error"]
        if error:
            p.paint(
                UiText(error, 13, ERROR),
                Rect(box.x + 16, box.y + 164, min(box.width - 32, measure(error, "sans", 13)), line_height("sans", 13)),
                key="dialog-error",
                semantic=Semantic("alert", error),
                clip=Rect(box.x + 16, box.y + 160, box.width - 32, 24),
            )
        for name, label in SAVE_BUTTONS:
            p.button(name, label, controls[name], suggested=name == "save-confirm")
        return
    p.text(close_message, box.x + 16, box.y + 48, size=13, color=pal["text"], width=box.width - 32, key="dialog-text")
    for name, label in style.close_buttons:
        if name == "close-save":
            p.button(name, label, controls[name], suggested=True, focused=True)
        else:
            p.button(name, label, controls[name])
    p.focus("close-save", role="button", label="Save")
