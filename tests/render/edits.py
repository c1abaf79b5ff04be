"""Random small scene edits for the incremental-render tests (seeded, deterministic)."""

from __future__ import annotations

import random

import msgspec

from cwgym.scene import (
    Box,
    Node,
    Rect,
    RoundedBox,
    RoundedClip,
    Scene,
    Shadow,
    Symbol,
    Text,
    UiText,
)

PALETTE = (
    (255, 255, 255, 255),
    (20, 20, 20, 255),
    (233, 84, 32, 255),
    (40, 120, 220, 180),
    (0, 0, 0, 90),
)


def _new_node(rng: random.Random, k: int, scene: Scene) -> Node:
    w, h = scene.width, scene.height
    x, y = rng.randrange(-20, w), rng.randrange(-20, h)
    bw, bh = rng.randrange(1, max(2, w // 3)), rng.randrange(1, max(2, h // 3))
    kind = rng.randrange(5)
    colour = rng.choice(PALETTE)
    if kind == 0:
        prim = Box(colour)
    elif kind == 1:
        prim = RoundedBox(colour, rng.randrange(0, 20), rng.choice(PALETTE), rng.randrange(0, 3))
    elif kind == 2:
        prim = UiText(
            rng.choice(("hello", "Files", "ada@workstation:~$ ls", "x")),
            rng.choice((11, 14, 20)),
            colour,
        )
    elif kind == 3:
        prim = Shadow(
            colour,
            rng.randrange(0, 24),
            rng.randrange(-6, 7),
            rng.randrange(-6, 7),
            rng.randrange(0, 5),
            rng.randrange(0, 16),
        )
    else:
        prim = Symbol(
            rng.choice(("close", "search", "wifi", "folder")), colour, rng.choice((0, 16))
        )
    return Node(
        id=1_000_000 + k, bounds=Rect(x, y, bw, bh), primitive=prim, z=rng.randrange(-2, 1200)
    )


def edit(scene: Scene, rng: random.Random, step: int) -> Scene:
    """A copy of ``scene`` with one to three small random edits, stamped."""
    nodes = list(scene.nodes)
    for k in range(rng.randrange(1, 4)):
        if not nodes:
            nodes.append(_new_node(rng, step * 10 + k, scene))
            continue
        op = rng.randrange(10)
        i = rng.randrange(len(nodes))
        n = nodes[i]
        if op == 0:  # move
            b = n.bounds
            nodes[i] = msgspec.structs.replace(
                n,
                bounds=Rect(
                    b.x + rng.randrange(-9, 10), b.y + rng.randrange(-9, 10), b.width, b.height
                ),
            )
        elif op == 1:  # resize
            b = n.bounds
            nodes[i] = msgspec.structs.replace(
                n,
                bounds=Rect(
                    b.x,
                    b.y,
                    max(0, b.width + rng.randrange(-15, 16)),
                    max(0, b.height + rng.randrange(-5, 6)),
                ),
            )
        elif op == 2:  # recolour a text or box
            p = n.primitive
            if isinstance(p, (Box, RoundedBox, UiText, Text, Symbol)):
                nodes[i] = msgspec.structs.replace(
                    n, primitive=msgspec.structs.replace(p, color=rng.choice(PALETTE))
                )
        elif op == 3:  # retype a text (a keystroke)
            p = n.primitive
            if isinstance(p, (UiText, Text)):
                nodes[i] = msgspec.structs.replace(
                    n, primitive=msgspec.structs.replace(p, text=p.text + rng.choice("abc $_"))
                )
        elif op == 4:  # opacity
            nodes[i] = msgspec.structs.replace(n, opacity=rng.choice((0, 64, 128, 255)))
        elif op == 5:  # remove
            del nodes[i]
        elif op == 6:  # add
            nodes.append(_new_node(rng, step * 10 + k, scene))
        elif op == 7:  # clip
            b = n.transform.map_rect(n.bounds)
            nodes[i] = msgspec.structs.replace(
                n, clip=Rect(b.x + 3, b.y + 2, max(0, b.width - 7), max(0, b.height - 4))
            )
        elif op == 8:  # rounded clip
            b = n.transform.map_rect(n.bounds)
            nodes[i] = msgspec.structs.replace(
                n, rounded_clip=RoundedClip(b.x, b.y, b.width, b.height, rng.randrange(0, 30))
            )
        else:  # change z (may reorder)
            nodes[i] = msgspec.structs.replace(n, z=n.z + rng.choice((-1, 1, 500)))
    out = Scene(
        scene.width,
        scene.height,
        scene.background,
        nodes=[msgspec.structs.replace(n, revision=0) for n in nodes],
    )
    out.stamp()
    return out
