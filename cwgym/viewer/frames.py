"""Frames of a replayed episode, re-rendered from the scene (never stored video).

A :class:`FrameWriter` is handed each position's scene as the replay reaches it and
decides, by its mode, whether to draw it: ``every`` writes one PNG per position,
``changed`` only where the scene digest differs from the last frame written (a position
whose screen did not change shows the previous file), ``none`` writes nothing. The PNG is
:func:`cwgym.render.to_png` of :class:`cwgym.render.Renderer`'s pixels: byte for byte
what the renderer gives for that screen.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cwgym.render import Renderer, to_png

if TYPE_CHECKING:
    from cwgym.scene import Scene

__all__ = ["FRAME_MODES", "FrameWriter"]

FRAME_MODES = ("every", "changed", "none")


class FrameWriter:
    """Writes one episode's frames under ``site/frames/<slug>/`` (paths are site-relative)."""

    def __init__(self, site: Path, slug: str, mode: str = "changed") -> None:
        if mode not in FRAME_MODES:
            raise ValueError(f"frames mode is one of {', '.join(FRAME_MODES)}, got {mode!r}")
        self.site = site
        self.folder = f"frames/{slug}"
        self.mode = mode
        self.renderer = Renderer()
        self.written = 0
        self._last: tuple[str, str] | None = None  # (scene digest, path)

    def frame(self, position: int, scene: Scene, width: int, height: int) -> str | None:
        """The site-relative PNG path showing ``scene`` at ``position`` (``None`` in mode ``none``)."""
        if self.mode == "none":
            return None
        digest = f"{width}x{height}:{scene.digest}"
        if self.mode == "changed" and self._last is not None and self._last[0] == digest:
            return self._last[1]
        path = f"{self.folder}/{position:04d}.png"
        target = self.site / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(to_png(self.renderer.render(scene), width, height))
        self.written += 1
        self._last = (digest, path)
        return path
