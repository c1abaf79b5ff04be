"""The docs application (LibreOffice Writer), driven only through the actor handle.

Controls are found in the scene by interaction, role and label, text by what is painted;
files are checked through the owner's machine.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import M, app, key, ok, one, point, ptr, type_

from cwgym import EnvironmentConfig, World
from cwgym.apps import _richtext as rt
from cwgym.apps import docs as docs_app
from cwgym.machine.recent import recent
from cwgym.resources import load_world

W, H = 1280, 800
HOME = "/home/ada"
REPORT = (
    "# Quarterly report\n\n## Summary\n\nRevenue grew in every region except the north.\n\n"
    "## Next steps\n\n- Close the September books\n- Review vendor contracts\n"
)


def _world(files: dict | None = None) -> World:
    d = load_world("ubuntu-workstation")
    computer = d["computers"][0]
    computer["installed_apps"].append("docs")
    computer["initial_files"]["Documents/report.md"] = REPORT
    computer["initial_files"].update(files or {})
    return World(d, 7)


def _env(w: World):
    return w.environment(EnvironmentConfig.desktop("ada", [M]))


def _launch(env, argument: str | None = None) -> int:
    payload = {"kind": "docs"} if argument is None else {"kind": "docs", "argument": argument}
    return ok(env, app("launch", **payload))["window"]


def _scene(env) -> dict:
    return env.scene(W, H)


def _title(env, wid: int = 0) -> str:
    return next(x for x in _scene(env).get("windows", []) if x["id"] == wid)["title"]


def _elements(env) -> dict[str, dict]:
    view = env.observe()["channels"]["semantic.v1"][M]
    return {e["id"]: e for e in view["elements"]}


def _texts(env) -> list[str]:
    return [t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"]]


def _click(env, target: str, **payload) -> dict:
    at = point(_scene(env), target)
    assert at is not None, f"{target} cannot be reached"
    return one(env, ptr("click", *at, width=W, height=H, **payload))


def _shell(env, name: str, wid: int = 0) -> dict:
    return one(env, app("shell", target=f"window:{wid}:content:{name}"))


def _keys(env, *names: str) -> None:
    for name in names:
        ok(env, key(name))


def _text_at(env, text: str) -> tuple[int, int, int, int]:
    """The screen rectangle of the painted run of document text ``text``."""
    for n in _scene(env)["nodes"]:
        if (
            n.get("window") == 0
            and n["primitive"].get("text") == text
            and n["interaction"] == "window:0:content:page"
        ):
            b, t = n["bounds"], n["transform"]
            return b["x"] + t["tx"], b["y"] + t["ty"], b["width"], b["height"]
    raise AssertionError(f"no painted text {text!r}")


def _focus(env) -> dict:
    return _scene(env)["focus"]


def _value(env) -> str:
    return _elements(env)["window:0:content:page"]["value"]


def _read(w: World, path: str) -> bytes:
    return w.machine(M).fs.read_path(path)


def _style(env) -> str:
    return _elements(env)["window:0:content:style"]["value"]


def _checked(env, name: str) -> bool:
    return bool(_elements(env)[f"window:0:content:{name}"]["checked"])


# -- end to end ----------------------------------------------------------------------------


def test_write_a_heading_and_a_list_with_the_pointer_and_save_it_as_markdown():
    w = _world()
    env = _env(w)
    at = point(_scene(env), "shell:launch:docs")
    assert one(env, ptr("click", *at, width=W, height=H))["value"] == {"window": 0}
    assert _title(env) == "Untitled 1 — LibreOffice Writer"
    assert _focus(env)["keyboard"]["text_entry"]
    # Heading 1 from the style box
    _click(env, "window:0:content:style")
    assert _elements(env)["window:0:content:style:h1"]["role"] == "menuitem"
    _click(env, "window:0:content:style:h1")
    assert _style(env) == "Heading 1"
    ok(env, type_("Packing list"))
    _keys(env, "Enter")
    assert _style(env) == "Body Text"  # a heading's next paragraph is body text
    _click(env, "window:0:content:bullets")
    assert _style(env) == "List Bullet" and _checked(env, "bullets")
    ok(env, type_("Tent"))
    _keys(env, "Enter")
    ok(env, type_("Stove"))
    _keys(env, "Enter", "Enter")  # Enter on an empty item ends the list
    assert _style(env) == "Body Text"
    ok(env, type_("Leave on "))
    _click(env, "window:0:content:bold")
    ok(env, type_("Friday"))
    assert _title(env) == "• Untitled 1 — LibreOffice Writer"
    assert "7 words, 36 characters" in _texts(env)
    ok(env, key("Ctrl+s"))
    name = _elements(env)["window:0:content:save-name"]
    assert name["focused"] and name["value"] == "Untitled 1.cwdoc"
    _keys(env, "Ctrl+a")
    ok(env, type_("packing.md"))
    _keys(env, "Tab")
    ok(env, type_("~/Documents"))
    out = one(env, key("Enter"))
    assert out["success"] and "library" in out["effect"]["changed"]
    assert (
        _read(w, f"{HOME}/Documents/packing.md")
        == b"# Packing list\n\n- Tent\n- Stove\n\nLeave on **Friday**\n"
    )
    assert _title(env) == "packing.md — LibreOffice Writer"
    assert recent(w.machine(M))[0] == {
        "path": f"{HOME}/Documents/packing.md",
        "app": "docs",
        "time_us": recent(w.machine(M))[0]["time_us"],
    }


def test_open_a_markdown_file_and_save_it_back_unchanged():
    w = _world()
    env = _env(w)
    _launch(env, "~/Documents/report.md")
    assert _title(env) == "report.md — LibreOffice Writer"
    assert _value(env).split("\n")[:2] == ["Quarterly report", "Summary"]
    assert _style(env) == "Heading 1"
    texts = _texts(env)
    assert "20 words, 127 characters" in texts and "•" in texts
    assert recent(w.machine(M))[0]["path"] == f"{HOME}/Documents/report.md"
    # Save on an unchanged document writes what it read
    _shell(env, "save")
    assert _read(w, f"{HOME}/Documents/report.md") == REPORT.encode()


def test_every_toolbar_control_by_pointer_and_by_shell_target():
    w = _world()
    env = _env(w)
    _launch(env)
    ok(env, type_("alpha beta"))
    # pointer: select "beta" by a double click on the word, then Bold and Italic
    x, y, wd, ht = _text_at(env, "alpha beta")
    ok(env, ptr("double_click", x + wd - 10, y + ht // 2, width=W, height=H))
    assert _focus(env)["caret"]["offset"] == 10
    _click(env, "window:0:content:bold")
    _click(env, "window:0:content:italic")
    assert _checked(env, "bold") and _checked(env, "italic")
    # the shell targets do the same as the clicks
    assert _shell(env, "italic")["success"]
    assert not _checked(env, "italic")
    _shell(env, "numbering")
    assert _style(env) == "List Number"
    _shell(env, "numbering")
    assert _style(env) == "Body Text"
    _shell(env, "style:h2")
    assert _style(env) == "Heading 2"
    _shell(env, "undo")
    assert _style(env) == "Body Text"
    _click(env, "window:0:content:redo")
    assert _style(env) == "Heading 2"
    _click(env, "window:0:content:undo")
    _shell(env, "save-as")
    _shell(env, "save-name")
    _keys(env, "Ctrl+a")
    ok(env, type_("notes.cwdoc"))
    _click(env, "window:0:content:save-confirm")
    data = json.loads(_read(w, f"{HOME}/Documents/notes.cwdoc"))
    assert data == {
        "format": "cwdoc",
        "version": 1,
        "paragraphs": [
            {"style": "body", "runs": [{"text": "alpha "}, {"text": "beta", "bold": True}]}
        ],
    }
    assert _shell(env, "no-such-control")["error"]["reason"] == "unknown_shell_target"
    assert _shell(env, "style:h9")["error"]["reason"] == "unknown_shell_target"


def test_cwdoc_round_trip_keeps_everything():
    doc = [
        rt.para("h1", [["Title", 0]]),
        rt.para("body", []),
        rt.para("body", [["  lead ", 0], ["bold", 1], [" ", 3], ["both", 3], ["ital", 2]]),
        rt.para("number", [["one", 0]]),
        rt.para("bullet", [["* not bold *", 0]]),
    ]
    w = _world({"Documents/all.cwdoc": rt.to_cwdoc(doc)})
    env = _env(w)
    _launch(env, "~/Documents/all.cwdoc")
    ok(env, key("Ctrl+End"))
    ok(env, type_("!"))
    ok(env, key("Ctrl+s"))
    back = rt.from_cwdoc(_read(w, f"{HOME}/Documents/all.cwdoc").decode())
    doc[-1] = rt.para("bullet", [["* not bold *!", 0]])
    assert back == doc


# -- Markdown ------------------------------------------------------------------------------


def test_markdown_written_reads_back_exactly():
    rng = random.Random(11)
    alphabet = "ab #*_\\-+>=`~1.) x"
    for _ in range(3000):
        doc = []
        for _p in range(rng.randint(0, 6)):
            runs = [
                [
                    "".join(rng.choice(alphabet) for _c in range(rng.randint(0, 6))),
                    rng.randint(0, 3),
                ]
                for _r in range(rng.randint(0, 4))
            ]
            doc.append(rt.para(rng.choice(rt.STYLES), runs))
        md = rt.to_markdown(doc)
        assert rt.to_markdown(rt.from_markdown(md)) == md, (doc, md)
    clean = [
        rt.para("h1", [["A # title", 0]]),
        rt.para(
            "body",
            [["Plain ", 0], ["bold", 1], [" and ", 0], ["it", 2], ["alic", 3], [" 2*3_x", 0]],
        ),
        rt.para("number", [["1. not a number", 0]]),
        rt.para("number", [["second", 0]]),
        rt.para("bullet", [["- dash", 0]]),
        rt.para("body", [["# not a heading", 0]]),
    ]
    md = rt.to_markdown(clean)
    assert md.splitlines()[:4] == [
        "# A \\# title",
        "",
        "Plain **bold** and *it**alic*** 2\\*3\\_x",
        "",
    ]
    assert "1. 1\\. not a number" in md and "2. second" in md and "\\# not a heading" in md
    assert rt.from_markdown(md) == clean


def test_lenient_markdown_reading():
    md = (
        "Title\n=====\n\nSome *em* and __strong__ text, snake_case and 2 * 3 and a lone * star.\n"
        "continued\n\n> quoted\n* star item\n  lazy line\n+ plus\n3) third\n\n#### deep ####\n---\n"
        "```\ncode *kept*\n```\n"
    )
    doc = rt.from_markdown(md)
    assert [d["style"] for d in doc] == [
        "h1",
        "body",
        "body",
        "bullet",
        "bullet",
        "number",
        "h3",
        "body",
    ]
    assert doc[1]["runs"][:4] == [["Some ", 0], ["em", 2], [" and ", 0], ["strong", 1]]
    assert rt.text_of(doc[1]).endswith("snake_case and 2 * 3 and a lone * star. continued")
    assert rt.text_of(doc[3]) == "star item lazy line" and rt.text_of(doc[6]) == "deep"
    assert rt.text_of(doc[7]) == "code *kept*"


# -- editing -------------------------------------------------------------------------------


def test_enter_splits_backspace_merges_and_undo_redo():
    w = _world()
    env = _env(w)
    _launch(env)
    ok(env, type_("HelloWorld"))
    for _ in range(5):
        ok(env, key("ArrowLeft"))
    _keys(env, "Enter")
    assert _value(env) == "Hello\nWorld" and _focus(env)["caret"]["line"] == 1
    _keys(env, "Backspace")
    assert _value(env) == "HelloWorld" and _focus(env)["caret"]["offset"] == 5
    _keys(env, "Ctrl+z")
    assert _value(env) == "Hello\nWorld"
    _keys(env, "Ctrl+z")
    assert _value(env) == "HelloWorld"
    _keys(env, "Ctrl+y")
    assert _value(env) == "Hello\nWorld"
    # Backspace at the start of a list item first removes the bullet
    _keys(env, "Shift+F12")
    assert _style(env) == "List Bullet"
    _keys(env, "Backspace")
    assert _style(env) == "Body Text" and _value(env) == "Hello\nWorld"
    # Delete at the end of a paragraph joins the next
    _keys(env, "Ctrl+Home", "End", "Delete")
    assert _value(env) == "HelloWorld"
    # typing groups into words for undo
    _keys(env, "Ctrl+End")
    ok(env, type_(" one "))
    ok(env, type_("two"))
    _keys(env, "Ctrl+z")
    assert _value(env) == "HelloWorld one "
    # Ctrl+1..3 and Ctrl+0 set the style; F12 numbering
    _keys(env, "Ctrl+2")
    assert _style(env) == "Heading 2"
    _keys(env, "Ctrl+0", "F12")
    assert _style(env) == "List Number"


def test_selection_clipboard_and_context_menu():
    w = _world()
    env = _env(w)
    _launch(env)
    ok(env, type_("first line\nsecond line"))
    _keys(env, "Ctrl+Home", "Shift+End", "Ctrl+b", "Ctrl+Home", "Shift+ArrowDown", "Shift+End")
    _keys(env, "Ctrl+c")
    assert w.machine(M).clipboard == "first line\nsecond line"
    assert "Selected: 4 words, 21 characters" in _texts(env)
    _keys(env, "Ctrl+End")
    ok(env, type_("\n"))
    _keys(env, "Ctrl+v")  # the application's own copy pastes with its formatting
    assert _value(env) == "first line\nsecond line\nfirst line\nsecond line"
    ok(env, key("Ctrl+s"))
    _keys(env, "Ctrl+a")
    ok(env, type_("clip.md"))
    _keys(env, "Enter")
    assert (
        _read(w, f"{HOME}/Documents/clip.md")
        == b"**first line**\n\nsecond line\n\n**first line**\n\nsecond line\n"
    )
    # the context menu (secondary button on the text)
    x, y, _wd, ht = _text_at(env, "second line")
    ok(env, ptr("down", x + 5, y + ht // 2, button=2, width=W, height=H))
    ok(env, ptr("up", x + 5, y + ht // 2, button=2, width=W, height=H))
    assert _elements(env)["window:0:content:menu:select-all"]["role"] == "menuitem"
    _click(env, "window:0:content:menu:select-all")
    _click(env, "window:0:content:bold")  # not all bold: everything becomes bold
    assert _checked(env, "bold")
    _shell(env, "menu:cut")
    assert _value(env) == "" and w.machine(M).clipboard.startswith("first line")
    _shell(env, "menu:paste")
    assert _value(env).startswith("first line")


def test_pointer_places_the_caret_and_drag_selects():
    w = _world()
    env = _env(w)
    _launch(env, "~/Documents/report.md")
    x, y, wd, ht = _text_at(env, "Revenue grew in every region except the north.")
    ok(env, ptr("click", x + 1, y + ht // 2, width=W, height=H))
    caret = _focus(env)["caret"]
    assert caret["line"] == 2 and caret["column"] == 0
    ok(env, ptr("down", x + 1, y + ht // 2, width=W, height=H))
    assert one(env, ptr("move", x + wd - 1, y + ht // 2, width=W, height=H))["value"] == {
        "cursor": "text"
    }
    ok(env, ptr("up", x + wd - 1, y + ht // 2, width=W, height=H))
    assert "Selected: 8 words, 46 characters" in _texts(env)
    ok(env, type_("Replaced."))
    assert _value(env).split("\n")[2] == "Replaced."
    # arrows move between paragraphs; Shift extends
    _keys(env, "ArrowUp")
    assert _focus(env)["caret"]["line"] == 1


# -- refusals, bad files, caps, closing ----------------------------------------------------


def test_bad_files_show_an_error_and_change_nothing():
    bad = '{"format": "cwdoc", "version": 9, "paragraphs": []}'
    w = _world({"Documents/broken.cwdoc": "{not json", "Documents/future.cwdoc": bad})
    env = _env(w)
    _launch(env, "~/Documents/broken.cwdoc")
    texts = _texts(env)
    assert any(t.startswith("Could not open “broken.cwdoc”: it is not JSON") for t in texts)
    assert _title(env) == "Untitled 1 — LibreOffice Writer" and _value(env) == ""
    assert _read(w, f"{HOME}/Documents/broken.cwdoc") == b"{not json"
    _keys(env, "Ctrl+o")
    ok(env, type_("~/Documents/future.cwdoc"))
    _keys(env, "Enter")
    assert any("version 9 is not supported" in t for t in _texts(env))
    alerts = [
        n["semantic"]
        for n in _scene(env)["nodes"]
        if n["semantic"] and n["semantic"]["role"] == "alert"
    ]
    assert alerts and "version 9" in alerts[0]["label"]
    # a missing file opens empty and is created on saving; a folder is refused
    _launch(env, "~/Documents/new.md")
    assert _title(env, 1) == "new.md — LibreOffice Writer"
    assert (
        one(env, app("launch", kind="docs", argument="~/Documents"))["error"]["code"]
        == "action_failed"
    )


def test_save_as_refusals_and_caps():
    w = _world()
    env = _env(w)
    _launch(env)
    ok(env, type_("x"))
    _shell(env, "save-as")
    _keys(env, "Ctrl+a")
    ok(env, type_("draft.odt"))
    _shell(env, "save-confirm")
    assert "Save as .md (Markdown) or .cwdoc (this application's format)." in _texts(env)
    _keys(env, "Ctrl+a")
    ok(env, type_("a/b.md"))
    _keys(env, "Enter")
    assert "A file name cannot contain “/”." in _texts(env)
    _click(env, "window:0:content:save-cancel")
    # typing past the document's cap is refused and changes nothing
    out = one(env, type_("y" * (docs_app.MAX_PARA_CHARS + 1)))
    assert not out["success"] and out["error"]["code"] == "invalid"
    assert _value(env) == "x"
    many = "\n".join(["z"] * (docs_app.MAX_PARAGRAPHS + 1))
    out = one(env, type_(many))
    assert not out["success"] and out["error"]["code"] == "invalid"
    assert _value(env) == "x"


def test_closing_with_unsaved_changes_asks():
    w = _world()
    env = _env(w)
    _launch(env, "~/Documents/report.md")
    _keys(env, "Ctrl+End")
    ok(env, type_("\nAdd a line"))
    ok(env, app("close", window=0))
    elements = _elements(env)
    assert elements["window:0:content:close-save"]["label"] == "Save"
    _click(env, "window:0:content:close-cancel")
    assert "window:0:content:close-save" not in _elements(env)
    ok(env, key("Ctrl+w"))
    _click(env, "window:0:content:close-save")
    assert all(x["id"] != 0 for x in _scene(env).get("windows", []))
    assert _read(w, f"{HOME}/Documents/report.md").endswith(b"- Add a line\n")
    # discard leaves the file alone
    _launch(env, "~/Documents/report.md")
    ok(env, type_("zzz"))
    ok(env, app("close", window=1))
    _shell(env, "close-discard", wid=1)
    assert all(x["id"] != 1 for x in _scene(env).get("windows", []))
    assert b"zzz" not in _read(w, f"{HOME}/Documents/report.md")
