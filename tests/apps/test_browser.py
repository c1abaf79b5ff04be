"""The browser window on the company world, driven through the actor handle: the launch
gate, the address bar and the omnibox, pointer and keyboard on every kind of control, tabs
and history, scrolling, ``browser.v1`` opening and driving the window, web apps, and a form
whose post another machine then reads.

Controls are found in the scene by their interaction ids (``window:<w>:content:el:<id>``)
and clicked where the scene's own hit testing says a click reaches them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import point

from cwgym import EnvironmentConfig, World
from cwgym.resources import load_world

M = "maya-ws"
W, H = 1280, 800
WIKI = "http://wiki.northwind.internal/wiki/On-call"
CHAT = "http://chat.northwind.internal/"
CONTROLS = "http://intranet.northwind.internal/controls.html"
CONTROLS_HTML = """<!DOCTYPE html><html lang="en"><head><title>Controls</title></head><body>
<h1>Every control</h1>
<form id="f" action="/controls.html" method="get">
<label for="who">Your name</label><input id="who" name="who">
<input id="agree" type="checkbox" name="agree" value="yes"><label for="agree">I agree</label>
<input id="size-small" type="radio" name="size" value="s"><label for="size-small">Small</label>
<input id="size-large" type="radio" name="size" value="l"><label for="size-large">Large</label>
<label for="team">Team</label><select id="team" name="team"><option value="billing">Billing</option>
<option value="platform">Platform</option><option value="support">Support</option></select>
<label for="notes">Notes</label><textarea id="notes" name="notes"></textarea>
<button id="go" type="submit">Send</button>
</form>
<table id="wide"><tr><th>Region</th>""" + "".join(f"<th>Quarter{i}Revenue</th>" for i in range(14)) + """</tr>
<tr><td>North</td>""" + "".join(f"<td>{1000 + i}</td>" for i in range(14)) + """</tr></table>
""" + "".join(f"<p>Paragraph {i} of a long page that needs scrolling to read to its end.</p>" for i in range(60)) + """
<p id="last-line">The end.</p></body></html>"""


def _world(**metadata) -> World:
    d = load_world("company")
    d["metadata"].update(metadata)
    intranet = next(s for s in d["services"] if s["id"] == "intranet")
    intranet["initial_state"]["files"]["/controls.html"] = CONTROLS_HTML
    return World(d)


def _env(world: World, *, browser: bool = True):
    config = EnvironmentConfig.desktop("maya", [M]).to_plain()
    if browser:
        config["actions"] = sorted({*config["actions"], "browser.v1"})
        config["observations"] = sorted({*config["observations"], "browser.v1"})
    return world.environment(config)


def key(name: str) -> dict:
    return {"family": "keyboard.v1", "op": "key", "machine": M, "payload": {"key": name}}


def type_(text: str) -> dict:
    return {"family": "keyboard.v1", "op": "type", "machine": M, "payload": {"text": text}}


def ptr(op: str, x: int, y: int, **payload) -> dict:
    return {"family": "pointer.v1", "op": op, "machine": M, "payload": {"x": x, "y": y, **payload}}


def one(env, action: dict) -> dict:
    return env.step([action])["outcomes"][0]


def act(env, family: str, op: str, **payload) -> dict:
    return env.step([{"family": family, "op": op, "machine": M, "payload": payload}])["outcomes"][0]


def ok(env, family: str, op: str, **payload):
    outcome = act(env, family, op, **payload)
    assert outcome["success"], outcome
    return outcome


def click(env, target: str, wid: int = 0) -> dict:
    scene = env.scene(W, H)
    at = point(scene, f"window:{wid}:content:{target}")
    assert at is not None, f"{target} cannot be reached"
    return one(env, ptr("click", *at, width=W, height=H))


def press(env, *names: str) -> dict:
    out = None
    for name in names:
        out = one(env, key(name))
        assert out["success"], (name, out)
    return out


def fields(env) -> dict[str, str]:
    return env.observe()["channels"]["browser.v1"][M]["fields"]


def title(env, wid: int = 0) -> str:
    return next(w for w in env.scene(W, H)["windows"] if w["id"] == wid)["title"]


def url(env) -> str:
    return env.observe()["channels"]["browser.v1"][M]["url"]


def elements(env) -> dict[str, dict]:
    """semantic.v1's elements by their interaction ids."""
    view = env.observe()["channels"]["semantic.v1"][M]
    return {e["id"]: e for e in view["elements"]}


