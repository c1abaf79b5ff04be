"""Drawing: the drawn ink lies in the measured box; pinned skia settings and colour types."""

import numpy as np
import pytest
import skia

from cwgym.text import (
    FontKey,
    ascent,
    descent,
    draw_run,
    draw_text,
    measure,
    shape,
    skia_font,
    text_blob,
)
from cwgym.text import draw as draw_module

TEXTS = [
    "Hello, World",
    "AVA Wave office",
    "jpgqy fi ffl",
    "Terminal — Files",
    "ls -la /tmp",
    "naïve café",
]


def _surface(width, height, alpha=skia.kPremul_AlphaType):
    info = skia.ImageInfo.Make(width, height, skia.kRGBA_8888_ColorType, alpha)
    surface = skia.Surface.MakeRaster(info)
    assert surface is not None
    surface.getCanvas().clear(skia.ColorTRANSPARENT)
    return surface, info


def _pixels(surface, info):
    array = np.zeros((info.height(), info.width(), 4), dtype=np.uint8)
    assert surface.readPixels(info, array, info.minRowBytes(), 0, 0)
    return array


def _ink_box(pixels):
    ys, xs = np.nonzero(pixels[:, :, 3])
    return int(xs.min()), int(xs.max()) + 1, int(ys.min()), int(ys.max()) + 1


@pytest.mark.parametrize("key", list(FontKey))
@pytest.mark.parametrize("size", [11, 14, 24])
@pytest.mark.parametrize("text", TEXTS)
def test_ink_lies_in_the_measured_box(key, size, text):
    surface, info = _surface(600, 80)
    x, baseline = 30, 50
    run = draw_text(surface.getCanvas(), x, baseline, text, key, size, (0, 0, 0, 255))
    width = measure(text, key, size)
    assert run.width == width
    left, right, top, bottom = _ink_box(_pixels(surface, info))
    assert x - 2 <= left and right <= x + width + 2, (left, right, x, width)
    assert baseline - ascent(key, size) - 1 <= top and bottom <= baseline + descent(key, size) + 1


def test_the_blob_holds_exactly_the_shaped_glyphs():
    # "fi" is one ligature glyph from HarfBuzz; the arrow comes from the fallback file.
    run = shape("fi a→", "sans", 30)
    blob = text_blob(run)
    assert blob is not None
    runs = list(skia.TextBlob.Iter(blob))
    assert [g for r in runs for g in r.fGlyphIndices] == list(run.glyphs)
    assert [r.fTypeface.getFamilyName() for r in runs] == ["Ubuntu", "DejaVu Sans"]
    assert text_blob(shape("", "sans", 12)) is None


def test_drawn_ink_matches_a_plain_glyph_draw_at_the_shaped_positions():
    run = shape("AVA office", "sans", 20)
    a, info = _surface(300, 40)
    draw_run(a.getCanvas(), 5, 30, run, (10, 20, 30, 255))
    b, _ = _surface(300, 40)
    font = skia_font("sans", 20)
    paint = skia.Paint(Color=skia.Color(10, 20, 30, 255), AntiAlias=True)
    positions = [skia.Point(5 + x / 64, 30 - y / 64) for x, y in zip(run.xs, run.y_offsets)]
    builder = skia.TextBlobBuilder()
    builder.allocRunPos(font, list(run.glyphs), positions)
    b.getCanvas().drawTextBlob(builder.make(), 0, 0, paint)
    assert np.array_equal(_pixels(a, info), _pixels(b, info))


def test_skia_font_settings_are_pinned():
    font = skia_font("mono", 13)
    assert font.getHinting() == draw_module.HINTING == skia.FontHinting.kSlight
    assert font.getEdging() == skia.Font.Edging.kAntiAlias
    assert font.isSubpixel() is True
    assert font.isLinearMetrics() is True
    assert font.isEmbeddedBitmaps() is False
    assert font.isForceAutoHinting() is False
    assert font.isBaselineSnap() is True
    assert font.getSize() == 13.0
    assert font.getTypeface().getFamilyName() == "Ubuntu Mono"


@pytest.mark.parametrize("alpha", [skia.kPremul_AlphaType, skia.kUnpremul_AlphaType])
@pytest.mark.parametrize(("width", "height"), [(84, 84), (1280, 800)])
def test_raster_surfaces_of_pinned_colour_type(alpha, width, height):
    surface, info = _surface(width, height, alpha)
    assert surface.imageInfo().colorType() == skia.kRGBA_8888_ColorType
    assert surface.imageInfo().alphaType() == alpha
    canvas = surface.getCanvas()
    canvas.clear(skia.Color(255, 255, 255, 255))
    draw_text(canvas, 2, 20, "Files → ✓", "sans", 13, (30, 30, 30, 255))
    draw_text(canvas, 2, 40, "$ ls", "mono", 12, (200, 0, 0, 128))
    pixels = _pixels(surface, info)
    assert pixels.shape == (height, width, 4)
    assert (pixels[:, :, :3] < 255).any()
    assert (pixels[:, :, 3] == 255).all()


def test_same_text_draws_the_same_bytes_every_time():
    frames = []
    for _ in range(2):
        surface, info = _surface(200, 40)
        draw_text(surface.getCanvas(), 3, 25, "repeat AV fi", "sans", 15, (0, 0, 0, 255))
        frames.append(_pixels(surface, info).tobytes())
    assert frames[0] == frames[1]


def test_colour_must_be_four_bytes():
    surface, _ = _surface(20, 20)
    with pytest.raises(ValueError, match="color_rgba"):
        draw_text(surface.getCanvas(), 0, 10, "x", "sans", 10, (0, 0, 0))
