"""The page model's native widgets without a window: disclosures, dialogs, sliders,
number and time fields, suggestions, reorderable lists, and date and colour pickers — their HTML both ways, the values they take, their layout, and the
engine's fill, click and submit through :mod:`cwgym.apps._browser_model`."""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest

from cwgym.apps import _browser_model as widgets
from cwgym.protocol.html_reader import check_html, parse_html
from cwgym.protocol.page import (
    PALETTE,
    Button,
    Details,
    Dialog,
    Form,
    Input,
    Link,
    Page,
    Range,
    SortList,
    Text,
    assign_ids,
    color_value,
    date_parts,
    page_json,
    projection,
    range_value,
    stepped,
    suggestion_matches,
    to_html,
    value_problem,
)
from cwgym.web import engine
from cwgym.web.engine import EngineError
from cwgym.web.layout import (
    calendar_pieces,
    control_pieces,
    layout_page,
    palette_pieces,
    slider_value_at,
    sort_row_at,
    suggestion_pieces,
)

PAGE = assign_ids(Page("Widgets", (
    Details(summary="More options", children=(Link("Hidden link", "/x", id="deep"),), id="more"),
    Form(action="/go", method="GET", id="f", children=(
        Range(name="vol", label="Volume", min="0", max="10", step="2", id="vol"),
        Input(name="n", label="Count", type="number", min="1", max="9", step="2", id="n"),
        Input(name="t", label="Time", type="time", id="t"),
        Details(summary="Extra", children=(Input(name="note", id="note"),), id="extra"),
        Button("Go", id="go"),
    )),
)))
DIALOG = assign_ids(Page("Confirm", (
    Text("Behind", id="behind"), Link("Away", "/away", id="away"),
    Dialog(title="Are you sure?", id="dlg", children=(
        Text("This cannot be undone."),
        Form(action="/answer", method="GET", id="df", children=(Button("Yes", name="a", value="yes", id="yes"),)),
    )),
)))


def test_widgets_round_trip_through_html():
    for page in (PAGE, DIALOG):
        html = to_html(page)
        check_html(html, "widgets.html")
        assert parse_html(html, "http://x/") == page


def test_any_html_reads_widgets_as_a_browser_shows_them():
    html = ("<body><details open id=d><summary>Show <b>it</b></summary><p>Inside</p></details>"
            "<dialog><p>closed dialogs show nothing</p></dialog>"
            "<dialog open aria-label=Hello id=g><p>Hi</p></dialog>"
            "<label>Level <input type=range name=l min=1 max=5></label>"
            "<input type=time name=t value=08:30><input type=number name=n step=0.5 max=3></body>")
    check_html(html, "page.html")
    d, g, r, t, n = parse_html(html, "http://x/").elements
    assert d == Details(id="d", summary="Show it", children=(Text("Inside"),), open=True)
    assert g == Dialog(id="g", title="Hello", children=(Text("Hi"),))
    assert r == Range(name="l", label="Level", min="1", max="5")
    assert (t.type, t.value, n.type, n.step, n.max) == ("time", "08:30", "number", "0.5", "3")


def test_values_are_sanitised_and_stepped_as_html_does():
    r = Range(name="r", min="0", max="10", step="3")
    assert range_value(r) == "6"  # the middle, put on a step
    assert [range_value(r, v) for v in ("10", "4.4", "-3", "x")] == ["9", "3", "0", "6"]
    assert stepped(r, "9", 1) == "9" and stepped(r, "3", -5) == "0"
    n = Input(name="n", type="number", min="1", max="9", step="2")
    assert [stepped(n, "", 1), stepped(n, "3", 1), stepped(n, "4", 1), stepped(n, "4", -1), stepped(n, "9", 1)] == \
        ["1", "5", "5", "3", "9"]
    assert value_problem(r, "6") is None and "steps of 3" in value_problem(r, "7")
    assert value_problem(n, "x") and value_problem(n, "") is None
    time = Input(name="t", type="time")
    assert value_problem(time, "25:00") and value_problem(time, "9:05") and value_problem(time, "09:05") is None