def page_element(env, element_id: str, wid: int = 0) -> dict:
    found = [e for i, e in elements(env).items() if i.endswith(f":content:el:{element_id}") and i.startswith(f"window:{wid}:")]
    assert found, f"semantic.v1 has no element el:{element_id}"
    return found[0]


def open_page(env, address: str) -> None:
    press(env, "Ctrl+l")
    assert one(env, type_(address))["success"]
    press(env, "Enter")


@pytest.fixture
def env():
    e = _env(_world())
    ok(e, "application.v1", "launch", kind="browser")
    return e


# -- the gate ------------------------------------------------------------------------------


def test_the_browser_needs_browser_v1_to_launch_and_list_says_why():
    without = _env(_world(), browser=False)
    entry = next(a for a in ok(without, "application.v1", "list")["value"] if a["id"] == "browser")
    assert (entry["launchable"], entry["blocked_by"]) == (False, "browser_family_required")
    refused = act(without, "application.v1", "launch", kind="browser")
    assert (refused["success"], refused["error"]["code"], refused["error"].get("reason")) == (False, "denied", "browser_family_required")
    granted = _env(_world())
    entry = next(a for a in ok(granted, "application.v1", "list")["value"] if a["id"] == "browser")
    assert (entry["launchable"], entry["blocked_by"]) == (True, None)
    assert ok(granted, "application.v1", "launch", kind="browser")["value"] == {"window": 0}
    assert title(granted) == "New Tab — Mozilla Firefox"


def test_page_clicks_and_the_address_bar_are_gated_on_browser_v1():
    from cwgym.apps.browser import BrowserApp
    from cwgym.desktop.framework import AppContext
    from cwgym.protocol.errors import ActionError

    world = _world()
    app = BrowserApp()
    machine = world._runtime.machines[M]
    ctx = AppContext(machine, 0, (1000, 600), frozenset({"application.v1", "pointer.v1", "keyboard.v1"}))
    state = app.create(AppContext(machine, 0, (1000, 600), frozenset({"browser.v1"})), WIKI)
    with pytest.raises(ActionError) as denied:
        app.activate(ctx, state, "el:edit-link", None)
    assert denied.value.error.code == "denied"
    from cwgym.desktop.keys import parse_key

    state["focus"] = "address"
    with pytest.raises(ActionError):
        app.key(ctx, state, parse_key("Enter"))


# -- the address bar -------------------------------------------------------------------------


def test_the_address_bar_loads_a_page_and_reports_navigate(env):
    press(env, "Ctrl+l")
    one(env, type_(WIKI))
    outcome = press(env, "Enter")
    assert {"navigate", "document", "window.title"} <= set(outcome["effect"]["changed"])
    assert title(env).startswith("On-call")
    assert url(env) == WIKI
    assert page_element(env, "edit-link")["role"] == "link"


def test_the_omnibox_searches_text_and_escape_puts_the_url_back(env):
    open_page(env, "csv export")
    assert title(env) == "csv export — Search — Mozilla Firefox"
    shown = url(env)
    press(env, "Ctrl+l")
    one(env, type_("something else"))
    press(env, "Escape")
    scene = env.scene(W, H)
    address = next(n for n in scene["nodes"] if n["interaction"] == "window:0:content:address" and n["semantic"])
    assert address["semantic"]["value"] == shown


def test_a_refused_scheme_is_invalid_and_changes_nothing(env):
    open_page(env, WIKI)
    press(env, "Ctrl+l")
    one(env, type_("file:///etc/passwd"))
    refused = one(env, key("Enter"))
    assert (refused["success"], refused["error"]["code"]) == (False, "invalid")
    assert url(env) == WIKI


# -- pointer and keyboard on the page ----------------------------------------------------------


