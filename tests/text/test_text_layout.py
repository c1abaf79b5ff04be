"""Wrap and ellipsis never exceed the width they were given, and keep the text."""

from hypothesis import given, settings
from hypothesis import strategies as st

from cwgym.text import ELLIPSIS, FontKey, break_units, ellipsize, measure, wrap

ALPHABET = st.sampled_from([*"aAbVWfilmo.,' ", "  ", "\n", "→", "é", "e\u0301", "ffi", "W" * 8])
TEXTS = st.lists(ALPHABET, max_size=40).map("".join)
FONTS = st.sampled_from(list(FontKey))
SIZES = st.integers(min_value=6, max_value=30)
WIDTHS = st.integers(min_value=0, max_value=400)


@settings(max_examples=150, deadline=None)
@given(text=TEXTS, font=FONTS, size=SIZES, max_width=WIDTHS)
def test_wrapped_lines_fit(text, font, size, max_width):
    lines = wrap(text, font, size, max_width)
    assert len(lines) >= text.replace("\r\n", "\n").count("\n") + 1
    for line in lines:
        assert "\n" not in line
        fits = measure(line, font, size) <= max_width
        assert fits or len(break_units(line)) == 1, (line, max_width)
    # No visible character is lost, added or reordered.
    assert "".join("".join(lines).split()) == "".join(text.split())


@settings(max_examples=150, deadline=None)
@given(text=TEXTS.filter(lambda t: "\n" not in t), font=FONTS, size=SIZES, max_width=WIDTHS)
def test_ellipsized_text_fits(text, font, size, max_width):
    out = ellipsize(text, font, size, max_width)
    assert measure(out, font, size) <= max_width
    if measure(text, font, size) <= max_width:
        assert out == text
    elif out:
        assert out.endswith(ELLIPSIS)
        assert text.startswith(out[: -len(ELLIPSIS)])


def test_wrap_breaks_at_spaces_and_keeps_short_text_whole():
    text = "The quick brown fox jumps over the lazy dog"
    assert wrap(text, "sans", 14, 10_000) == [text]
    lines = wrap(text, "sans", 14, measure("The quick brown", "sans", 14))
    assert lines[0] == "The quick brown"
    assert " ".join(lines) == text


def test_long_words_break_between_characters():
    lines = wrap("Supercalifragilistic", "sans", 14, 40)
    assert len(lines) > 1 and "".join(lines) == "Supercalifragilistic"
    assert all(measure(line, "sans", 14) <= 40 for line in lines)


def test_hard_breaks_and_blank_lines():
    assert wrap("a\n\nb", "sans", 14, 200) == ["a", "", "b"]
    assert wrap("", "sans", 14, 200) == [""]


def test_combining_marks_stay_with_their_letter():
    lines = wrap("e\u0301" * 6, "sans", 14, 1)
    assert lines == ["e\u0301"] * 6


def test_ellipsize_cases():
    text = "A long window title that will not fit"
    assert ellipsize(text, "sans", 14, 10_000) == text
    short = ellipsize(text, "sans", 14, 120)
    assert short.endswith(ELLIPSIS) and measure(short, "sans", 14) <= 120
    assert ellipsize(text, "sans", 14, 1) == ""


def _ellipsize_by_bisection(text, font, size, max_width):
    """The longest fitting prefix found by measuring halves, as ``ellipsize`` did before it
    began from the text's own carets and shaped long texts only as far as the box."""
    if measure(text, font, size) <= max_width:
        return text
    if measure(ELLIPSIS, font, size) > max_width:
        return ""
    units = break_units(text)

    def candidate(k):
        return "".join(units[:k]).rstrip(" ") + ELLIPSIS

    lo, hi = 0, len(units)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if measure(candidate(mid), font, size) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return candidate(lo)


LONG_TEXTS = st.lists(ALPHABET, min_size=20, max_size=300).map("".join)


@settings(max_examples=200, deadline=None)
@given(text=st.one_of(TEXTS, LONG_TEXTS).filter(lambda t: "\n" not in t), font=FONTS, size=SIZES, max_width=WIDTHS)
def test_ellipsize_keeps_the_longest_prefix_bisection_finds(text, font, size, max_width):
    assert ellipsize(text, font, size, max_width) == _ellipsize_by_bisection(text, font, size, max_width)


def test_a_long_title_in_a_short_box_keeps_as_much_as_fits():
    title = "New note" + "a" * 1000
    out = ellipsize(title, "sans-bold", 14, 240)
    assert out.endswith(ELLIPSIS) and measure(out, "sans-bold", 14) <= 240
    longer = "".join(break_units(title)[: len(break_units(out[:-1])) + 1]) + ELLIPSIS
    assert measure(longer, "sans-bold", 14) > 240
    assert ellipsize(title, "sans-bold", 14, 100_000) == title  # a box it fits: shaped whole
