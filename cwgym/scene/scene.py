"""The retained scene: nodes, windows, focus, pane buffers and scrollers of one screen."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter

from cwgym.scene.accessibility import AxNode, build_accessibility
from cwgym.scene.delta import SceneDelta, diff_scenes
from cwgym.scene.digest import node_revision, scene_digest
from cwgym.scene.focus import Focus
from cwgym.scene.geometry import Rect
from cwgym.scene.hit import Hit, HitIndex, HitPart
from cwgym.scene.node import Node
from cwgym.scene.panes import ScrollArea, TextBuffer
from cwgym.scene.plain import scene_fields_from_plain, scene_plain
from cwgym.scene.primitives import Color
from cwgym.scene.windows import SceneWindow, compute_occlusion

__all__ = ["Scene"]

_by_z = attrgetter("z")
_node_id = attrgetter("id")


class Scene:
    """One composed screen.

    Nodes are kept in insertion order; they paint in *painter order*: by ``z``, then by
    insertion (see :meth:`painted`). Node ids must be unique.

    Queries (hit testing, accessibility) use indexes built on first use. They are
    dropped by :meth:`add`, :meth:`add_window` and :meth:`stamp`; code that mutates a
    node or a list in place must call :meth:`invalidate` (or :meth:`stamp`) afterwards.

    Attributes:
        width, height: the viewport in pixels.
        background: RGBA colour behind everything.
        revision: a scene-level revision number carried through to the plain form.
        typeface: the shell's typeface name (``"ubuntu"``) or ``None``.
        nodes: the nodes, insertion order.
        windows: compositor windows, bottom to top after :meth:`stamp`.
        covers: screen areas that are not windows but hide them (panels, docks); used
            only to compute each window's ``exposed`` part.
        focus: keyboard focus, caret and route.
        buffers: text pane buffers (sorted by handle on :meth:`stamp`).
        scrolls: scrollable areas (sorted by target on :meth:`stamp`).
        digest: scene digest; 0 until :meth:`stamp`.
    """

    __slots__ = (
        "_by_id",
        "_hits",
        "_painted",
        "_pieces",
        "background",
        "buffers",
        "covers",
        "digest",
        "focus",
        "height",
        "nodes",
        "revision",
        "scrolls",
        "typeface",
        "width",
        "windows",
    )

    def __init__(
        self,
        width: int,
        height: int,
        background: Color = (0, 0, 0, 255),
        *,
        nodes: Iterable[Node] = (),
        windows: Iterable[SceneWindow] = (),
        focus: Focus | None = None,
        buffers: Iterable[TextBuffer] = (),
        scrolls: Iterable[ScrollArea] = (),
        typeface: str | None = None,
        revision: int = 0,
        covers: Iterable[Rect] = (),
    ) -> None:
        if type(width) is not int or type(height) is not int or width < 1 or height < 1:
            raise ValueError(f"scene viewport must be positive ints, got {width!r}x{height!r}")
        self.width = width
        self.height = height
        self.background = tuple(background)
        self.revision = revision
        self.typeface = typeface
        self.nodes: list[Node] = []
        self._by_id: dict[int, Node] = {}
        self.windows: list[SceneWindow] = list(windows)
        self.covers: list[Rect] = list(covers)
        self.focus = focus if focus is not None else Focus()
        self.buffers: list[TextBuffer] = list(buffers)
        self.scrolls: list[ScrollArea] = list(scrolls)
        self.digest = 0
        self._painted: list[Node] | None = None
        self._hits: HitIndex | None = None
        self._pieces: list | None = None
        for n in nodes:
            self.add(n)

    # ------------------------------------------------------------------ building

    @property
    def viewport(self) -> Rect:
        """``Rect(0, 0, width, height)``."""
        return Rect(0, 0, self.width, self.height)

    def add(self, node: Node) -> Node:
        """Append a node; raises ``ValueError`` on a duplicate id."""
        if node.id in self._by_id:
            raise ValueError(
                f"duplicate scene node id {node.id} (interaction {node.interaction!r})"
            )
        self._by_id[node.id] = node
        self.nodes.append(node)
        self._painted = None
        self._hits = None
        self._pieces = None
        return node

    def extend(self, nodes: Sequence[Node]) -> None:
        """Append many nodes at once; raises ``ValueError`` (adding none) on a duplicate id."""
        by_id = self._by_id
        before = len(by_id)
        by_id.update(zip(map(_node_id, nodes), nodes))
        if len(by_id) != before + len(nodes):
            self._by_id = {n.id: n for n in self.nodes}
            seen: set[int] = set(self._by_id)
            for n in nodes:
                if n.id in seen:
                    raise ValueError(f"duplicate scene node id {n.id} (interaction {n.interaction!r})")
                seen.add(n.id)
        self.nodes.extend(nodes)
        self._painted = None
        self._hits = None
        self._pieces = None

    def add_window(self, window: SceneWindow) -> SceneWindow:
        """Add a compositor window (any order; :meth:`stamp` sorts them by ``z``)."""
        self.windows.append(window)
        self.invalidate()
        return window

    def invalidate(self) -> None:
        """Drop the painter-order and hit indexes after in-place changes."""
        self._painted = None
        self._hits = None
        self._pieces = None
        self._by_id = {n.id: n for n in self.nodes}

    def update_occlusion(self) -> None:
        """Sort windows bottom to top and recompute their ``occluded_by`` and ``exposed``."""
        self.windows.sort(key=_by_z)
        compute_occlusion(self.windows, self.viewport, self.covers)

    def stamp(self) -> int:
        """Fill every node's revision and the scene digest; returns the digest.

        Also puts windows bottom to top with fresh occlusion, and sorts buffers and
        scrolls, so the digest does not depend on the order they were added in.
        """
        self._by_id = {n.id: n for n in self.nodes}
        if len(self._by_id) != len(self.nodes):
            raise ValueError("duplicate scene node ids")
        self._painted = None
        self._hits = None
        self.update_occlusion()
        self.buffers.sort(key=attrgetter("handle"))
        self.scrolls.sort(key=attrgetter("target"))
        painted = self.painted()
        for n in painted:
            n.revision = node_revision(n)
        self.digest = scene_digest(
            self.width,
            self.height,
            self.revision,
            self.background,
            self.typeface,
            painted,
            self.windows,
            self.focus,
            self.buffers,
            self.scrolls,
        )
        return self.digest

    # ------------------------------------------------------------------ looking up

    def painted(self) -> list[Node]:
        """Nodes in painter order: ascending ``z``, insertion order within one ``z``."""
        p = self._painted
        if p is None:
            p = self._painted = sorted(self.nodes, key=_by_z)
        return p

    def node(self, node_id: int) -> Node | None:
        """The node with this id, or ``None``."""
        return self._by_id.get(node_id)

    def window(self, window_id: int) -> SceneWindow | None:
        """The window with this id, or ``None``."""
        for w in self.windows:
            if w.id == window_id:
                return w
        return None

    def find(self, interaction: str) -> list[Node]:
        """Nodes with exactly this interaction string, painter order."""
        return [n for n in self.painted() if n.interaction == interaction]

    # ------------------------------------------------------------------ pointer

    def composed_of(self, pieces: list) -> bool:
        """Declare that the scene's nodes are ``pieces``' nodes, one piece after another.

        A piece has ``nodes`` (painter order) and a ``hits`` slot where its
        :class:`~cwgym.scene.hit.HitPart` is kept once measured, so pieces shared by many
        scenes (a compositor's cached chunks) are measured once and the scene's hit index
        only stacks their buckets. Ignored (returns False) unless every node of the scene
        is in exactly one piece and each piece paints wholly below the next.
        """
        self._pieces = None
        count, top = 0, None
        for piece in pieces:
            nodes = piece.nodes
            if not nodes:
                continue
            if top is not None and nodes[0].z < top:
                return False
            top = nodes[-1].z
            count += len(nodes)
        if count != len(self.nodes):
            return False
        self._pieces = pieces
        self._hits = None
        return True

    def _index(self) -> HitIndex:
        h = self._hits
        if h is None:
            pieces = self._pieces
            if pieces is None:
                h = HitIndex(self.painted(), self.width, self.height)
            else:
                parts = []
                for piece in pieces:
                    part = piece.hits
                    if part is None:
                        part = piece.hits = HitPart(piece.nodes, self.width, self.height)
                    parts.append(part)
                h = HitIndex.from_parts(parts, self.width, self.height)
            self._hits = h
        return h

    def hit_test(self, x: int, y: int) -> Node | None:
        """The node a click at ``(x, y)`` reaches (see :mod:`cwgym.scene.hit`), or ``None``."""
        return self._index().hit_test(x, y)

    def hit_stack(self, x: int, y: int) -> list[Hit]:
        """Every node covering ``(x, y)``, topmost first, with interactive/opaque flags."""
        return self._index().hit_stack(x, y)

    def hit_reaches(self, node_id: int, x: int, y: int) -> bool:
        """True when ``(x, y)`` is on the node and a click there reaches its control."""
        return self._index().hit_reaches(node_id, x, y)

    def reachable_point(self, node_id: int) -> tuple[int, int] | None:
        """A point where a click reaches the node; ``None`` when covered, disabled or inert."""
        return self._index().reachable_point(node_id)

    def reaching(self, interactions: set[str]) -> dict[str, bool]:
        """For each of ``interactions`` with a node on screen, whether a click reaches one
        of its nodes (absent: none on screen); the action mask's question, asked of all at once."""
        return self._index().reaching(interactions)

    def reaches(self, node_id: int) -> bool:
        """Whether :meth:`reachable_point` finds a point, found with fewer hit tests."""
        return self._index().reaches(node_id)

    def visible_bounds(self, node_id: int) -> Rect | None:
        """The node's on-screen bounds after transform, clips and viewport."""
        n = self._by_id.get(node_id)
        return None if n is None else n.visible_bounds(self.viewport)

    # ------------------------------------------------------------------ semantics

    def accessibility(self) -> list[AxNode]:
        """One :class:`AxNode` per interaction id, painter order of first appearance."""
        if not self.digest:
            self.stamp()
        return build_accessibility(self.painted(), self._index(), self.focus)

    # ------------------------------------------------------------------ deltas

    def diff(self, old: Scene) -> SceneDelta:
        """What changed from ``old`` to this scene (both are stamped first if needed).

        Equal digests answer ``changed=False`` at once without looking at any node.
        """
        if not self.digest:
            self.stamp()
        if not old.digest:
            old.stamp()
        if self.digest == old.digest:
            return SceneDelta(changed=False)
        resized = (self.width, self.height) != (old.width, old.height)
        return diff_scenes(
            self.painted(),
            old.painted(),
            self.windows,
            old.windows,
            viewport=self.viewport,
            background=tuple(self.background) != tuple(old.background),
            resized=resized,
            focus=self.focus != old.focus,
        )

    # ------------------------------------------------------------------ plain data

    def to_plain(self) -> dict:
        """The scene as plain data (stamps first if needed); see :mod:`cwgym.scene.plain`."""
        if not self.digest:
            self.stamp()
        return scene_plain(self)

    @classmethod
    def from_plain(cls, data: dict) -> Scene:
        """Rebuild a scene from :meth:`to_plain` output (revisions and digest kept)."""
        fields = scene_fields_from_plain(data)
        digest = fields.pop("digest")
        scene = cls(**fields)
        scene.digest = digest
        return scene

    def detached(self) -> Scene:
        """A copy whose lists the caller may change without touching this scene (nodes and
        windows are immutable and shared). Scenes come from content-keyed caches, so a
        scene handed to a caller is a detached copy."""
        out = Scene.__new__(Scene)
        for name in Scene.__slots__:
            value = getattr(self, name)
            setattr(out, name, value.copy() if isinstance(value, (list, dict)) else value)
        return out

    def __repr__(self) -> str:
        return (
            f"Scene({self.width}x{self.height}, {len(self.nodes)} nodes, "
            f"{len(self.windows)} windows, digest={self.digest})"
        )
