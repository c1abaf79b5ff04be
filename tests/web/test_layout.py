"""``layout_page``: text wraps exactly as ``cwgym.text.wrap`` does, every control has one
semantic piece, ``hit`` and ``visible`` answer from the layout's indexes as a brute-force
scan would, wide tables scroll on their own, carets round-trip, and the layout is the same
in every process — or a clear ``LayoutError`` when a page is too big."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import msgspec
import pytest

from cwgym.protocol.page import (
    Button,
    Checkbox,
    Element,
    Form,
    Heading,
    Image,
    Input,
    Link,
    ListBlock,
    Option,
    Page,
    Radio,
    Select,
    Table,
    Text,
    TextArea,
)
from cwgym.scene import Text as Run
from cwgym.text import line_height, wrap
from cwgym.web.layout import (
    MARGIN,
    MIN_WIDTH,
    Control,
    LayoutError,
    PageLayout,
    Piece,
    caret_index,
    control_pieces,
    layout_page,
)

ROOT = Path(__file__).resolve().parents[2]
CONTROL_ROLES = {"link", "button", "textbox", "combobox", "checkbox", "radio"}


def elements_of(page: Page) -> dict[str, Element]:
    out: dict[str, Element] = {}

    def walk(items) -> None:
        for e in items:
            out[e.id] = e
            if isinstance(e, Form):
                walk(e.children)
            elif isinstance(e, ListBlock):
                walk(e.items)
            elif isinstance(e, Table):
                for row in e.rows:
                    walk(row)

    walk(page.elements)
    return out


def painted(layout: PageLayout, page: Page, values: dict[str, str] | None = None,
            focus: str | None = None) -> list[Piece]:
    """What a browser paints: the static pieces, then each control as it is now."""
    values = values or {}
    index = elements_of(page)
    out = list(layout.pieces)
    for c in layout.controls:
        pieces, _ = control_pieces(c, index[c.id], values.get(c.id), focused=c.id == focus, caret=None)
        out.extend(pieces)
    return out


def lines_of(layout: PageLayout, element: str) -> list[str]:
    return [p.primitive.text for p in layout.pieces if p.element == element and isinstance(p.primitive, Run)]


# -- wrapping ---------------------------------------------------------------------------------

#: words of every shape wrapping meets: ligatures (fi, ffl), kerning (AV, Ta), punctuation,
#: code, other scripts and fallback glyphs, marks, emoji, joiners
WORDS = ("the", "office", "wiki", "baffling", "first", "fluffy", "AVATAR", "Tawny", "on-call", "rotation,",
         "`Environment`", "step()", "http://wiki.northwind.internal/wiki/On-call", "(see", "docs/rendering.md)",
         "a", "I", "—", "…", "«quote»", "naïve", "café", "Ωμέγα", "日本語のテキスト", "مرحبا", "e\u0301clair",
         "👍🏽", "ﬁne", "x\u200dy", "\t", "12:30", "$4.99", "WWWWWWWW", "iiiiiiii", "Northwind", "escalate")


def corpus(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for _ in range(n):
        text = "  " if rng.random() < 0.2 else ""
        for _ in range(rng.randint(0, 40)):
            text += rng.choice(WORDS) + rng.choice([" ", " ", " ", "  ", "\n", " \n "])
        texts.append(text)
    return [*texts, "", " ", "\n\n", "averyveryveryverylongwordthatmustbreakinthemiddleofitself " * 3]


@pytest.mark.parametrize("width", [120, 230, 500, 1024])
def test_text_wraps_as_the_text_layer_does(width):
    texts = corpus(60, width)
    page = Page("w", tuple(Text(t, id=f"p{i}", emphasis=i % 3 == 0) for i, t in enumerate(texts))
                + tuple(Heading(t, level=1 + i % 6, id=f"h{i}") for i, t in enumerate(texts[:20])))
    layout = layout_page(page, width)
    sizes = {1: 28, 2: 22, 3: 18}
    for i, t in enumerate(texts):
        expected = wrap(t, "sans-bold" if i % 3 == 0 else "sans", 14, width - 2 * MARGIN)
        assert lines_of(layout, f"p{i}") == [line for k, line in enumerate(expected) if line or k == 0]
    for i, t in enumerate(texts[:20]):
        expected = wrap(t, "sans-bold", sizes.get(1 + i % 6, 16), width - 2 * MARGIN)
        assert lines_of(layout, f"h{i}") == [line for k, line in enumerate(expected) if line or k == 0]


def test_lines_stack_at_the_line_height_and_a_text_names_itself_on_its_first_line():
    text = "one two three four five six seven eight nine ten eleven twelve"
    layout = layout_page(Page("t", (Text(text, id="p"),)), MIN_WIDTH)
    pieces = [p for p in layout.pieces if p.element == "p"]
    assert len(pieces) > 2
    lh = line_height("sans", 14)
    assert [p.rect.y for p in pieces] == [MARGIN + k * lh for k in range(len(pieces))]
    assert [p.semantic for p in pieces if p.semantic] == [pieces[0].semantic]
    assert (pieces[0].semantic.role, pieces[0].semantic.label) == ("text", text)
    assert all(p.rect.x == MARGIN and p.rect.right <= MIN_WIDTH - MARGIN for p in pieces)


def test_a_narrow_width_is_laid_out_at_the_minimum():
    page = Page("t", (Text("hello world", id="p"),))
    assert layout_page(page, 40) == layout_page(page, MIN_WIDTH)
    assert layout_page(page, 40).width == MIN_WIDTH


# -- forms and semantics ------------------------------------------------------------------------

FORM = Page("Report", (
    Heading("Report an incident", id="title"),
    Text("Fill this in.", id="intro"),
    Image("/logo.png", alt="Company logo", id="logo"),
    Link("Help", "/help", id="help"),
    Form("/report", (
        Input("who", label="Your name", placeholder="e.g. Maya", id="who"),
        Input("q", placeholder="Search", id="search"),
        Input("pw", label="Password", type="password", value="hunter2", id="pw"),
        Input("token", type="hidden", value="t0k", id="token"),
        Select("sev", (Option("1", "Sev 1"), Option("2", "Sev 2")), label="Severity", value="2", id="sev"),
        TextArea("body", label="What happened?", value="It broke.", id="body"),
        Checkbox("notify", label="Notify the team", checked=True, id="notify"),
        Radio("when", "now", label="Now", id="now"),
        Radio("when", "later", label="Later", checked=True, id="later"),
        Button("Submit", id="submit"),
    ), id="form"),
))

EXPECTED = {  # id: (kind, role, label, value, checked)
    "help": ("link", "link", "Help", "/help", None),
    "who": ("textbox", "textbox", "Your name", "", None),
    "search": ("textbox", "textbox", "Search", "", None),
    "pw": ("password", "textbox", "Password", "•••••••", None),
    "sev": ("select", "combobox", "Severity", "Sev 2", None),
    "body": ("textarea", "textbox", "What happened?", "It broke.", None),
    "notify": ("checkbox", "checkbox", "Notify the team", None, True),
    "now": ("radio", "radio", "Now", None, False),
    "later": ("radio", "radio", "Later", None, True),
    "submit": ("button", "button", "Submit", None, None),
}


def test_every_control_has_one_semantic_piece_with_its_role_label_value_and_state():
    layout = layout_page(FORM, 800)
    assert [c.id for c in layout.controls] == list(EXPECTED)  # document order: the Tab order
    pieces = painted(layout, FORM)
    for eid, (kind, role, label, value, checked) in EXPECTED.items():
        control = layout.control(eid)
        assert control.kind == kind and control.label == label
        assert control.form == (None if eid == "help" else "form")
        carriers = [p for p in pieces if p.element == eid and p.semantic is not None]
        assert len(carriers) == 1, eid
        s = carriers[0].semantic
        assert (s.role, s.label, s.value, s.focusable) == (role, label, value, True), eid
        if checked is not None:
            assert carriers[0].state.checked is checked
    assert not any(p.semantic and p.semantic.role in CONTROL_ROLES for p in layout.pieces)  # static pieces never do
    per_element = Counter(p.element for p in pieces if p.semantic is not None)
    assert per_element.pop(None, 0) == 0 and set(per_element.values()) == {1}
    roles = {p.element: p.semantic.role for p in layout.pieces if p.semantic}
    assert roles == {"title": "heading", "intro": "text", "logo": "img"}


def test_typed_values_and_focus_show_in_the_control_pieces():
    layout = layout_page(FORM, 800)
    values = {"who": "Maya", "pw": "abc", "sev": "1", "notify": "unchecked", "now": "checked", "later": "unchecked"}
    pieces = painted(layout, FORM, values, focus="who")
    sem = {p.element: (p.semantic, p.state) for p in pieces if p.semantic and p.element in EXPECTED}
    assert sem["who"][0].value == "Maya" and sem["who"][1].focused is True
    assert sem["pw"][0].value == "•••" and sem["sev"][0].value == "Sev 1"
    assert (sem["notify"][1].checked, sem["now"][1].checked, sem["later"][1].checked) == (False, True, False)
    assert "abc" not in {p.primitive.text for p in pieces if isinstance(p.primitive, Run)}  # a password never shows
    with pytest.raises(ValueError, match="sev has no option '9'"):
        control_pieces(layout.control("sev"), elements_of(FORM)["sev"], "9", focused=False, caret=None)
    with pytest.raises(ValueError, match="notify takes 'checked' or 'unchecked'"):
        control_pieces(layout.control("notify"), elements_of(FORM)["notify"], "yes", focused=False, caret=None)
    with pytest.raises(ValueError, match="control who was given element pw"):
        control_pieces(layout.control("who"), elements_of(FORM)["pw"], None, focused=False, caret=None)


def test_a_label_is_part_of_its_control():
    layout = layout_page(FORM, 800)
    label = next(p for p in layout.pieces if isinstance(p.primitive, Run) and p.primitive.text == "Notify the team")
    assert label.element == "notify"
    assert layout.hit(*label.rect.center) == "notify"
    above = next(p for p in layout.pieces if isinstance(p.primitive, Run) and p.primitive.text == "Your name")
    assert above.element == "who" and above.rect.bottom <= layout.control("who").rect.y


def test_hidden_inputs_take_no_space_and_no_control():
    without = Page("f", (Form("/x", (Input("a", id="a"), Button("Go", id="go")), id="f"),))
    with_hidden = Page("f", (Form("/x", (Input("h", type="hidden", id="h"), Input("a", id="a"),
                                         Input("h2", type="hidden", id="h2"), Button("Go", id="go")), id="f"),))
    a, b = layout_page(without, 600), layout_page(with_hidden, 600)
    assert a == b
    assert b.control("h") is None and all(p.element not in ("h", "h2") for p in b.pieces)


# -- hit and visible ------------------------------------------------------------------------------


def test_hit_finds_each_control_at_its_centre_and_nothing_in_the_margins():
    layout = layout_page(FORM, 800)
    for control in layout.controls:
        assert layout.hit(*control.rect.center) == control.id
    assert layout.hit(*layout.pieces[0].rect.center) == "title"
    for y in range(0, layout.height, 7):
        assert layout.hit(MARGIN // 2, y) is None
        assert layout.hit(800 - MARGIN // 2, y) is None
    assert layout.hit(400, layout.height - 2) is None


def long_page() -> Page:
    rng = random.Random(3)
    elements: list[Element] = []
    for i in range(150):
        kind = i % 6
        if kind == 0:
            elements.append(Heading(f"Section {i}", level=2, id=f"h{i}"))
        elif kind == 1:
            elements.append(Image("/i.png", alt="tall", width=100, height=rng.choice([30, 900]), id=f"img{i}"))
        elif kind == 2:
            elements.append(ListBlock(tuple(Link(f"link {i}.{j}", f"/l/{j}", id=f"l{i}.{j}") for j in range(4)), id=f"list{i}"))
        elif kind == 3:
            elements.append(Table(("A", "B"), ((Text(" ".join(rng.choice(WORDS) for _ in range(30)), id=f"c{i}"), Text("x", id=f"d{i}")),), id=f"t{i}"))
        else:
            elements.append(Text(" ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 60))), id=f"p{i}"))
    return Page("long", tuple(elements))


def test_visible_is_exactly_the_pieces_meeting_a_band():
    layout = layout_page(long_page(), 700)
    assert [p.rect.y for p in layout.pieces] == sorted(p.rect.y for p in layout.pieces)
    rng = random.Random(5)
    bands = [(0, 1), (0, layout.height), (layout.height, layout.height + 50), (500, 500)]
    bands += [(top, top + rng.randint(1, 900)) for top in (rng.randrange(-50, layout.height) for _ in range(200))]
    for top, bottom in bands:
        brute = [(i, p) for i, p in enumerate(layout.pieces) if top < bottom and p.rect.y < bottom and p.rect.bottom > top]
        assert layout.visible(top, bottom) == brute, (top, bottom)
    tall = next(p for p in layout.pieces if p.rect.height == 900)
    assert any(p is tall for _, p in layout.visible(tall.rect.bottom - 1, tall.rect.bottom))  # not missed under later tops


# -- tables -----------------------------------------------------------------------------------------


def test_a_table_shrinks_its_columns_to_fit_and_wraps_their_text():
    note = "Restart with systemctl restart postfix when the queue backs up at night"
    page = Page("t", (Table(("Service", "Notes"), ((Text("mail", id="m"), Text(note, id="n")),), id="t"),))
    layout = layout_page(page, 300)
    assert layout.hscrolls == ()
    assert max(p.rect.right for p in layout.pieces) <= 300 - MARGIN
    assert len(lines_of(layout, "n")) > 1 and lines_of(layout, "m") == ["mail"]
    header = [p for p in layout.pieces if p.semantic and p.semantic.role == "columnheader"]
    assert [p.semantic.label for p in header] == ["Service", "Notes"] and all(p.element is None for p in header)


def test_a_table_wider_than_the_page_scrolls_on_its_own():
    rows = tuple(tuple(Text(f"value-{r}-{c}-unbreakable", id=f"v{r}.{c}") for c in range(8)) for r in range(3))
    rows += ((Link("open", "/o", id="open"), *(Text("x", id=f"x{c}") for c in range(7))),)
    page = Page("w", (Text("before", id="before"), Table(tuple(f"Col {c}" for c in range(8)), rows, id="wide"),
                      Text("after", id="after")))
    layout = layout_page(page, 400)
    (wide,) = layout.hscrolls
    assert wide.id == "wide" and wide.rect.x == MARGIN and wide.rect.width == 400 - 2 * MARGIN
    assert wide.extent > wide.rect.width
    inside = [p for p in layout.pieces if wide.rect.y <= p.rect.y < wide.rect.bottom]
    assert inside and all(p.hscroll == "wide" for p in inside)
    assert all(p.hscroll is None for p in layout.pieces if p.element in ("before", "after"))
    assert layout.control("open").hscroll == "wide"
    assert max(p.rect.right for p in inside) == wide.rect.x + wide.extent
    # a cell scrolled into view is hit where it is shown, and not where the viewport clips it
    far = next(p for p in layout.pieces if p.element == "v0.7")
    offset = wide.extent - wide.rect.width
    x, y = far.rect.center
    assert layout.hit(x, y) is None
    assert layout.hit(x - offset, y, {"wide": offset}) == "v0.7"
    assert layout.hit(*layout.control("open").rect.center, {"wide": offset}) is None  # scrolled out of view
    assert layout.hit(*layout.control("open").rect.center) == "open"


# -- carets --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("eid, value", [("who", "Maya Chen of Northwind"), ("pw", "correct horse"),
                                        ("who", "a very long value that is much wider than the field so it has to scroll " * 2),
                                        ("body", "one two three four five six seven eight nine ten eleven twelve\nthirteen\n\nfourteen fifteen " * 3)])
def test_the_caret_moves_with_its_index_and_a_click_there_gives_it_back(eid, value):
    layout = layout_page(FORM, 700)
    control, element = layout.control(eid), elements_of(FORM)[eid]
    previous = None
    for caret in range(len(value) + 1):
        _, rect = control_pieces(control, element, value, focused=True, caret=caret)
        assert rect is not None and control.inner.x <= rect.x < control.inner.right
        assert control.inner.y <= rect.y and rect.bottom <= control.inner.bottom
        if previous is not None and rect.y == previous.y and control.kind != "textarea":
            assert rect.x >= previous.x
        previous = rect
        # a character at the caret's x lands back on it (unless it is a soft break's space)
        got = caret_index(control, element, value, rect.x, rect.y + rect.height // 2, caret=caret)
        if control.kind == "textarea" and got != caret:
            assert value[got:caret].strip(" ") == "" and abs(got - caret) <= 2
        else:
            assert got == caret
    _, unfocused = control_pieces(control, element, value, focused=False, caret=None)
    assert unfocused is None


def test_a_single_line_field_shows_the_part_of_a_long_value_around_the_caret():
    layout = layout_page(FORM, 700)
    control, element = layout.control("who"), elements_of(FORM)["who"]
    value = "start " + "middle " * 60 + "end"

    def shown(caret: int) -> str:
        pieces, _ = control_pieces(control, element, value, focused=True, caret=caret)
        return "".join(p.primitive.text for p in pieces if isinstance(p.primitive, Run))

    assert shown(0).startswith("start") and shown(len(value)).endswith("end")
    for pieces in (control_pieces(control, element, value, focused=True, caret=c)[0] for c in (0, 100, len(value))):
        assert all(control.rect.contains_rect(p.rect) for p in pieces if isinstance(p.primitive, Run))


def test_caret_index_refuses_what_has_no_caret():
    layout = layout_page(FORM, 700)
    with pytest.raises(ValueError, match="submit is a button: it has no caret"):
        caret_index(layout.control("submit"), elements_of(FORM)["submit"], None, 0, 0)


# -- determinism, memo, limits ---------------------------------------------------------------------


def test_the_same_page_lays_out_the_same_and_is_memoised():
    page = long_page()
    first = layout_page(page, 700)
    assert layout_page(page, 700) is first
    again = msgspec.json.decode(msgspec.json.encode(page), type=Page)  # an equal page, built afresh
    assert layout_page(again, 700) is first
    as_lists = msgspec.structs.replace(page, elements=list(page.elements))  # not hashable: keyed by its encoding
    assert layout_page(as_lists, 700) == first


SCRIPT = """
import sys, msgspec
sys.path.insert(0, {tests!r})
from test_layout import FORM, long_page
from cwgym.web.layout import layout_page
sys.stdout.buffer.write(msgspec.json.encode([layout_page(long_page(), 700), layout_page(FORM, 333)]))
"""


def test_the_layout_is_the_same_in_another_process():
    here = msgspec.json.encode([layout_page(long_page(), 700), layout_page(FORM, 333)])
    script = SCRIPT.format(tests=str(Path(__file__).parent))
    env = {"PYTHONHASHSEED": "12345", "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, env=env, cwd=ROOT, check=True, timeout=60)
    assert out.stdout == here


def test_a_page_too_long_names_the_element_where_layout_stopped():
    tall = Page("t", tuple(Text(f"line {i}", id=f"p-{i}") for i in range(9000)))
    with pytest.raises(LayoutError, match=r"page too long at element p-7\d\d\d: taller than 200000 px"):
        layout_page(tall, 800)
    with pytest.raises(LayoutError, match="p-7"):  # the failure is remembered, and raised again
        layout_page(tall, 800)
    cells = Table(("a",) * 10, tuple(tuple(Text("x", id=f"c{r}.{c}") for c in range(10)) for r in range(1200)), id="big")
    with pytest.raises(LayoutError, match=r"page too long at element (big|c\d+\.\d): more than 20000 pieces"):
        layout_page(Page("t", (cells,)), 800)
    huge = Page("t", (Image("/x.png", width=50, height=300_000, id="img-1"),))
    with pytest.raises(LayoutError, match="at element img-1"):
        layout_page(huge, 800)


def test_lists_indent_and_mark_their_items():
    page = Page("l", (ListBlock((Text("one", id="a"), ListBlock((Text("inner", id="b"),), id="inner"), Text("two", id="c")),
                                ordered=True, id="outer"),))
    layout = layout_page(page, 500)
    markers = [p.primitive.text for p in layout.pieces if p.element is None and isinstance(p.primitive, Run)]
    assert markers == ["1.", "◦", "2."]
    x = {p.element: p.rect.x for p in layout.pieces if p.element}
    assert x["a"] == x["c"] == MARGIN + 24 and x["b"] == MARGIN + 48


def test_controls_are_plain_data():
    layout = layout_page(FORM, 640)
    assert msgspec.json.decode(msgspec.json.encode(layout), type=PageLayout) == layout
    assert isinstance(layout.control("who"), Control) and layout.control("nope") is None