def test_a_link_click_follows_it_and_back_forward_walk_the_history(env):
    open_page(env, WIKI)
    click(env, "el:history-link")
    assert "history" in url(env).lower()
    click(env, "back")
    assert url(env) == WIKI
    press(env, "Alt+ArrowRight")
    assert "history" in url(env).lower()
    press(env, "Alt+ArrowLeft")
    assert url(env) == WIKI


def _sign_in_to_chat(env) -> None:
    open_page(env, CHAT + "login")
    click(env, "el:login-username")
    one(env, type_("maya"))
    press(env, "Tab")  # to the password field
    one(env, type_("maya-nw-2026"))
    press(env, "Enter")  # submits the form


def test_typing_into_fields_and_enter_submit_a_form(env):
    _sign_in_to_chat(env)
    assert title(env).startswith("Northwind chat")
    assert page_element(env, "signed-in")["label"] == "Signed in as Maya Chen"


def test_a_post_made_in_the_window_is_read_from_another_machine():
    world = _world()
    env = _env(world)
    ok(env, "application.v1", "launch", kind="browser")
    _sign_in_to_chat(env)
    click(env, "el:channel-general")
    click(env, "el:compose-text")
    one(env, type_("Deploy window moved to 16:00"))
    press(env, "Tab")  # to Send, scrolled into view
    assert env.scene(W, H)["focus"].get("interaction") == "window:0:content:el:compose-send"
    press(env, "Enter")
    omar = world.environment({"actor": "omar", "machines": ["omar-ws"], "actions": ["browser.v1"], "observations": []})

    def go(op, **payload):
        out = omar.step([{"family": "browser.v1", "op": op, "machine": "omar-ws", "payload": payload}])["outcomes"][0]
        assert out["success"], out
        return out["value"]

    go("navigate", url=CHAT + "login")
    go("fill", id="login-username", value="omar")
    go("fill", id="login-password", value="omar-nw-2026")
    go("submit", id="login-submit")
    page = go("navigate", url=CHAT + "c/general")
    assert "Deploy window moved to 16:00" in str(page)


def test_checkbox_radio_select_and_textarea_answer_pointer_and_keys(env):
    open_page(env, CONTROLS)
    click(env, "el:agree")
    assert fields(env)["agree"] == "checked" and page_element(env, "agree")["checked"] is True
    press(env, "Space")  # the focused checkbox toggles back
    assert fields(env)["agree"] == "unchecked"
    click(env, "el:size-large")
    assert fields(env)["size-large"] == "checked"
    click(env, "el:size-small")
    assert (fields(env)["size-small"], fields(env)["size-large"]) == ("checked", "unchecked")
    click(env, "el:team")  # opens its options
    options = {e["label"]: i for i, e in elements(env).items() if e["role"] == "option"}
    assert sorted(options) == ["Billing", "Platform", "Support"]
    click(env, options["Support"].split(":content:")[1])
    assert fields(env)["team"] == "support" and page_element(env, "team")["value"] == "Support"
    press(env, "ArrowUp")
    assert fields(env)["team"] == "platform"
    click(env, "el:notes")
    one(env, type_("line one"))
    press(env, "Enter")  # a text area takes Enter as a new line
    one(env, type_("line two"))
    assert fields(env)["notes"] == "line one\nline two"


def test_enter_in_a_field_submits_its_form_with_every_control(env):
    open_page(env, CONTROLS)
    click(env, "el:who")
    one(env, type_("maya chen"))
    click(env, "el:agree")
    click(env, "el:who")
    press(env, "Enter")
    assert url(env).startswith("http://intranet.northwind.internal/controls.html?")
    assert "who=maya+chen" in url(env) and "agree=yes" in url(env) and "team=billing" in url(env)


