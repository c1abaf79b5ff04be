"""A convenience for painters: groups with inherited window/transform/clip/z, and ids.

::

    b = SceneBuilder(1280, 800, background=(30, 30, 30, 255))
    b.paint(AssetImage("wallpaper"), Rect(0, 0, 1280, 800), key="wallpaper")
    with b.group(window=3, transform=Transform.translate(200, 120), clip=Rect(200, 120, 640, 480), z=10):
        b.paint(Box((255, 255, 255, 255)), Rect(0, 0, 640, 480), key="bg")
        b.paint(UiText("Save", 14, (0, 0, 0, 255)), Rect(8, 8, 60, 20), key="save",
                semantic=Semantic("button", "Save"), interaction="window:3:content:save")
    scene = b.finish()

Node ids come from :func:`cwgym.scene.node.node_id` of ``(window, key)``, so a control
keeps its id from frame to frame as long as its painter keeps its key. Without a key a
node gets the next automatic key of its window (``("#", n)``), which shifts when earlier
unkeyed nodes come and go: give keys to anything a delta should follow.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from cwgym.scene.focus import Focus
from cwgym.scene.geometry import IDENTITY, Rect, RoundedClip, Transform
from cwgym.scene.node import OPAQUE, Node, NodeState, Semantic, node_id
from cwgym.scene.panes import ScrollArea, TextBuffer
from cwgym.scene.primitives import Color, Primitive
from cwgym.scene.scene import Scene
from cwgym.scene.text_lines import TextLine
from cwgym.scene.windows import SceneWindow

__all__ = ["SceneBuilder"]

_INHERIT: Any = object()


class _Layer:
    __slots__ = ("clip", "opacity", "rounded_clip", "transform", "window", "z")

    def __init__(self, window, transform, clip, rounded_clip, z, opacity) -> None:
        self.window = window
        self.transform = transform
        self.clip = clip
        self.rounded_clip = rounded_clip
        self.z = z
        self.opacity = opacity


def _meet(a: Rect | None, b: Rect | None) -> Rect | None:
    if a is None:
        return b
    if b is None:
        return a
    r = a.intersect(b)
    return r if r is not None else Rect(b.x, b.y, 0, 0)


class SceneBuilder:
    """Builds a :class:`Scene` with nested groups.

    A group sets, for everything painted inside it: the owning ``window``; a
    ``transform`` applied inside the enclosing group's transform; a world-space ``clip``
    intersected with the enclosing clip; a ``rounded_clip`` (the innermost wins); a ``z``
    added to the enclosing ``z``; and an ``opacity`` (0..255) multiplied into the
    enclosing one.
    """

    def __init__(
        self,
        width: int,
        height: int,
        background: Color = (0, 0, 0, 255),
        *,
        typeface: str | None = None,
        revision: int = 0,
    ) -> None:
        self.scene = Scene(width, height, background, typeface=typeface, revision=revision)
        self._stack = [_Layer(None, IDENTITY, None, None, 0, OPAQUE)]
        self._auto: dict[int | None, int] = {}

    @property
    def window_id(self) -> int | None:
        """The window of the current group."""
        return self._stack[-1].window

    @contextmanager
    def group(
        self,
        *,
        window: int | None = _INHERIT,
        transform: Transform | None = None,
        clip: Rect | None = None,
        rounded_clip: RoundedClip | None = None,
        z: int = 0,
        opacity: int = OPAQUE,
    ) -> Iterator[None]:
        """Paint the body with these settings layered onto the enclosing group's."""
        top = self._stack[-1]
        layer = _Layer(
            top.window if window is _INHERIT else window,
            top.transform if transform is None else transform.then(top.transform),
            _meet(top.clip, clip),
            rounded_clip if rounded_clip is not None else top.rounded_clip,
            top.z + z,
            (top.opacity * opacity + 127) // 255,
        )
        self._stack.append(layer)
        try:
            yield
        finally:
            self._stack.pop()

    def context(self) -> tuple:
        """What the current group gives every node painted in it (window, transform, clip,
        rounded clip, z, opacity): equal contexts paint equal nodes from equal calls."""
        top = self._stack[-1]
        return (top.window, top.transform, top.clip, top.rounded_clip, top.z, top.opacity)

    def extend(self, nodes: list[Node]) -> None:
        """Add nodes painted before (by an equal call in an equal context) as they are."""
        self.scene.extend(nodes)

    def id_for(self, key: Any, window: int | None = _INHERIT) -> int:
        """The id :meth:`paint` gives a node with this key (in the current window by default)."""
        return node_id(self._stack[-1].window if window is _INHERIT else window, key)

    def paint(
        self,
        primitive: Primitive,
        bounds: Rect,
        *,
        key: Any = None,
        id: int | None = None,
        semantic: Semantic | None = None,
        interaction: str | None = None,
        state: NodeState | None = None,
        line: TextLine | None = None,
        z: int = 0,
        clip: Rect | None = None,
        transform: Transform | None = None,
        opacity: int = OPAQUE,
        window: int | None = _INHERIT,
    ) -> Node:
        """Add one node in the current group and return it.

        ``bounds`` are local to the group's transform (or to ``transform`` applied inside
        it); ``clip`` is world space and narrows the group's clip; ``z`` is relative to the
        group's. The id is ``id`` if given, else derived from ``(window, key)``.
        """
        top = self._stack[-1]
        win = top.window if window is _INHERIT else window
        if id is None:
            if key is None:
                n = self._auto.get(win, 0)
                self._auto[win] = n + 1
                key = ("#", n)
            id = node_id(win, key)
        node = Node(
            id=id,
            bounds=bounds,
            primitive=primitive,
            semantic=semantic,
            interaction=interaction,
            clip=_meet(top.clip, clip),
            rounded_clip=top.rounded_clip,
            transform=top.transform if transform is None else transform.then(top.transform),
            z=top.z + z,
            opacity=(top.opacity * opacity + 127) // 255,
            window=win,
            state=state,
            line=line,
        )
        return self.scene.add(node)

    def window(self, window: SceneWindow) -> SceneWindow:
        """Publish a compositor window."""
        return self.scene.add_window(window)

    def buffer(self, buffer: TextBuffer) -> TextBuffer:
        """Publish a text pane's buffer."""
        self.scene.buffers.append(buffer)
        return buffer

    def scroll(self, area: ScrollArea) -> ScrollArea:
        """Publish a scrollable area."""
        self.scene.scrolls.append(area)
        return area

    def cover(self, rect: Rect) -> None:
        """Declare a non-window surface (panel, dock) that hides windows beneath it."""
        self.scene.covers.append(rect)

    def set_focus(self, focus: Focus) -> None:
        """Set the scene's focus record."""
        self.scene.focus = focus

    def finish(self) -> Scene:
        """Stamp and return the scene."""
        self.scene.stamp()
        return self.scene
