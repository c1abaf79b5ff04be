"""Every primitive draws where it should, with transforms, clips, opacity and z-order.

Scenes are built with ``SceneBuilder``; pixels are probed at known points.
"""

from __future__ import annotations

import numpy as np
import pytest
from probes import frame, ink_box, near, px

from cwgym.render import render_scene, text_box
from cwgym.scene import (
    AssetImage,
    Backdrop,
    Box,
    Image,
    Path,
    Rect,
    Region,
    RoundedBox,
    RoundedClip,
    SceneBuilder,
    Shadow,
    Symbol,
    Text,
    Transform,
    UiText,
    UiTextBold,
)
from cwgym.text import line_height, measure

BG = (30, 40, 50, 255)
RED = (220, 20, 20, 255)
BLUE = (20, 40, 220, 255)
WHITE = (255, 255, 255, 255)


def builder(w: int = 200, h: int = 120, background=BG) -> SceneBuilder:
    return SceneBuilder(w, h, background=background)


def test_the_frame_is_straight_rgba_row_major_of_the_viewport_size():
    b = builder(7, 5)
    b.paint(Box(RED), Rect(2, 1, 1, 1))
    data = render_scene(b.finish())
    assert isinstance(data, bytes) and len(data) == 7 * 5 * 4
    assert data[(1 * 7 + 2) * 4 : (1 * 7 + 2) * 4 + 4] == bytes(RED)
    assert data[:4] == bytes(BG)


def test_an_empty_scene_is_its_background():
    a = frame(builder(20, 10).finish())
    assert (a == np.array(BG, dtype=np.uint8)).all()


def test_box_fills_its_bounds_and_its_inner_stroke():
    b = builder()
    b.paint(Box(RED), Rect(10, 10, 30, 20))
    b.paint(Box(WHITE, BLUE, 3), Rect(60, 10, 40, 40))
    a = frame(b.finish())
    assert px(a, 10, 10) == RED and px(a, 39, 29) == RED
    assert px(a, 40, 29) == BG and px(a, 9, 10) == BG and px(a, 39, 30) == BG
    assert px(a, 60, 10) == BLUE and px(a, 62, 30) == BLUE and px(a, 63, 30) == WHITE
    assert px(a, 99, 49) == BLUE and px(a, 80, 30) == WHITE and px(a, 100, 30) == BG


def test_rounded_box_rounds_its_corners():
    b = builder()
    b.paint(RoundedBox(RED, 20), Rect(10, 10, 100, 80))
    b.paint(RoundedBox(WHITE, 10, BLUE, 2), Rect(120, 10, 60, 60))
    a = frame(b.finish())
    assert px(a, 60, 50) == RED and px(a, 60, 10) == RED and px(a, 10, 50) == RED
    assert px(a, 10, 10) == BG and px(a, 109, 89) == BG
    assert px(a, 150, 10) == BLUE and px(a, 150, 11) == BLUE and px(a, 150, 40) == WHITE
    assert px(a, 120, 10) == BG


@pytest.mark.parametrize(
    "prim",
    [
        UiText("Hello, World", 14, WHITE),
        UiTextBold("Bold Title", 16, WHITE),
        Text("$ ls -la ~", 14, WHITE, "mono"),
    ],
    ids=["ui_text", "ui_text_bold", "text"],
)
def test_text_ink_falls_inside_its_measured_box(prim):
    b = builder(260, 60)
    bounds = Rect(
        20,
        10,
        measure(prim.text, prim.font, prim.size) + 60,
        line_height(prim.font, prim.size) + 20,
    )
    b.paint(prim, bounds)
    a = frame(b.finish())
    ink = ink_box(a, BG)
    box = text_box(prim, bounds)
    assert ink is not None
    x0, y0, x1, y1 = ink
    assert box.x <= x0 and box.y <= y0 and x1 <= box.right and y1 <= box.bottom
    # the run really spans the measured width (ink reaches its last quarter)
    assert x1 >= box.x + 3 * box.width // 4
    # the line box is centred vertically in the bounds
    assert box.y == bounds.y + (bounds.height - box.height) // 2


def test_text_is_drawn_with_the_text_layer_and_clipped_to_its_bounds():
    b = builder(200, 40)
    b.paint(UiText("A long label that does not fit", 14, WHITE), Rect(10, 10, 40, 17))
    a = frame(b.finish())
    ink = ink_box(a, BG)
    assert ink is not None and ink[2] <= 50 and ink[0] >= 10


