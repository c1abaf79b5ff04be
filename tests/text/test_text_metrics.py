"""Whole-pixel vertical metrics and terminal cell size."""

import pytest

from cwgym.text import FontKey, ascent, cell_size, descent, font_metrics, line_height, measure


@pytest.mark.parametrize("key", list(FontKey))
@pytest.mark.parametrize("size", [8, 11, 13, 14, 20, 48])
def test_line_box_holds_the_em(key, size):
    m = font_metrics(key, size)
    assert (m.ascent, m.descent) == (ascent(key, size), descent(key, size))
    assert m.line_height == line_height(key, size) == m.ascent + m.descent + m.line_gap
    assert m.ascent > 0 and m.descent > 0 and m.line_gap >= 0
    assert m.line_height >= size


def test_cell_size_matches_mono_measure():
    for size in (10, 13, 14, 18):
        width, height = cell_size(size)
        assert measure("0123456789", "mono", size) == 10 * width
        assert height == line_height("mono", size)
        assert abs(width - size / 2) <= 0.5


def test_cell_size_needs_a_mono_font():
    with pytest.raises(ValueError, match="mono"):
        cell_size(14, "sans")
