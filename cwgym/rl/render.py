"""``render()`` for people watching an env: an RGB frame or a text screen.

Both are drawn on the owner side from the session's typed scene, so they work whatever
the agent was granted (a terminal-only agent's screen is the desktop it never sees).

The ``ansi`` screen lists the open windows (front first, with the focused one marked),
the focused control with its value, the visible lines of each terminal or editor buffer,
the last ``terminal.v1`` result and the instruction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cwgym.render import Renderer, frame_array
from cwgym.rl.text import terminal_text

if TYPE_CHECKING:
    from cwgym.rl.episode import Episode

__all__ = ["ansi_screen", "rgb_frame"]

#: Lines of a buffer or of the terminal latch the text screen shows at most.
SHOWN_LINES = 20


def rgb_frame(episode: Episode, renderer: Renderer) -> np.ndarray:
    """The session's screen at the env's viewport as an ``(H, W, 3)`` ``uint8`` array."""
    c = episode.config
    scene = episode.world.scene(episode.actor.id, c.width, c.height)
    rgba = renderer.render(scene)
    return frame_array(rgba, c.width, c.height, 3).copy()


def ansi_screen(episode: Episode) -> str:
    """The session's screen as text (see the module docstring)."""
    c = episode.config
    scene = episode.world.scene(episode.actor.id, c.width, c.height)
    lines = [f"cwgym {c.procedure}  seed {episode.seed}  step {episode.steps}"]
    windows = sorted(scene.windows, key=lambda w: -w.z)
    if windows:
        lines.append("windows (front first):")
        for w in windows:
            flags = [f for f in ("focused", "minimized", "maximized") if getattr(w, f)]
            b = w.bounds
            lines.append(f"  [{w.id}] {w.app}: {w.title!r} at {b.x},{b.y} {b.width}x{b.height}" + (f" ({', '.join(flags)})" if flags else ""))
    else:
        lines.append("windows: none")
    focus = scene.focus
    if focus.interaction:
        value = f" = {focus.value!r}" if focus.value is not None else ""
        lines.append(f"focus: {focus.role} {focus.label!r}{value}  (keys go to {focus.keyboard.route})")
    for buffer in scene.buffers:
        first = buffer.first_visible
        shown = buffer.lines[first: first + min(buffer.visible or SHOWN_LINES, SHOWN_LINES)]
        lines.append(f"{buffer.kind} buffer {buffer.handle}:")
        lines.extend(f"  | {line}" for line in shown)
    latch = terminal_text(episode.terminal())
    if latch:
        lines.append("terminal.v1:")
        lines.extend(f"  | {line}" for line in latch.splitlines()[-SHOWN_LINES:])
    lines.append(f"instruction: {episode.instance.instruction}")
    return "\n".join(lines) + "\n"
