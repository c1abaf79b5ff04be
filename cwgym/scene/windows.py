"""Windows as the compositor sees them, and which parts of each are visible."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from cwgym.scene.geometry import Rect, exposed

__all__ = ["SceneWindow", "compute_occlusion"]


class SceneWindow(msgspec.Struct):
    """One window the compositor knows about.

    Attributes:
        id: window id.
        title, app: title bar text and application kind.
        bounds: outer frame including decoration (screen space).
        content: client area, without decoration and browser chrome.
        z: stacking position, 0 is bottom-most.
        focused, minimized, maximized: window state.
        document: the path, URL or document the window presents ("" if none).
        tabs, active_tab: tab titles and the selected one.
        occluded_by: ids of higher windows covering part of ``bounds`` (bottom to top).
        exposed: largest uncovered on-screen part of ``bounds``; ``None`` when hidden.
    """

    id: int
    title: str
    app: str
    bounds: Rect
    content: Rect
    z: int = 0
    focused: bool = False
    minimized: bool = False
    maximized: bool = False
    document: str = ""
    tabs: list[str] = msgspec.field(default_factory=list)
    active_tab: int = 0
    occluded_by: list[int] = msgspec.field(default_factory=list)
    exposed: Rect | None = None


def compute_occlusion(
    windows: Sequence[SceneWindow], screen: Rect, covers: Iterable[Rect] = ()
) -> None:
    """Fill ``occluded_by`` and ``exposed`` of ``windows`` (given bottom to top), in place.

    A minimized window covers nothing and has no exposed part. Each other window is
    occluded by every higher, non-minimized window whose bounds overlap its own; its
    exposed part is the largest rectangle of its on-screen bounds not covered by those
    windows nor by ``covers`` (panels, docks: surfaces that are not windows).
    """
    extra = list(covers)
    for i, w in enumerate(windows):
        if w.minimized:
            w.occluded_by = []
            w.exposed = None
            continue
        above = [o for o in windows[i + 1 :] if not o.minimized and o.bounds.intersects(w.bounds)]
        w.occluded_by = [o.id for o in above]
        visible = w.bounds.intersect(screen)
        w.exposed = None if visible is None else exposed(visible, [o.bounds for o in above] + extra)
