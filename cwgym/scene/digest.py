"""Content digests of nodes and scenes.

A node's revision digests what it paints and announces (every field but ``id`` and
``revision``); a scene's digest covers its viewport, background, typeface, the nodes'
ids and revisions in painter order, the windows, focus, buffers and scrolls. Both are
64-bit digests of the canonical msgpack encoding (:mod:`cwgym.kernel.digest`), so they
are the same in every process, after a restore and in a fork, whatever
``PYTHONHASHSEED`` is. 0 is reserved for "not stamped".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cwgym.kernel.digest import u64
from cwgym.scene.node import Node
from cwgym.scene.primitives import primitive_digest

__all__ = ["SCENE_VERSION", "node_revision", "scene_digest"]

#: Version of the scene contract; part of every scene digest.
SCENE_VERSION = 2


def node_revision(node: Node) -> int:
    """The content digest of one node (never 0)."""
    return (
        u64(
            (
                primitive_digest(node.primitive),
                node.bounds,
                node.semantic,
                node.interaction,
                node.clip,
                node.rounded_clip,
                node.transform,
                node.z,
                node.opacity,
                node.window,
                node.state,
                node.line,
            )
        )
        or 1
    )


def scene_digest(
    width: int,
    height: int,
    revision: int,
    background: Sequence[int],
    typeface: str | None,
    painted: Sequence[Node],
    windows: Any,
    focus: Any,
    buffers: Any,
    scrolls: Any,
) -> int:
    """The digest of a whole scene whose nodes are already stamped (never 0)."""
    return (
        u64(
            (
                "cwgym.scene",
                SCENE_VERSION,
                width,
                height,
                revision,
                tuple(background),
                typeface,
                [(n.id, n.revision) for n in painted],
                windows,
                focus,
                buffers,
                scrolls,
            )
        )
        or 1
    )
