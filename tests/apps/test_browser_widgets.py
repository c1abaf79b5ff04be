"""The browser window's native widgets on the company world: a disclosure, a slider, a
number spinner and a time field in a form the intranet serves, a modal dialog whose page
behind is inert, the kiosk window without chrome, and a field's suggestions, a reorderable
list, a date picker and a colour picker.

Controls are found in the scene by their interaction ids and clicked where the scene's own
hit testing says a click reaches them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import parse_qsl, urlsplit

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import point

from cwgym import EnvironmentConfig, World
from cwgym.desktop.framework import AppContext
from cwgym.desktop.seat import Seat
from cwgym.resources import load_world

M = "maya-ws"
W, H = 1280, 800
BASE = "http://intranet.northwind.internal"
WIDGETS_HTML = """<!DOCTYPE html><html lang="en"><head><title>Widgets</title></head><body>
<h1>Widgets</h1>
<details id="more"><summary>More options</summary><p id="secret">The hidden text.</p></details>
<form id="f" action="/widgets.html" method="get">
<label for="vol">Volume</label><input id="vol" type="range" name="vol" min="0" max="10" step="2">
<label for="n">Count</label><input id="n" type="number" name="n" min="1" max="9" step="2">
<label for="t">Time</label><input id="t" type="time" name="t">
<button id="go" type="submit">Send</button>
</form></body></html>"""
DIALOG_HTML = """<!DOCTYPE html><html lang="en"><head><title>Dialog</title></head><body>
<p id="behind">The page behind.</p><a id="away" href="/widgets.html">Away</a>
<dialog open aria-label="Delete the file?" id="dlg"><p>This cannot be undone.</p>
<form id="df" action="/widgets.html" method="get"><button id="yes" name="answer" value="yes">Delete</button>
<button id="no" name="answer" value="no">Cancel</button></form></dialog></body></html>"""

MORE_HTML = """<!DOCTYPE html><html lang="en"><head><title>More</title></head><body>
<form id="mf" action="/more.html" method="get">
<label for="city">City</label><input id="city" name="city" list="towns">
<datalist id="towns"><option value="Paris"><option value="Prague"><option value="Oslo"></datalist>
<ol id="rank" data-sortable name="rank" aria-label="Rank"><li>Apples</li><li>Bananas</li><li>Cherries</li></ol>
<label for="when">When</label><input id="when" type="date" name="when">
<label for="paint">Paint</label><input id="paint" type="color" name="paint">
<button id="send" type="submit">Send</button>
</form></body></html>"""


@pytest.fixture
def env():
    d = load_world("company")
    files = next(s for s in d["services"] if s["id"] == "intranet")["initial_state"]["files"]
    files["/widgets.html"], files["/dialog.html"], files["/more.html"] = WIDGETS_HTML, DIALOG_HTML, MORE_HTML
    config = EnvironmentConfig.desktop("maya", [M]).to_plain()
    config["actions"] = sorted({*config["actions"], "browser.v1"})
    config["observations"] = sorted({*config["observations"], "browser.v1"})
    return World(d).environment(config)


def act(env, family: str, op: str, **payload) -> dict:
    return env.step([{"family": family, "op": op, "machine": M, "payload": payload}])["outcomes"][0]


def browse(env, path: str) -> None:
    assert act(env, "browser.v1", "navigate", url=BASE + path)["success"]


def at(env, target: str) -> tuple[int, int] | None:
    return point(env.scene(W, H), f"window:0:content:{target}")


def click(env, target: str) -> dict:
    where = at(env, target)
    assert where is not None, f"{target} cannot be reached"
    return act(env, "pointer.v1", "click", x=where[0], y=where[1], width=W, height=H)


def key(env, *names: str) -> None:
    for name in names:
        assert act(env, "keyboard.v1", "key", key=name)["success"], name


def channel(env) -> dict:
    return env.observe()["channels"]["browser.v1"][M]


def element(env, target: str) -> dict:
    view = env.observe()["channels"]["semantic.v1"][M]
    return next(e for e in view["elements"] if e["id"] == f"window:0:content:{target}")


def test_a_disclosure_opens_on_a_click_and_closes_on_enter(env):
    browse(env, "/widgets.html")
    assert at(env, "el:secret") is None and element(env, "el:more")["expanded"] is False
    assert click(env, "el:more")["success"]
    assert at(env, "el:secret") is not None and element(env, "el:more")["expanded"] is True
    assert channel(env)["fields"]["more"] == "open" and channel(env)["url"] == BASE + "/widgets.html"
    key(env, "Enter")
    assert at(env, "el:secret") is None and channel(env)["fields"]["more"] == "closed"


def test_a_slider_follows_the_pointer_and_the_keys(env):
    browse(env, "/widgets.html")
    assert element(env, "slider:vol")["value"] == "6"
    x, y = at(env, "slider:vol")
    for op, px in (("down", x), ("move", x - 60), ("move", x - 400), ("up", x - 400)):  # dragged off its left end
        assert act(env, "pointer.v1", op, x=px, y=y, width=W, height=H)["success"], op
    assert channel(env)["fields"]["vol"] == "0" and element(env, "slider:vol")["focused"] is True
    assert click(env, "slider:vol")["success"]  # a press in the middle of the track: the nearest step
    assert channel(env)["fields"]["vol"] == "6"
    key(env, "ArrowRight", "ArrowRight")
    assert channel(env)["fields"]["vol"] == "10"
    key(env, "Home")
    assert element(env, "slider:vol")["value"] == "0"
    refused = act(env, "browser.v1", "fill", id="vol", value="3")
    assert not refused["success"] and refused["error"]["code"] == "invalid"
    assert act(env, "browser.v1", "fill", id="vol", value="4")["success"]
    assert element(env, "slider:vol")["value"] == "4"


def test_a_number_spinner_and_a_time_field(env):
    browse(env, "/widgets.html")
    assert element(env, "el:n")["role"] == "spinbutton"
    assert click(env, "el:n:up")["success"]
    assert channel(env)["fields"]["n"] == "1"
    assert click(env, "el:n:up")["success"] and click(env, "el:n:up")["success"]
    key(env, "ArrowDown")
    assert channel(env)["fields"]["n"] == "3"
    refused = act(env, "keyboard.v1", "type", text="x")
    assert not refused["success"] and channel(env)["fields"]["n"] == "3"
    assert click(env, "el:t")["success"]
    assert act(env, "keyboard.v1", "type", text="09:4")["success"]
    assert not act(env, "keyboard.v1", "type", text="x")["success"]
    assert not act(env, "keyboard.v1", "type", text="9")["success"] or channel(env)["fields"]["t"] == "09:49"
    assert channel(env)["fields"]["t"] in ("09:4", "09:49")
    assert not act(env, "browser.v1", "fill", id="t", value="24:10")["success"]
    assert act(env, "browser.v1", "fill", id="t", value="23:10")["success"]
    assert click(env, "el:go")["success"]
    query = dict(parse_qsl(urlsplit(channel(env)["url"]).query))
    assert query == {"vol": "6", "n": "3", "t": "23:10"}


def test_a_dialog_keeps_the_page_behind_it_inert(env):
    browse(env, "/dialog.html")
    assert element(env, "el:dlg")["role"] == "dialog" and element(env, "el:dlg")["label"] == "Delete the file?"
    assert at(env, "el:away") is None  # under the backdrop
    refused = click(env, "backdrop")
    assert not refused["success"] and refused["error"]["code"] == "invalid"
    refused = act(env, "browser.v1", "click", id="away")
    assert not refused["success"] and refused["error"]["code"] == "invalid"
    key(env, "Tab")  # a dialog keeps Tab: the address bar, then its own buttons
    key(env, "Tab")
    assert element(env, "el:yes")["focused"] is True
    key(env, "Tab", "Tab", "Tab")  # Cancel, the address bar, Delete again: never the page behind
    assert element(env, "el:yes")["focused"] is True
    assert click(env, "el:no")["success"]
    assert channel(env)["url"] == BASE + "/widgets.html?answer=no"


class _KioskContext(AppContext):
    __slots__ = ()
    theme = SimpleNamespace(kiosk=True)


def test_a_kiosk_window_has_no_chrome_but_keeps_its_keys(env, monkeypatch):
    made = Seat.app_context

    def kiosk_context(self, win, *, scroll=None):
        ctx = made(self, win, scroll=scroll)
        ctx.__class__ = _KioskContext
        return ctx

    monkeypatch.setattr(Seat, "app_context", kiosk_context)
    browse(env, "/widgets.html")
    assert at(env, "address") is None and at(env, "back") is None and at(env, "new-tab") is None
    assert click(env, "el:more")["success"] and channel(env)["fields"]["more"] == "open"
    key(env, "Ctrl+l")
    assert act(env, "keyboard.v1", "type", text=BASE + "/dialog.html")["success"]
    key(env, "Enter")
    assert channel(env)["url"] == BASE + "/dialog.html"
    key(env, "Ctrl+t")
    assert len(next(w for w in env.scene(W, H)["windows"] if w["id"] == 0)["tabs"]) == 2


def query(env) -> list[tuple[str, str]]:
    return parse_qsl(urlsplit(channel(env)["url"]).query, keep_blank_values=True)


def test_suggestions_drop_down_as_a_field_is_typed_into(env):
    browse(env, "/more.html")
    assert element(env, "el:city")["role"] == "combobox"
    assert click(env, "el:city")["success"] and at(env, "sug:city:0") is None  # nothing typed yet
    assert act(env, "keyboard.v1", "type", text="p")["success"]
    assert element(env, "sug:city:0")["label"] == "Paris" and element(env, "sug:city:1")["label"] == "Prague"
    assert at(env, "sug:city:2") is None and element(env, "el:city")["expanded"] is True
    assert click(env, "sug:city:1")["success"]
    assert channel(env)["fields"]["city"] == "Prague" and at(env, "sug:city:0") is None
    assert channel(env)["url"] == BASE + "/more.html"  # picking does not submit
    key(env, "Backspace", "Backspace", "Backspace", "Backspace")  # "Pr"
    key(env, "ArrowDown")
    assert element(env, "sug:city:0")["selected"] is True
    key(env, "Enter")
    assert channel(env)["fields"]["city"] == "Prague" and channel(env)["url"] == BASE + "/more.html"
    assert act(env, "keyboard.v1", "type", text="x")["success"] and at(env, "sug:city:0") is None  # no match
    key(env, "Backspace", "Backspace")
    assert at(env, "sug:city:0") is not None
    key(env, "Escape")
    assert at(env, "sug:city:0") is None


def test_a_sortable_list_reorders_by_drag_and_by_keys(env):
    browse(env, "/more.html")
    assert element(env, "el:rank")["role"] == "listbox" and element(env, "row:rank:0")["label"] == "Apples"
    x, y = at(env, "row:rank:0")
    _, y2 = at(env, "row:rank:2")
    for op, py in (("down", y), ("move", y + 20), ("up", y2)):
        assert act(env, "pointer.v1", op, x=x, y=py, width=W, height=H)["success"], op
    assert channel(env)["fields"]["rank"] == "Bananas\nCherries\nApples"
    assert element(env, "row:rank:2")["label"] == "Apples" and element(env, "row:rank:2")["focused"] is True
    key(env, "Alt+ArrowUp", "Alt+ArrowUp")
    assert channel(env)["fields"]["rank"] == "Apples\nBananas\nCherries"
    key(env, "ArrowDown", "Alt+ArrowDown")
    assert channel(env)["fields"]["rank"] == "Apples\nCherries\nBananas"
    refused = act(env, "browser.v1", "fill", id="rank", value="Apples\nBananas")
    assert not refused["success"] and refused["error"]["code"] == "invalid"
    assert act(env, "browser.v1", "fill", id="rank", value="Cherries\nBananas\nApples")["success"]
    assert element(env, "row:rank:0")["label"] == "Cherries"
    assert click(env, "el:send")["success"]
    assert [v for k, v in query(env) if k == "rank"] == ["Cherries", "Bananas", "Apples"]


def test_a_date_picker_opens_at_the_world_date_and_picks_a_day(env):
    browse(env, "/more.html")
    assert click(env, "el:when:calendar")["success"]
    assert element(env, "el:when")["expanded"] is True
    assert at(env, "day:when:2026-09-17") is not None  # the world's clock reads 17 September 2026
    assert click(env, "cal:when:next")["success"]
    assert element(env, "day:when:2026-10-14")["label"] == "14 October 2026"
    assert click(env, "day:when:2026-10-14")["success"]
    assert channel(env)["fields"]["when"] == "2026-10-14" and at(env, "day:when:2026-10-01") is None
    assert click(env, "el:when:calendar")["success"]  # opens at the field's month
    assert element(env, "day:when:2026-10-14")["selected"] is True
    key(env, "PageUp")
    assert at(env, "day:when:2026-09-30") is not None
    key(env, "Escape")
    assert at(env, "day:when:2026-09-30") is None
    for _ in range(10):
        key(env, "Backspace")
    assert act(env, "keyboard.v1", "type", text="2027-01-05")["success"]  # typing still works
    assert not act(env, "browser.v1", "fill", id="when", value="2027-02-30")["success"]
    assert click(env, "el:send")["success"] and ("when", "2027-01-05") in query(env)


def test_a_colour_picker_offers_the_named_palette(env):
    browse(env, "/more.html")
    assert (element(env, "el:paint")["role"], element(env, "el:paint")["value"]) == ("button", "#000000")
    assert click(env, "el:paint")["success"]
    assert element(env, "swatch:paint:15")["label"] == "teal"
    assert click(env, "swatch:paint:15")["success"]
    assert channel(env)["fields"]["paint"] == "#008080" and at(env, "swatch:paint:0") is None
    key(env, "Enter")  # the palette again, and the arrows through it
    key(env, "ArrowLeft", "ArrowUp")
    assert channel(env)["fields"]["paint"] == "#808080"
    assert not act(env, "keyboard.v1", "type", text="red")["success"]
    key(env, "Escape")
    assert at(env, "swatch:paint:0") is None
    assert act(env, "browser.v1", "fill", id="paint", value="#FFA500")["success"]
    assert click(env, "el:send")["success"] and ("paint", "#ffa500") in query(env)
