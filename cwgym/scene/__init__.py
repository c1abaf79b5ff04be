"""The retained scene: what is on screen, as data, before any pixel is drawn.

A :class:`Scene` is integer-geometry nodes (one of twelve primitives each, with semantics,
an interaction target, clips, a transform, z and opacity), the compositor's windows, the
keyboard focus and caret, text pane buffers and scrollers. It answers pointer hit tests,
publishes an accessibility tree, digests its content for cheap change detection, diffs
against an earlier scene with damage rectangles, and converts to and from plain data.

Everything is deterministic: integer geometry, content digests (no counters, no hash
order, no clock), so the same state gives the same scene in every process.
"""

from cwgym.scene.accessibility import AxNode
from cwgym.scene.builder import SceneBuilder
from cwgym.scene.delta import SceneDelta, coalesce
from cwgym.scene.digest import SCENE_VERSION, node_revision
from cwgym.scene.focus import ROUTES, Caret, Focus, Keyboard
from cwgym.scene.geometry import IDENTITY, Rect, RoundedClip, Transform, bounding_box, exposed
from cwgym.scene.hit import Hit
from cwgym.scene.node import OPAQUE, Node, NodeState, Semantic, node_id, parse_window
from cwgym.scene.panes import MAX_BUFFER_CHARS, MAX_BUFFER_LINES, ScrollArea, TextBuffer
from cwgym.scene.primitives import (
    FONTS,
    KINDS,
    AssetImage,
    Backdrop,
    Box,
    Color,
    Image,
    Path,
    Primitive,
    Region,
    RoundedBox,
    Shadow,
    Symbol,
    Text,
    UiText,
    UiTextBold,
    is_opaque,
)
from cwgym.scene.scene import Scene
from cwgym.scene.text_lines import (
    TextLine,
    VisualLine,
    caret_cell,
    cell_width,
    join_lines,
    reflow,
    text_cells,
    wrap_text_lines,
)
from cwgym.scene.windows import SceneWindow, compute_occlusion

__all__ = [
    "FONTS",
    "IDENTITY",
    "KINDS",
    "MAX_BUFFER_CHARS",
    "MAX_BUFFER_LINES",
    "OPAQUE",
    "ROUTES",
    "SCENE_VERSION",
    "AssetImage",
    "AxNode",
    "Backdrop",
    "Box",
    "Caret",
    "Color",
    "Focus",
    "Hit",
    "Image",
    "Keyboard",
    "Node",
    "NodeState",
    "Path",
    "Primitive",
    "Rect",
    "Region",
    "RoundedBox",
    "RoundedClip",
    "Scene",
    "SceneBuilder",
    "SceneDelta",
    "SceneWindow",
    "ScrollArea",
    "Semantic",
    "Shadow",
    "Symbol",
    "Text",
    "TextBuffer",
    "TextLine",
    "Transform",
    "UiText",
    "UiTextBold",
    "VisualLine",
    "bounding_box",
    "caret_cell",
    "cell_width",
    "coalesce",
    "compute_occlusion",
    "exposed",
    "is_opaque",
    "join_lines",
    "node_id",
    "node_revision",
    "parse_window",
    "reflow",
    "text_cells",
    "wrap_text_lines",
]
