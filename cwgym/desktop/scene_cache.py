"""The repaint cache: painted chunks and composed scenes, kept by content.

:class:`SceneCache` lives outside the world state and never changes a result (see
:mod:`cwgym.desktop.compositor`, which fills it). Its keys are content — digests and
values, never an object's identity — so one cache serves every seat of a theme and grant
in a world and all its forks. Every table is bounded, least recently used entries first
out.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from cwgym.desktop.semantic import Template, semantic_view
from cwgym.scene import Node, Scene, ScrollArea, TextBuffer
from cwgym.scene.hit import HitPart

__all__ = ["CHUNKS_KEPT", "SCENES_KEPT", "Chunk", "SceneCache", "recall", "remember"]

#: Painted chunks kept.
CHUNKS_KEPT = 512
#: Scenes (and each of the other per-scene tables) kept.
SCENES_KEPT = 32


class Chunk:
    """Painted nodes (stamped, in painter order) and what the painting published.

    ``focused`` is the interaction that has the keyboard in this chunk, if any;
    ``semantic`` caches the chunk's part of the ``semantic.v1`` projection (its elements
    and text, copied whenever handed out) and ``hits`` its hit records (see
    :meth:`~cwgym.scene.Scene.composed_of`).
    """

    __slots__ = ("buffers", "focus", "focused", "hits", "nodes", "scrolls", "semantic")

    def __init__(
        self, nodes: list[Node], buffers: list[TextBuffer], scrolls: list[ScrollArea], focus: Any, focused: str | None = None
    ) -> None:
        self.nodes = nodes
        self.buffers = buffers
        self.scrolls = scrolls
        self.focus = focus
        self.focused = focused
        self.semantic: tuple[list, list] | None = None
        self.hits: HitPart | None = None


class SceneCache:
    """Repaint cache shared by the seats of one theme and grant (see the module docstring).

    Least recently used entries go first: chunks by key, scenes by state and by scene
    key, the layout a state's scenes are keyed by at every viewport and the shell's view
    in it (by the state without the windows' contents), each scene's chunks and
    ``semantic.v1`` projection by scene digest, and the pieces of window content
    applications reuse (:meth:`~cwgym.desktop.painter.Painter.reuse`).
    ``semantic`` is the slot :func:`~cwgym.desktop.semantic.semantic_view` reads and
    fills (one projection); :meth:`projection` keeps many.
    """

    __slots__ = ("chunks", "layouts", "parts", "pieces", "scaled", "scenes", "semantic", "shells", "states", "views")

    def __init__(self) -> None:
        self.chunks: OrderedDict[Any, Chunk] = OrderedDict()
        self.pieces: OrderedDict[Any, tuple] = OrderedDict()  # Painter.reuse's
        self.scaled: dict[tuple, Node] = {}  # native nodes at a viewport, by id, revision and transform
        self.states: OrderedDict[Any, Scene] = OrderedDict()
        self.layouts: OrderedDict[Any, tuple] = OrderedDict()  # compositor._layout's, by viewport-free state
        self.shells: OrderedDict[Any, Any] = OrderedDict()  # shell views, by that state without window contents
        self.scenes: OrderedDict[Any, Scene] = OrderedDict()
        self.parts: OrderedDict[int, list[Chunk]] = OrderedDict()
        self.views: OrderedDict[int, Template] = OrderedDict()
        self.semantic: tuple[int, Template] | None = None

    def chunk(self, key: Any) -> Chunk | None:
        return recall(self.chunks, key)

    def keep(self, key: Any, chunk: Chunk) -> Chunk:
        return remember(self.chunks, key, chunk, CHUNKS_KEPT)

    def projection(self, scene: Scene, *, shared: bool = False) -> dict[str, Any]:
        """The ``semantic.v1`` projection of a scene this cache composed (a fresh dict; with
        ``shared``, the cache's own, which the caller only reads)."""
        if self.semantic is not None and self.semantic[0] == scene.digest:
            return semantic_view(scene, self, shared=shared)  # the screen of the last look, as most steps see
        kept = recall(self.views, scene.digest)
        self.semantic = (scene.digest, kept) if kept is not None else None
        view = semantic_view(scene, self, shared=shared)
        remember(self.views, *self.semantic)
        return view


def recall(entries: OrderedDict, key: Any) -> Any:
    """The entry under ``key`` (now the most recently used), or ``None``."""
    hit = entries.get(key)
    if hit is not None:
        entries.move_to_end(key)
    return hit


def remember(entries: OrderedDict, key: Any, value: Any, bound: int = SCENES_KEPT) -> Any:
    """Keep ``value`` under ``key``, dropping the least recently used past ``bound``."""
    entries[key] = value
    entries.move_to_end(key)
    if len(entries) > bound:
        entries.popitem(last=False)
    return value