def test_asset_image_draws_a_known_icon_and_a_tinted_silhouette():
    b = builder(200, 100)
    b.paint(AssetImage("file"), Rect(10, 10, 48, 48))
    b.paint(AssetImage("folder", tint=BLUE), Rect(100, 10, 48, 48))
    a = frame(b.finish())
    # the file's white page fills its middle
    r, g, bb, _ = px(a, 34, 34)
    assert min(r, g, bb) > 200
    # the tinted folder is a blue silhouette: opaque inside, exactly the tint
    assert px(a, 124, 36) == BLUE
    changed = a[10:58, 100:148][(a[10:58, 100:148] != np.array(BG, np.uint8)).any(axis=2)]
    assert len(changed) > 500
    assert (changed[:, 2] >= changed[:, 0]).all()


def test_symbol_draws_in_its_colour_and_size():
    b = builder(100, 60)
    b.paint(Symbol("close", WHITE), Rect(10, 10, 32, 32))
    b.paint(Symbol("minimize", WHITE, 16), Rect(50, 10, 40, 40))
    a = frame(b.finish())
    assert px(a, 26, 26) == WHITE  # the cross's centre
    assert px(a, 10, 10) == BG and px(a, 26, 12) == BG
    ink = ink_box(a[:, 50:], BG)
    assert ink is not None and ink[0] >= 12 - 1 and ink[2] <= 28 + 1  # within the centred 16 px box


def test_shadow_paints_around_and_below_its_caster_but_not_under_it():
    b = builder(200, 140, background=WHITE)
    b.paint(Shadow((0, 0, 0, 200), 12, 0, 6, 0, 8), Rect(50, 30, 100, 60))
    a = frame(b.finish())
    below = px(a, 100, 92)
    assert below[0] < 200 and below[3] == 255
    assert px(a, 100, 60) == WHITE  # cut out under the caster
    assert px(a, 100, 30 + 60 + 6 + 12 + 2) == WHITE  # beyond the blur
    assert px(a, 100, 92)[0] < px(a, 100, 100)[0]  # fades with distance


def test_image_blits_exactly_and_scales_to_its_bounds():
    pixels = bytes([*RED, *BLUE, *BLUE, *WHITE])  # 2 x 2
    b = builder(100, 60)
    b.paint(Image(2, 2, pixels), Rect(5, 5, 2, 2))
    b.paint(Image(2, 2, pixels), Rect(20, 10, 40, 40))
    a = frame(b.finish())
    assert [px(a, 5, 5), px(a, 6, 5), px(a, 5, 6), px(a, 6, 6)] == [RED, BLUE, BLUE, WHITE]
    assert px(a, 22, 12) == RED and px(a, 57, 12) == BLUE and px(a, 57, 47) == WHITE
    assert px(a, 60, 30) == BG


def test_image_with_wrong_byte_count_is_refused():
    b = builder(20, 20)
    b.paint(Image(2, 2, b"\x00" * 15), Rect(0, 0, 2, 2))
    with pytest.raises(ValueError, match="needs 16 rgba bytes"):
        render_scene(b.finish())


def test_path_fills_and_strokes():
    b = builder(200, 120)
    triangle = (("M", 0, 0), ("L", 80, 0), ("L", 40, 60), ("Z",))
    b.paint(Path(triangle, fill=RED), Rect(10, 10, 80, 60))
    b.paint(Path((("M", 0, 0), ("L", 60, 0)), stroke=WHITE, stroke_width=4), Rect(110, 50, 60, 4))
    a = frame(b.finish())
    assert px(a, 50, 25) == RED and px(a, 15, 60) == BG
    assert px(a, 140, 50) == WHITE and px(a, 140, 58) == BG


def test_path_with_a_malformed_command_is_refused():
    b = builder(20, 20)
    b.paint(Path((("M", 0, 0), ("X", 1, 1)), fill=RED), Rect(0, 0, 5, 5))
    with pytest.raises(ValueError, match="path command 1"):
        render_scene(b.finish())


def test_backdrop_tints_and_blurs_what_is_below():
    b = builder(200, 100, background=(0, 0, 0, 255))
    b.paint(Box(WHITE), Rect(0, 0, 100, 100))  # a sharp black/white edge at x = 100
    b.paint(Backdrop((255, 0, 0, 64), 0), Rect(0, 0, 40, 40))
    b.paint(Backdrop((0, 0, 0, 0), 18), Rect(60, 50, 80, 40))
    a = frame(b.finish())
    assert near(px(a, 20, 20), (255, 191, 191, 255))  # 25% red over white
    left, right = px(a, 97, 70), px(a, 103, 70)
    assert 20 < right[0] < 235 and 20 < left[0] < 235 and left[0] > right[0]  # the edge is blurred
    assert px(a, 97, 40) == WHITE and px(a, 103, 40) == (0, 0, 0, 255)  # outside it is sharp


def test_region_paints_nothing():
    b = builder(40, 40)
    b.paint(Box(RED), Rect(0, 0, 20, 20))
    plain = render_scene(b.finish())
    b = builder(40, 40)
    b.paint(Box(RED), Rect(0, 0, 20, 20))
    b.paint(Region(), Rect(0, 0, 40, 40), interaction="shell:desktop")
    assert render_scene(b.finish()) == plain


