"""Hard-wrapped pane lines carry provenance, so painted text joins back correctly."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cwgym.scene import (
    TextBuffer,
    TextLine,
    caret_cell,
    cell_width,
    join_lines,
    reflow,
    text_cells,
    wrap_text_lines,
)


def test_wrap_marks_continuations():
    vis = wrap_text_lines(["initial commit", "", "ok"], 13, pane="window:0:terminal")
    assert [v.text for v in vis] == ["initial commi", "t", "", "ok"]
    assert [v.line for v in vis] == [
        TextLine(0, False, 0, None, "window:0:terminal"),
        TextLine(0, True, 13, None, "window:0:terminal"),
        TextLine(1, False, 0, None, "window:0:terminal"),
        TextLine(2, False, 0, None, "window:0:terminal"),
    ]
    assert join_lines((v.text, v.line) for v in vis) == ["initial commit", "", "ok"]


def test_wrapped_from_names_the_first_fragment_node():
    vis = wrap_text_lines(
        ["abcdefgh"], 3, first_logical=10, node_id=lambda lg, off: lg * 1000 + off
    )
    assert [(v.text, v.line.logical, v.line.offset, v.line.wrapped_from) for v in vis] == [
        ("abc", 10, 0, None),
        ("def", 10, 3, 10_000),
        ("gh", 10, 6, 10_000),
    ]


def test_wide_characters_take_two_cells():
    assert cell_width("a") == 1 and cell_width("界") == 2 and cell_width("\u0301") == 0
    assert text_cells("a界b") == 4
    vis = reflow(["ab界界"], 3)
    # "ab" + a 2-cell char would need 4 cells: it moves to the next line
    assert [(v.text, v.line.offset) for v in vis] == [("ab", 0), ("界", 2), ("界", 3)]


@given(st.lists(st.text(alphabet="ab界\u0301 xyz", max_size=30), max_size=6), st.integers(1, 12))
def test_join_inverts_wrap(lines, cols):
    vis = wrap_text_lines(lines, cols)
    assert join_lines((v.text, v.line) for v in vis) == lines
    for v in vis:
        assert text_cells(v.text) <= max(cols, 2)
        assert lines[v.line.logical][v.line.offset :].startswith(v.text)


def test_caret_cell():
    lines = ["hello world", "x"]
    vis = wrap_text_lines(lines, 5)
    assert [v.text for v in vis] == ["hello", " worl", "d", "x"]
    assert caret_cell(vis, lines[0], 0, 0) == (0, 0)
    assert caret_cell(vis, lines[0], 0, 4) == (0, 4)
    assert caret_cell(vis, lines[0], 0, 5) == (1, 0)  # exactly at the wrap: next row
    assert caret_cell(vis, lines[0], 0, 11) == (2, 1)  # end of the line
    assert caret_cell(vis, lines[1], 1, 1) == (3, 1)
    assert caret_cell(vis, "", 7, 0) is None
    full = wrap_text_lines(["abcde"], 5)
    assert caret_cell(full, "abcde", 0, 5) == (0, 5)


def test_buffer_bounded_drops_oldest_lines():
    b = TextBuffer.bounded(
        "h", 1, "terminal", [f"l{i}" for i in range(10)], first_visible=6, visible=4, max_lines=5
    )
    assert b.lines == ["l5", "l6", "l7", "l8", "l9"] and b.first_visible == 1 and b.truncated
    c = TextBuffer.bounded("h", 1, "editor", ["aaaa", "bbbb", "cc"], max_chars=7)
    assert c.lines == ["bbbb", "cc"] and c.truncated
    d = TextBuffer.bounded("h", None, "editor", ["a"])
    assert d.lines == ["a"] and not d.truncated
