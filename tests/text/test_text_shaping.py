"""Shaping and measuring: integer, cached-but-pure, kerned, with deterministic fallback."""

import pytest

from cwgym.text import FontKey, cell_size, measure, shape


def test_measure_is_the_rounded_up_shaped_advance():
    run = shape("Hello, world", "sans", 14)
    assert isinstance(run.advance, int)
    assert all(isinstance(v, int) for v in run.xs + run.advances + run.y_offsets)
    assert run.width == -(-run.advance // 64)
    assert measure("Hello, world", "sans", 14) == run.width


def test_empty_text_is_empty_run():
    run = shape("", "sans", 14)
    assert run.glyphs == () and run.advance == 0 and run.carets == (0,)
    assert measure("", "mono", 14) == 0


def test_wider_text_measures_wider():
    assert measure("iiii", "sans", 14) < measure("WWWW", "sans", 14)
    assert measure("Bold", "sans-bold", 14) > measure("Bold", "sans", 14)
    assert measure("text", "sans", 20) > measure("text", "sans", 10)


def test_kerning_changes_the_pair_advance():
    pair = shape("AV", "sans", 40).advance
    apart = shape("A", "sans", 40).advance + shape("V", "sans", 40).advance
    if pair == apart:
        pytest.skip("the sans font does not kern AV")
    assert pair < apart


def test_ligatures_in_sans_but_not_in_mono():
    sans = shape("fi", "sans", 14)
    if len(sans.glyphs) == 2:
        pytest.skip("the sans font has no fi ligature")
    assert len(sans.glyphs) == 1
    assert len(shape("fi", "mono", 14).glyphs) == 2


def test_missing_glyphs_fall_back_in_chain_order():
    run = shape("a→b", "sans", 14)
    assert run.faces == (0, 1, 0)
    assert run.glyphs[1] != 0
    # A character no bundled file has: the primary's .notdef.
    nowhere = shape("中", "sans", 14)
    assert nowhere.glyphs == (0,) and nowhere.faces == (0,)


def test_control_characters_are_invisible():
    assert measure("\x01\r", "sans", 14) == 0
    assert shape("a\tb", "sans", 14).glyphs == shape("a b", "sans", 14).glyphs
    assert measure("\ud800", "sans", 14) > 0  # lone surrogate shown as U+FFFD


@pytest.mark.parametrize("key", [FontKey.MONO, FontKey.MONO_BOLD])
@pytest.mark.parametrize("size", [9, 13, 14, 16])
def test_mono_runs_sit_on_the_cell_grid(key, size):
    width, height = cell_size(size, key)
    assert width > 0 and height > 0
    for text in ["ls -la /tmp", "│ ┌─┐ ✓ → █", "\x00"[:0] + "naïve"]:
        run = shape(text, key, size)
        assert run.advance == len(text) * width * 64
        assert [run.caret_x(i) for i in range(len(text) + 1)] == [
            i * width for i in range(len(text) + 1)
        ]
    # Wide characters take two cells; combining marks none.
    assert shape("中", key, size).advance == 2 * width * 64
    assert shape("e\u0301", key, size).advance == width * 64


def test_carets_are_monotone_and_invertible():
    text = "office AVA fi"
    run = shape(text, "sans", 16)
    assert len(run.carets) == len(text) + 1
    assert run.carets[0] == 0 and run.carets[-1] == run.advance
    assert list(run.carets) == sorted(run.carets)
    for i in range(len(text) + 1):
        if run.carets.count(run.carets[i]) == 1:
            assert run.index_at(run.caret_x(i)) in (i - 1, i, i + 1)
    assert run.index_at(-50) == 0
    assert run.index_at(10_000) == len(text)


def test_bad_arguments_name_what_was_wrong():
    with pytest.raises(ValueError, match="'serif'"):
        shape("x", "serif", 14)
    with pytest.raises(TypeError, match="int"):
        shape("x", "sans", 13.5)
    with pytest.raises(ValueError, match="between"):
        shape("x", "sans", 0)
    with pytest.raises(TypeError, match="str"):
        shape(b"x", "sans", 14)


def test_runs_are_immutable_values():
    run = shape("same", "sans", 14)
    with pytest.raises(AttributeError):
        run.advance = 0
    assert run == shape("same", FontKey.SANS, 14)


def test_mono_cells_agree_with_the_scene_cell_rule():
    text_cells = pytest.importorskip("cwgym.scene.text_lines").text_cells
    width, _ = cell_size(14)
    for text in ["plain", "tab\there", "ctl\x01x", "中文 ok", "e\u0301\u200b", "→ ✓ █"]:
        assert shape(text, "mono", 14).advance == text_cells(text) * width * 64, text


def test_carets_do_not_split_a_letter_from_its_marks():
    run = shape("e\u0301x", "sans", 14)
    assert run.glyphs == shape("\u00e9x", "sans", 14).glyphs  # NFD accent composes
    assert run.carets[1] == run.carets[0]
    assert run.index_at(run.caret_x(2)) == 2