def test_translation_scale_and_rotation_place_pixels():
    b = builder(200, 200)
    b.paint(Box(RED), Rect(0, 0, 10, 10), transform=Transform.translate(100, 50))
    b.paint(Box(BLUE), Rect(0, 0, 10, 10), transform=Transform.scale(2048, 3072, 10, 10))
    b.paint(
        Box(WHITE), Rect(0, 0, 40, 10), transform=Transform(0, 1024, -1024, 0, 150, 100)
    )  # 90 degrees
    a = frame(b.finish())
    assert px(a, 105, 55) == RED and px(a, 111, 55) == BG
    assert px(a, 29, 39) == BLUE and px(a, 31, 39) == BG and px(a, 29, 41) == BG
    assert px(a, 145, 130) == WHITE and px(a, 170, 105) == BG  # (x, y) -> (150 - y, 100 + x)


def test_rotated_text_and_scaled_icons_draw():
    b = builder(200, 200)
    b.paint(
        UiText("Turn", 20, WHITE),
        Rect(0, 0, 60, 24),
        transform=Transform(0, 1024, -1024, 0, 60, 20),
    )
    b.paint(
        AssetImage("folder"), Rect(0, 0, 48, 48), transform=Transform.scale(2048, 2048, 90, 90)
    )
    a = frame(b.finish())
    ink = ink_box(a[:, :100], BG)
    assert ink is not None and ink[3] - ink[1] > ink[2] - ink[0]  # taller than wide: it turned
    r, g, bb, _ = px(a, 90 + 48, 90 + 48)
    assert r > g > bb  # the folder is orange, drawn at twice its size


def test_clip_and_rounded_clip_cut_the_node():
    b = builder(200, 120)
    with b.group(clip=Rect(20, 20, 30, 30)):
        b.paint(Box(RED), Rect(0, 0, 100, 100))
    with b.group(rounded_clip=RoundedClip(100, 10, 80, 80, 30)):
        b.paint(Box(BLUE), Rect(90, 0, 120, 120))
    a = frame(b.finish())
    assert px(a, 20, 20) == RED and px(a, 49, 49) == RED
    assert px(a, 19, 30) == BG and px(a, 50, 30) == BG and px(a, 30, 50) == BG
    assert px(a, 140, 50) == BLUE and px(a, 140, 10) == BLUE
    assert px(a, 100, 10) == BG and px(a, 179, 89) == BG and px(a, 95, 50) == BG


def test_opacity_multiplies_alpha():
    b = builder(100, 40, background=(0, 0, 0, 255))
    b.paint(Box(WHITE), Rect(0, 0, 20, 20), opacity=128)
    with b.group(opacity=128):
        b.paint(Box(WHITE), Rect(40, 0, 20, 20))
        b.paint(Box(WHITE), Rect(50, 0, 20, 20))  # group opacity applies per node
    b.paint(Box(WHITE), Rect(80, 0, 20, 20), opacity=0)
    a = frame(b.finish())
    assert near(px(a, 10, 10), (128, 128, 128, 255))
    assert near(px(a, 45, 10), (128, 128, 128, 255))
    assert near(px(a, 55, 10), (192, 192, 192, 255))
    assert px(a, 90, 10) == (0, 0, 0, 255)


def test_z_order_then_insertion_order_decide_what_is_on_top():
    b = builder(100, 40)
    b.paint(Box(RED), Rect(0, 0, 40, 40), z=5)
    b.paint(Box(BLUE), Rect(20, 0, 40, 40), z=1)
    b.paint(Box(WHITE), Rect(60, 0, 20, 40))
    b.paint(Box(RED), Rect(70, 0, 20, 40))
    a = frame(b.finish())
    assert px(a, 30, 20) == RED  # higher z wins although added first
    assert px(a, 50, 20) == BLUE
    assert px(a, 75, 20) == RED  # same z: the later one wins


def test_straight_alpha_output():
    b = builder(40, 20, background=(0, 0, 0, 0))
    b.paint(Box((255, 255, 255, 128)), Rect(0, 0, 10, 10))
    b.paint(Box((200, 100, 0, 51)), Rect(20, 0, 10, 10))
    a = frame(b.finish())
    assert px(a, 5, 5) == (255, 255, 255, 128)
    assert near(px(a, 25, 5), (200, 100, 0, 51), 3)
    assert px(a, 35, 15) == (0, 0, 0, 0)


def test_nodes_off_screen_or_empty_draw_nothing():
    b = builder(50, 50)
    b.paint(Box(RED), Rect(60, 60, 10, 10))
    b.paint(Box(RED), Rect(10, 10, 0, 20))
    b.paint(Shadow(RED, 4), Rect(10, 10, 0, 0))
    a = frame(b.finish())
    assert (a == np.array(BG, np.uint8)).all()