def test_a_click_in_a_field_puts_the_caret_where_it_lands(env):
    open_page(env, CONTROLS)
    click(env, "el:who")
    one(env, type_("abcdefghij"))
    scene = env.scene(W, H)
    field = next(n for n in scene["nodes"] if n["interaction"] == "window:0:content:el:who" and n["semantic"])
    b, t = field["bounds"], field["transform"]
    one(env, ptr("click", b["x"] + t["tx"] + 3, b["y"] + t["ty"] + b["height"] // 2, width=W, height=H))
    assert env.scene(W, H)["focus"]["caret"]["offset"] == 0
    one(env, type_(">"))
    assert fields(env)["who"] == ">abcdefghij"


def test_tabs_open_switch_and_close_by_keyboard(env):
    open_page(env, WIKI)
    press(env, "Ctrl+t")
    open_page(env, CHAT)
    scene = env.scene(W, H)
    window = next(w for w in scene["windows"] if w["id"] == 0)
    assert len(window["tabs"]) == 2 and window["active_tab"] == 1
    press(env, "Ctrl+Tab")
    assert url(env) == WIKI
    press(env, "Ctrl+Shift+Tab")
    assert url(env) == CHAT
    press(env, "Ctrl+w")
    assert url(env) == WIKI
    press(env, "Ctrl+w")  # the last tab closes the window
    assert all(w["id"] != 0 for w in env.scene(W, H).get("windows", []))


def test_page_keys_scroll_a_long_page_and_report_scroll(env):
    open_page(env, CONTROLS)
    click(env, "page")
    out = press(env, "PageDown")
    pane = next(s for s in env.scene(W, H)["scrolls"] if s["target"] == "window:0:content:pane:page")
    assert "scroll" in out["effect"]["changed"] and pane["offset"] > 0
    press(env, "End")
    pane = next(s for s in env.scene(W, H)["scrolls"] if s["target"] == "window:0:content:pane:page")
    assert pane["offset"] == pane["extent"] - pane["bounds"]["height"]
    assert page_element(env, "last-line")  # the bottom of the page is on screen
    press(env, "Home")
    assert next(s for s in env.scene(W, H)["scrolls"] if s["target"] == "window:0:content:pane:page")["offset"] == 0


def test_a_wide_table_scrolls_sideways(env):
    ok(env, "browser.v1", "navigate", url=CONTROLS)
    rows = [s for s in env.scene(W, H)["scrolls"] if s["horizontal"]]
    assert len(rows) == 1 and rows[0]["target"] == "window:0:content:pane:row:wide"
    ok(env, "browser.v1", "scroll", row="wide", x=200)
    assert next(s for s in env.scene(W, H)["scrolls"] if s["horizontal"])["offset"] == 200


# -- browser.v1 on a desktop --------------------------------------------------------------------


def test_browser_v1_opens_a_window_once_and_drives_it():
    env = _env(_world())
    first = ok(env, "browser.v1", "navigate", url=WIKI)
    assert "window.opened" in first["effect"]["changed"] and first["value"]["title"].startswith("On-call")
    second = ok(env, "browser.v1", "click", id="history-link")
    assert "window.opened" not in second["effect"]["changed"]
    assert {"navigate", "document"} <= set(second["effect"]["changed"])
    assert len(env.scene(W, H)["windows"]) == 1


def test_an_unknown_op_is_invalid_without_a_reason_and_the_window_stays():
    env = _env(_world())
    out = act(env, "browser.v1", "dance")
    assert (out["success"], out["error"]["code"]) == (False, "invalid")
    assert "reason" not in out["error"] or out["error"]["reason"] is None
    assert len(env.scene(W, H)["windows"]) == 1


def test_browser_v1_scroll_and_key_act_on_the_window():
    env = _env(_world())
    ok(env, "browser.v1", "navigate", url=WIKI)
    assert not act(env, "browser.v1", "scroll", y=-3)["success"]
    assert not act(env, "browser.v1", "scroll", row="nope", x=3)["success"]
    ok(env, "browser.v1", "key", key="Ctrl+t")
    assert url(env) == "about:blank"


# -- web apps -------------------------------------------------------------------------------------


def test_a_worlds_web_app_is_listed_and_opens_the_browser_at_its_url():
    env = _env(_world(desktop_apps={"wiki": {"url": "http://wiki.northwind.internal/", "label": "Wiki"}}))
    entry = next(a for a in ok(env, "application.v1", "list")["value"] if a["id"] == "wiki")
    assert (entry["kind"], entry["label"], entry["launchable"]) == ("web", "Wiki", True)
    ok(env, "application.v1", "launch", kind="wiki")
    assert url(env) == "http://wiki.northwind.internal/"
    gated = _env(_world(desktop_apps={"wiki": "http://wiki.northwind.internal/"}), browser=False)
    entry = next(a for a in ok(gated, "application.v1", "list")["value"] if a["id"] == "wiki")
    assert entry["blocked_by"] == "browser_family_required"


@pytest.mark.parametrize(("apps", "where"), [
    ({"files": "http://x.internal/"}, "desktop_apps.files"),
    ({"Wiki!": "http://x.internal/"}, "desktop_apps.Wiki!"),
    ({"wiki": "ftp://x.internal/"}, "desktop_apps.wiki"),
    ({"wiki": {"url": "http://x.internal/", "icon": "w"}}, "desktop_apps.wiki.icon"),
    ([], "desktop_apps"),
])
def test_malformed_web_apps_refuse_the_world_naming_the_entry(apps, where):
    from cwgym.protocol.definition import DefinitionError

    with pytest.raises(DefinitionError, match=None) as refused:
        _world(desktop_apps=apps)
    assert where in str(refused.value)


def test_a_malformed_search_engine_refuses_the_world():
    from cwgym.protocol.definition import DefinitionError

    with pytest.raises(DefinitionError) as refused:
        _world(search_engine="https://search.example/?q=")
    assert "search_engine" in str(refused.value)


def test_a_page_too_large_to_lay_out_says_so_and_names_where():
    d_page = "<h1>Huge</h1>" + "".join(f"<p id='p{i}'>line {i}</p>" for i in range(12_000))
    world_def = load_world("company")
    intranet = next(s for s in world_def["services"] if s["id"] == "intranet")
    intranet["initial_state"]["files"]["/huge.html"] = d_page
    env = _env(World(world_def))
    ok(env, "browser.v1", "navigate", url="http://intranet.northwind.internal/huge.html")
    assert url(env).endswith("/huge.html")  # the page loaded; the window says why it cannot show it
    detail = next(e for i, e in elements(env).items() if i.endswith("el:error-detail"))
    assert "too long" in detail["label"]


def test_windows_share_the_profiles_cookies_kept_in_the_home_folder():
    world = _world()
    env = _env(world)
    ok(env, "application.v1", "launch", kind="browser")
    _sign_in_to_chat(env)
    ok(env, "application.v1", "launch", kind="browser")  # a second window: the same profile
    ok(env, "browser.v1", "navigate", url=CHAT)
    assert page_element(env, "signed-in", wid=1)["label"] == "Signed in as Maya Chen"
    jar = world._runtime.machines[M].fs.read_path("/home/maya/.mozilla/firefox/cookies.json")
    assert b"chat.northwind.internal" in jar


def test_effects_carry_navigate_and_the_new_url():
    env = _env(_world())
    first = ok(env, "browser.v1", "navigate", url=WIKI)
    assert {"navigate", "content", "window.opened"} <= set(first["effect"]["changed"])
    assert first["effect"]["url"] == WIKI
    moved = ok(env, "browser.v1", "click", id="history-link")
    assert moved["effect"]["url"] != WIKI and "navigate" in moved["effect"]["changed"]
    typed = ok(env, "keyboard.v1", "key", key="Ctrl+l")
    assert "url" not in typed["effect"] and "navigate" not in typed["effect"]["changed"]
    headless = _world().environment({"actor": "maya", "machines": [M], "actions": ["browser.v1"], "observations": []})
    out = headless.step([{"family": "browser.v1", "op": "navigate", "machine": M, "payload": {"url": WIKI}}])["outcomes"][0]
    assert out["effect"]["url"] == WIKI and {"navigate", "document"} <= set(out["effect"]["changed"])


def test_a_browser_window_survives_snapshot_restore_fork_and_export():
    world = _world()
    env = _env(world)
    ok(env, "browser.v1", "navigate", url=WIKI)
    saved, digest = world.snapshot(), world.state_hash()
    ok(env, "browser.v1", "click", id="history-link")
    world.restore(saved)
    assert url(env) == WIKI and world.state_hash() == digest
    fork = world.fork()
    assert fork.state_hash() == digest
    text = world.export_snapshot()
    other = _world()
    other.import_snapshot(text)
    assert other.state_hash() == digest
    moved = ok(env, "browser.v1", "click", id="history-link")  # the restored window goes on browsing
    assert "history" in moved["effect"]["url"].lower()
