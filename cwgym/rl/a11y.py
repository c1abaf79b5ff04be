"""The accessibility tree as indented text, and the screen with element ids drawn on it.

Both number the controls as the element table does (:mod:`cwgym.rl.elements`): ``[k]`` is
row ``k``, so an agent that reads ``[3] button "New Folder"`` sends ``{"click": 3}`` (or
``click-element`` 3). :func:`a11y_text` groups the rows under what holds them — the
desktop shell, each window by its title, front first, then the desktop — one control a
line, with its role, label, value and state, and ends with the screen's other painted
text. :func:`draw_marks` outlines every row's bounds on a frame and writes its id in a
tag at the top-left corner: a set-of-marks screenshot.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

__all__ = ["a11y_text", "draw_marks"]

#: Outline and tag colours of :func:`draw_marks` (RGB), cycled by row so neighbours differ.
MARK_COLOURS = ((230, 25, 75), (0, 130, 200), (60, 180, 75), (245, 130, 48), (145, 30, 180), (0, 128, 128))


def _quote(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return '"' + (text if len(text) <= limit else text[: limit - 1] + "…").replace('"', "'") + '"'


def _line(index: int, row: dict[str, Any]) -> str:
    parts = [f"[{index}]", row.get("role") or "control"]
    if row.get("label"):
        parts.append(_quote(row["label"]))
    if row.get("value"):
        parts.append(f"value={_quote(row['value'])}")
    states = [name for name in ("focused", "checked", "selected") if row.get(name)]
    if row.get("enabled") is False:
        states.append("disabled")
    parts += states
    return " ".join(parts)


def a11y_text(view: dict[str, Any] | None, rows: list[dict[str, Any]]) -> str:
    """The tree of ``view`` (a ``semantic.v1`` view) over the element table's ``rows``."""
    if not view:
        return "(no screen)"
    screen = view.get("screen") or {}
    focus = view.get("focus") or {}
    lines = [f"Screen {_quote(view.get('title') or '')} {screen.get('width', 0)}x{screen.get('height', 0)}"
             + (", typing goes to a text field" if focus.get("text_entry") else "")]
    windows = {w["id"]: w for w in view.get("windows") or ()}
    groups: dict[Any, list[str]] = {}
    for index, row in enumerate(rows):
        groups.setdefault(row.get("window", "shell" if str(row.get("id", "")).startswith("shell:") else "desktop"), []).append(
            _line(index, row))
    order = ["shell", *[w for w in windows if w in groups], "desktop"]
    for key in order:
        if key not in groups:
            continue
        if key == "shell":
            lines.append("Shell (top bar, dock, panels)")
        elif key == "desktop":
            lines.append("Desktop")
        else:
            w = windows[key]
            state = [s for s in ("focused", "maximized", "minimized") if w.get(s)]
            lines.append(f"Window {_quote(w.get('title') or '')} ({w.get('app', 'app')}{', ' + ', '.join(state) if state else ''})")
        lines += [f"  {line}" for line in groups[key]]
    texts = [t["text"] for t in view.get("text") or () if t.get("text", "").strip()]
    if texts:
        lines.append("Text on screen: " + ", ".join(_quote(t, 40) for t in texts[:40]))
    return "\n".join(lines)


@functools.cache
def _font(size: int) -> Any:
    from PIL import ImageFont

    from cwgym.text.fonts import FONT_DIR

    return ImageFont.truetype(str(FONT_DIR / "DejaVuSans.ttf"), size)


def draw_marks(frame: np.ndarray, rows: list[dict[str, Any]], screen: tuple[int, int]) -> np.ndarray:
    """``frame`` (``(H, W, 3)`` uint8) with each row's bounds outlined and its id tagged.

    Bounds are in screen pixels (``screen`` is their ``(width, height)``) and scaled to the
    frame's size. Returns a new array; ``frame`` is not changed.
    """
    from PIL import Image, ImageDraw

    height, width = frame.shape[:2]
    sx, sy = width / max(1, screen[0]), height / max(1, screen[1])
    image = Image.fromarray(np.ascontiguousarray(frame[..., :3]))
    draw = ImageDraw.Draw(image)
    font = _font(max(8, min(14, round(12 * min(sx, sy) + 2))))
    for index, row in enumerate(rows):
        b = row["bounds"]
        x0, y0 = round(b["x"] * sx), round(b["y"] * sy)
        x1, y1 = round((b["x"] + b["width"]) * sx) - 1, round((b["y"] + b["height"]) * sy) - 1
        colour = MARK_COLOURS[index % len(MARK_COLOURS)]
        draw.rectangle((x0, y0, max(x0, x1), max(y0, y1)), outline=colour)
        tag = str(index)
        left, top, right, bottom = draw.textbbox((0, 0), tag, font=font)
        draw.rectangle((x0, y0, x0 + right - left + 3, y0 + bottom - top + 3), fill=colour)
        draw.text((x0 + 2 - left, y0 + 1 - top), tag, fill=(255, 255, 255), font=font)
    return np.asarray(image, dtype=np.uint8)