def test_layout_shows_details_children_only_when_open():
    closed = layout_page(PAGE, 800)
    assert closed.control("more").kind == "details" and closed.control("deep") is None
    opened = layout_page(widgets._opened(PAGE, (("more", "open"),)), 800)
    assert opened.control("deep") is not None
    assert opened.control("vol").rect.y > closed.control("vol").rect.y
    pieces, _ = control_pieces(closed.control("more"), PAGE.elements[0], None, focused=False, caret=None)
    assert (pieces[0].semantic.role, pieces[0].state.expanded) == ("button", False)


def test_slider_and_spinner_pieces():
    layout = layout_page(PAGE, 800)
    vol, element = layout.control("vol"), PAGE.elements[1].children[0]
    assert vol.kind == "slider"
    pieces, _ = control_pieces(vol, element, "4", focused=True, caret=None)
    assert (pieces[0].semantic.role, pieces[0].semantic.value, pieces[0].state.focused) == ("slider", "4", True)
    assert slider_value_at(vol, element, vol.inner.x) == "0"
    assert slider_value_at(vol, element, vol.inner.right) == "10"
    assert slider_value_at(vol, element, vol.inner.x + vol.inner.width // 2) == "6"  # 5 is off-step: the next up
    n = layout.control("n")
    pieces, _ = control_pieces(n, PAGE.elements[1].children[1], "3", focused=False, caret=None)
    assert pieces[0].semantic.role == "spinbutton"
    assert {p.element for p in pieces} >= {"n:up", "n:down"}


def test_a_dialog_is_laid_out_apart_from_the_page():
    layout = layout_page(DIALOG, 800)
    assert layout.dialog is not None and layout.dialog.title == "Are you sure?"
    assert layout.control("yes") is None and layout.dialog.layout.control("yes") is not None
    assert layout.control("away") is not None


class _Server:
    """A request path that answers every request with the page ``pages[path]`` and keeps
    the requests."""

    def __init__(self, pages: dict[str, Page]) -> None:
        self.pages, self.requests = pages, []

    def __call__(self, method, url, headers, body):
        self.requests.append((method, url))
        path = url.split("://", 1)[1].split("/", 1)[1].split("?")[0]
        page = self.pages.get("/" + path, Page("Done"))
        return 200, [("Content-Type", engine.PAGE_TYPE)], page_json(page)


def _open(page: Page) -> tuple[engine.Browser, _Server]:
    server = _Server({"/": page})
    b = engine.navigate(engine.open_browser(), "http://site.test/", server, lambda h: True)
    return b, server


def test_fill_click_and_submit_know_the_widgets():
    b, server = _open(PAGE)
    b = widgets.click(b, "more", server)
    assert b.values()["more"] == "open" and server.requests == [("GET", "http://site.test/")]
    shown = widgets.shown(b)
    assert shown.elements[0].open is True
    b = widgets.fill(b, "vol", "8")
    with pytest.raises(EngineError) as bad:
        widgets.fill(b, "vol", "7")
    assert bad.value.code == "invalid"
    with pytest.raises(EngineError):
        widgets.fill(b, "t", "24:00")
    b = widgets.fill(widgets.fill(b, "t", "07:45"), "note", "inside a closed disclosure")
    b = widgets.fill(b, "n", "5")
    assert widgets.observation(b)["page"]["elements"][1]["children"][0]["value"] == "8"
    b = widgets.click(b, "go", server)
    method, url = server.requests[-1]
    assert method == "GET" and dict(parse_qsl(url.split("?", 1)[1])) == {
        "vol": "8", "n": "5", "t": "07:45", "note": "inside a closed disclosure"}


def test_a_slider_submits_its_default_value():
    b, server = _open(PAGE)
    widgets.submit(b, "go", server)
    assert "vol=6" in server.requests[-1][1]  # the middle of 0..10 on a step of 2


def test_the_page_behind_a_dialog_is_inert():
    b, server = _open(DIALOG)
    for op in (lambda: widgets.click(b, "away", server), lambda: widgets.submit(b, "away", server)):
        with pytest.raises(EngineError) as refused:
            op()
        assert refused.value.code == "invalid" and "behind the dialog" in refused.value.message
    b = widgets.click(b, "yes", server)
    assert server.requests[-1] == ("GET", "http://site.test/answer?a=yes")
    assert projection(b.page())["title"] == "Done"


# -- suggestions, reorderable lists, date and colour fields -----------------------------------

CITIES = (*(f"Par{c}" for c in "abcdefghij"), "Prague", "Oslo")
MORE = assign_ids(Page("More widgets", (
    Form(action="/more", method="GET", id="m", children=(
        Input(name="city", label="City", suggestions=CITIES, id="city"),
        SortList(name="rank", items=("Apples", "Bananas", "Cherries"), label="Rank them", id="rank"),
        Input(name="when", label="When", type="date", id="when"),
        Input(name="paint", label="Paint", type="color", id="paint"),
        Button("Go", id="mgo"),
    )),
)))


def test_new_widgets_round_trip_through_html():
    html = to_html(MORE)
    check_html(html, "more.html")
    assert '<input id="city" type="text" name="city" list="city-list"><datalist id="city-list">' in html
    assert '<ol id="rank" data-sortable name="rank" aria-label="Rank them">' in html
    assert parse_html(html, "http://x/") == MORE


def test_any_html_reads_datalists_sortable_lists_and_colours():
    html = ("<body><label>City <input list=towns name=c></label>"
            "<datalist id=towns><option value=Oslo><option>Bergen</option><option value=''></datalist>"
            "<ol data-sortable name=n aria-label=' Order '><li>one <b>1</b></li><li>two</li></ol>"
            "<input type=color name=k value=#FF0000><input type=date name=d></body>")
    check_html(html, "page.html")
    c, n, k, d = parse_html(html, "http://x/").elements
    assert (c.label, c.suggestions) == ("City", ("Oslo", "Bergen"))
    assert n == SortList(name="n", items=("one 1", "two"), label="Order")
    assert (k.type, color_value(k), d.type) == ("color", "#ff0000", "date")


def test_suggestions_dates_colours_and_orders_take_what_html_does():
    city = MORE.elements[0].children[0]
    assert suggestion_matches(city, "") == () and suggestion_matches(city, "pr") == ("Prague",)
    assert suggestion_matches(city, "PAR") == tuple(f"Par{c}" for c in "abcdefgh")  # at most 8
    when = Input(name="d", type="date")
    assert date_parts("2026-02-28") == (2026, 2, 28) and date_parts("2026-02-29") is None
    assert value_problem(when, "2028-02-29") is None and value_problem(when, "") is None
    assert "YYYY-MM-DD" in value_problem(when, "14/03/2026")
    paint = Input(name="p", type="color")
    assert color_value(paint) == "#000000" and value_problem(paint, "#00FF00") is None and value_problem(paint, "red")
    rank = MORE.elements[0].children[1]
    assert value_problem(rank, "Cherries\nApples\nBananas") is None
    assert "permutation" in value_problem(rank, "Cherries\nApples")
    assert len(PALETTE) == 16 and dict(PALETTE)["teal"] == "#008080"


def test_layout_of_the_new_widgets_and_their_popups():
    layout = layout_page(MORE, 800)
    rank = layout.control("rank")
    element = MORE.elements[0].children[1]
    assert rank.kind == "sortlist" and rank.rect.height == 3 * 28 + 2
    pieces, _ = control_pieces(rank, element, "Bananas\nApples\nCherries", focused=True, caret=1)
    rows = [p for p in pieces if p.semantic is not None and p.semantic.role == "option"]
    assert [r.semantic.label for r in rows] == ["Bananas", "Apples", "Cherries"]
    assert [r.element for r in rows] == ["rank:0", "rank:1", "rank:2"] and rows[1].state.selected is True
    assert sort_row_at(rank, element, rows[2].rect.y + 3) == 2 and sort_row_at(rank, element, rank.rect.bottom + 90) == 2
    with pytest.raises(ValueError):
        control_pieces(rank, element, "Bananas", focused=False, caret=None)
    when = layout.control("when")
    pieces, _ = control_pieces(when, MORE.elements[0].children[2], "", focused=False, caret=None, expanded=True)
    assert pieces[0].state.expanded is True and "when:calendar" in {p.element for p in pieces}
    month = calendar_pieces(when, 2026, 3, "2026-03-14")
    days = [p for p in month if p.element.startswith("day:") and p.semantic is not None]
    assert len(days) == 31 and days[13].semantic.label == "14 March 2026" and days[13].state.selected is True
    assert days[0].element == "day:when:2026-03-01" and days[0].rect.x == days[7].rect.x > days[1].rect.x  # a Sunday
    assert {p.element for p in month} >= {"cal:when:prev", "cal:when:next"} and month[0].semantic.label == "March 2026"
    paint = layout.control("paint")
    assert paint.kind == "color"
    pieces, _ = control_pieces(paint, MORE.elements[0].children[3], "#008080", focused=False, caret=None)
    assert (pieces[0].semantic.role, pieces[0].semantic.value) == ("button", "#008080")
    swatches = [p for p in palette_pieces(paint, "#008080") if p.element.startswith("swatch:")]
    assert [s.semantic.label for s in swatches] == [n for n, _ in PALETTE]
    assert swatches[15].primitive.color == (0, 128, 128, 255) and swatches[15].state.selected is True
    city = layout.control("city")
    pieces, _ = control_pieces(city, MORE.elements[0].children[0], "Pr", focused=True, caret=None)
    assert pieces[0].semantic.role == "combobox"
    listed = suggestion_pieces(city, ("Prague",), 0)
    assert listed[1].element == "sug:city:0" and listed[1].state.selected is True and listed[1].rect.y > city.rect.bottom


def test_orders_and_colours_fill_and_submit():
    b, server = _open(MORE)
    with pytest.raises(EngineError) as bad:
        widgets.fill(b, "rank", "Cherries\nApples")
    assert bad.value.code == "invalid"
    b = widgets.fill(b, "rank", "Cherries\nApples\nBananas")
    assert widgets.shown(b).elements[0].children[1].items == ("Cherries", "Apples", "Bananas")
    assert widgets.laid_out(b).elements[0].children[1].items[0] == "Cherries"
    with pytest.raises(EngineError):
        widgets.fill(b, "paint", "teal")
    with pytest.raises(EngineError):
        widgets.fill(b, "when", "2026-13-01")
    b = widgets.fill(widgets.fill(b, "paint", "#00FFFF"), "when", "2026-03-14")
    b = widgets.fill(b, "city", "Anywhere")  # suggestions are only suggestions
    widgets.click(b, "mgo", server)
    query = server.requests[-1][1].split("?", 1)[1]
    assert parse_qsl(query) == [("city", "Anywhere"), ("rank", "Cherries"), ("rank", "Apples"), ("rank", "Bananas"),
                                ("when", "2026-03-14"), ("paint", "#00ffff")]


def test_an_untouched_colour_submits_black_and_a_list_its_own_order():
    b, server = _open(MORE)
    widgets.submit(b, "mgo", server)
    assert parse_qsl(server.requests[-1][1].split("?", 1)[1], keep_blank_values=True) == [("city", ""),
        ("rank", "Apples"), ("rank", "Bananas"), ("rank", "Cherries"), ("when", ""), ("paint", "#000000")]
