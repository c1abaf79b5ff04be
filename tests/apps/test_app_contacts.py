"""Contacts, driven only through the actor handle (pointer, keyboard, application), and its
vCard reader and writer.

Controls are found in the scene by interaction id, role and label; the vCard files and the
recent documents are checked through the owner's machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import M, act, app, key, ok, one, point, ptr, type_

from cwgym import EnvironmentConfig, World
from cwgym.apps import _vcard as vc
from cwgym.apps.contacts import FIELD_CAPS, MAX_SEARCH
from cwgym.machine import recent
from cwgym.resources import load_world

W, H = 1280, 800
DIR = "/home/ada/.local/share/contacts"
GRACE = (
    "BEGIN:VCARD\n"
    "VERSION:3.0\n"
    "FN:Grace Hopper\n"
    "N:Hopper;Grace;Brewster;Rear Admiral;\n"
    "item1.EMAIL;TYPE=WORK:grace@navy.example\n"
    "TEL:+1 555 0100\n"
    "ORG:US Navy;Computing\n"
    "NOTE:Wrote the first compiler\\, A-0.\\nLoves COBOL\n"
    "BDAY:1906-12-09\n"
    "END:VCARD\n"
)
TEAM = (
    "BEGIN:VCARD\r\n"
    "VERSION:2.1\r\n"
    "N:Lovelace;Ada\r\n"
    "EMAIL:ada@engine.example\r\n"
    "END:VCARD\r\n"
    "\r\n"
    "BEGIN:VCARD\r\n"
    "VERSION:4.0\r\n"
    "FN:Alan Turing\r\n"
    "CATEGORIES:Favorites,Work\r\n"
    "NOTE:Bletchley Park; Hut 8 and a very long note that goes on and on so that the line \r\n"
    " has to be folded\r\n"
    "END:VCARD\r\n"
)
BROKEN = "BEGIN:VCARD\nFN:Oops\nthis line is bad\nEND:VCARD\n"


def _world(files: dict | None = None) -> World:
    d = load_world("ubuntu-workstation")
    d["computers"][0]["installed_apps"].append("contacts")
    d["computers"][0]["initial_files"].update(files or {})
    return World(d, 7)


def _env(w: World):
    config = EnvironmentConfig.desktop("ada", [M]).to_plain()
    config["actions"] = [*config["actions"], "terminal.v1"]
    return w.environment(config)


def _open(files: dict | None = None, argument: str | None = None):
    w = _world(files)
    env = _env(w)
    payload = {"kind": "contacts"} | ({"argument": argument} if argument else {})
    wid = ok(env, app("launch", **payload))["window"]
    return w, env, wid


def _seeded(extra: dict | None = None):
    files = {
        ".local/share/contacts/grace.vcf": GRACE,
        ".local/share/contacts/team.vcf": TEAM,
    }
    return _open({**files, **(extra or {})})


def _elements(env) -> dict[str, dict]:
    return {e["id"]: e for e in env.observe()["channels"]["semantic.v1"][M]["elements"]}


def _texts(env) -> list[str]:
    return [t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"]]


def _rows(env) -> list[tuple[str, str | None]]:
    scene = env.scene(W, H)
    found = []
    for n in scene["nodes"]:
        if (n["interaction"] or "").startswith("window:0:content:contact:") and n["semantic"]:
            found.append(
                (
                    n["bounds"]["y"] + n["transform"]["ty"],
                    n["semantic"]["label"],
                    n["semantic"]["value"],
                )
            )
    return [(label, value) for _y, label, value in sorted(found)]


def _names(env) -> list[str]:
    return [label for label, _v in _rows(env)]


def _click(env, target: str, wid: int = 0, op: str = "click") -> dict:
    at = point(env.scene(W, H), f"window:{wid}:content:{target}")
    assert at is not None, f"{target} cannot be reached"
    out = one(env, ptr(op, *at, width=W, height=H))
    assert out["success"], out
    return out


def _shell(env, target: str, wid: int = 0) -> dict:
    return one(env, app("shell", target=f"window:{wid}:content:{target}"))


def _keys(env, *names: str) -> None:
    for name in names:
        ok(env, key(name))


def _read(w: World, name: str) -> str:
    return w.machine(M).fs.read_path(f"{DIR}/{name}").decode()


def _files(w: World) -> list[str]:
    return w.machine(M).fs.list_path(DIR)


def _focus(env) -> dict:
    return env.scene(W, H)["focus"]


def _title(env, wid: int = 0) -> str:
    return next(x for x in env.scene(W, H)["windows"] if x["id"] == wid)["title"]


def _value(env, field: str) -> str:
    return _elements(env)[f"window:0:content:field:{field}"]["value"]


# -- the list and the details --------------------------------------------------------------


def test_open_from_the_dock_lists_contacts_by_name_and_names_a_bad_file():
    w = _world(
        {
            ".local/share/contacts/grace.vcf": GRACE,
            ".local/share/contacts/team.vcf": TEAM,
            ".local/share/contacts/broken.vcf": BROKEN,
            ".local/share/contacts/notes.txt": "not a card",
        }
    )
    env = _env(w)
    at = point(env.scene(W, H), "shell:launch:contacts")
    assert one(env, ptr("click", *at, width=W, height=H))["value"] == {"window": 0}
    assert _rows(env) == [
        ("Ada Lovelace", None),
        ("Alan Turing", "favourite"),
        ("Grace Hopper", None),
    ]
    elements = _elements(env)
    assert (
        "window:0:content:contact:team.vcf#1" in elements
        and "window:0:content:contact:grace.vcf" in elements
    )
    assert _title(env) == "Ada Lovelace — Contacts"
    assert _focus(env)["interaction"] == "window:0:content:contact:team.vcf#1"
    assert "Skipped broken.vcf, line 3: a property line needs a “:” (“this line is bad”)" in _texts(
        env
    )
    _click(env, "contact:grace.vcf")
    texts = _texts(env)
    for shown in ("Grace Hopper", "grace@navy.example", "+1 555 0100", "US Navy, Computing"):
        assert shown in texts
    assert "Wrote the first compiler, A-0." in texts and "Loves COBOL" in texts
    labels = {e["label"]: e["role"] for e in _elements(env).values() if e.get("window") == 0}
    for label in ("Add contact", "Favourite", "Edit", "Delete"):
        assert labels[label] == "button"
    assert labels["Search contacts"] == "textbox"
    # keys move through the list
    _keys(env, "Home")
    assert _title(env) == "Ada Lovelace — Contacts"
    _keys(env, "ArrowDown")
    assert _title(env) == "Alan Turing — Contacts"
    assert any("has to be folded" in t for t in _texts(env))
    _keys(env, "End")
    assert _title(env) == "Grace Hopper — Contacts"
    assert _read(w, "broken.vcf") == BROKEN  # looking writes nothing
    assert _shell(env, "contact:nobody.vcf")["error"]["reason"] == "unknown_shell_target"


def test_add_a_contact_by_pointer():
    w, env, _ = _open()
    assert "No contacts yet" in _texts(env)
    _click(env, "add")
    assert _title(env) == "New Contact — Contacts"
    focus = _focus(env)
    assert focus["interaction"] == "window:0:content:field:name" and focus["keyboard"]["text_entry"]
    ok(env, type_("Katherine Johnson"))
    _click(env, "field:email")
    ok(env, type_("kj@nasa.example"))
    _click(env, "field:phone")
    ok(env, type_("+1 (757) 555-0199"))
    _click(env, "field:org")
    ok(env, type_("NASA; Langley"))
    _click(env, "field:note")
    ok(env, type_("Orbital mechanics"))
    _keys(env, "Enter")
    ok(env, type_("Friendship 7"))
    assert _focus(env)["value"] == "Orbital mechanics\nFriendship 7"
    _click(env, "save")
    assert _files(w) == ["Katherine Johnson.vcf"]
    assert _read(w, "Katherine Johnson.vcf") == (
        "BEGIN:VCARD\r\n"
        "VERSION:3.0\r\n"
        "FN:Katherine Johnson\r\n"
        "N:Johnson;Katherine;;;\r\n"
        "EMAIL;TYPE=INTERNET:kj@nasa.example\r\n"
        "TEL;TYPE=CELL:+1 (757) 555-0199\r\n"
        "ORG:NASA\\; Langley\r\n"
        "NOTE:Orbital mechanics\\nFriendship 7\r\n"
        "END:VCARD\r\n"
    )
    assert _title(env) == "Katherine Johnson — Contacts"
    assert _rows(env) == [("Katherine Johnson", None)]
    assert [r["path"] for r in recent.recent(w.machine(M))] == [f"{DIR}/Katherine Johnson.vcf"]
    # the same name again gets a number
    ok(env, app("shell", target="window:0:content:add"))
    ok(env, type_("Katherine Johnson"))
    _keys(env, "Enter")
    assert _files(w) == ["Katherine Johnson 2.vcf", "Katherine Johnson.vcf"]


def test_add_by_keys_and_the_form_refuses_bad_values():
    w, env, _ = _open()
    _keys(env, "Ctrl+n")
    _keys(env, "Tab")
    ok(env, type_("someone@example.org"))
    _keys(env, "Enter")
    assert "A contact needs a name." in _texts(env)
    assert not w.machine(M).fs.exists(DIR)
    _keys(env, "Shift+Tab")
    assert _focus(env)["interaction"] == "window:0:content:field:name"
    ok(env, type_("Linus Pauling"))
    _keys(env, "Tab", "Ctrl+a")
    ok(env, type_("linus at example"))
    _keys(env, "Ctrl+s")
    assert "“linus at example” is not an email address." in _texts(env)
    _keys(env, "Ctrl+a")
    ok(env, type_("linus@chem.example"))
    _keys(env, "Tab")
    ok(env, type_("call me"))
    _keys(env, "Enter")
    assert "“call me” is not a phone number (digits, spaces and + - ( ) . only)." in _texts(env)
    assert not w.machine(M).fs.exists(DIR)
    _keys(env, "Ctrl+a", "Backspace", "Enter")
    assert _files(w) == ["Linus Pauling.vcf"]
    assert "EMAIL;TYPE=INTERNET:linus@chem.example\r\n" in _read(w, "Linus Pauling.vcf")
    # Escape cancels a form without writing
    _keys(env, "Ctrl+n")
    ok(env, type_("Nobody"))
    _keys(env, "Escape")
    assert _files(w) == ["Linus Pauling.vcf"] and _title(env) == "Linus Pauling — Contacts"


def test_edit_keeps_other_properties_renames_and_cancels():
    w, env, _ = _seeded()
    _click(env, "contact:grace.vcf")
    _click(env, "edit")
    assert _title(env) == "Grace Hopper — Contacts"
    assert _value(env, "name") == "Grace Hopper" and _value(env, "org") == "US Navy, Computing"
    assert _value(env, "note") == "Wrote the first compiler, A-0.\nLoves COBOL"
    _click(env, "field:email")
    _keys(env, "Ctrl+a")
    ok(env, type_("grace@yale.example"))
    _click(env, "save")
    text = _read(w, "grace.vcf")
    assert "item1" not in text and "EMAIL;TYPE=WORK:grace@yale.example\r\n" in text
    assert "N:Hopper;Grace;Brewster;Rear Admiral;\r\n" in text  # the name did not change
    assert "BDAY:1906-12-09\r\n" in text  # kept as written
    # a new name renames the file and writes a new N
    _click(env, "edit")
    _keys(env, "Ctrl+a")
    ok(env, type_("Grace B. Hopper"))
    _keys(env, "Enter")
    assert _files(w) == ["Grace B. Hopper.vcf", "team.vcf"]
    text = _read(w, "Grace B. Hopper.vcf")
    assert "FN:Grace B. Hopper\r\n" in text and "N:Hopper;Grace B.;;;\r\n" in text
    assert _title(env) == "Grace B. Hopper — Contacts"
    # Cancel (and the pointer) throw the form away
    _click(env, "edit")
    ok(env, type_("zzz"))
    _click(env, "cancel")
    assert "zzz" not in _read(w, "Grace B. Hopper.vcf")


def test_a_card_in_a_file_of_several_is_edited_in_place():
    w, env, _ = _seeded()
    _click(env, "contact:team.vcf#2")
    _click(env, "edit")
    _click(env, "field:phone")
    ok(env, type_("01908 640404"))
    _click(env, "save")
    text = _read(w, "team.vcf")
    first, second = text.split("\r\n\r\n")
    assert (
        first
        == "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Lovelace;Ada\r\nEMAIL:ada@engine.example\r\nEND:VCARD"
    )
    assert "TEL;TYPE=CELL:01908 640404\r\n" in second and "CATEGORIES:Work,Favorites\r\n" in second
    assert _files(w) == ["grace.vcf", "team.vcf"]
    assert _title(env) == "Alan Turing — Contacts"


def test_favourite_by_pointer_and_shell():
    w, env, _ = _seeded()
    _click(env, "contact:grace.vcf")
    _click(env, "favorite")
    assert "CATEGORIES:Favorites\r\n" in _read(w, "grace.vcf")
    assert ("Grace Hopper", "favourite") in _rows(env)
    assert _elements(env)["window:0:content:favorite"]["label"] == "Unfavourite"
    assert _shell(env, "favorite")["success"]
    assert "CATEGORIES" not in _read(w, "grace.vcf")
    _click(env, "contact:team.vcf#2")
    _click(env, "favorite")  # Alan Turing was one; Work stays
    assert "CATEGORIES:Work\r\n" in _read(w, "team.vcf")


def test_delete_asks_first_and_can_be_undone():
    w, env, _ = _seeded()
    _click(env, "contact:grace.vcf")
    _click(env, "delete")
    assert _focus(env)["interaction"] == "window:0:content:delete-cancel"
    assert _shell(env, "edit")["error"]["reason"] == "unknown_shell_target"  # modal
    _click(env, "delete-cancel")
    assert "grace.vcf" in _files(w)
    _click(env, "delete")
    _click(env, "delete-confirm")
    assert _files(w) == ["team.vcf"] and "Deleted Grace Hopper" in _texts(env)
    _click(env, "undo-delete")
    assert _read(w, "grace.vcf") == GRACE and _title(env) == "Grace Hopper — Contacts"
    # by keys, in a file of several: the card goes, the other stays; Primary+z undoes
    _click(env, "contact:team.vcf#1")
    _keys(env, "Delete", "Escape")
    assert _read(w, "team.vcf") == TEAM
    _keys(env, "Delete", "Tab", "Enter")
    assert _read(w, "team.vcf").startswith("\r\nBEGIN:VCARD\r\nVERSION:4.0\r\nFN:Alan Turing")
    assert _names(env) == ["Alan Turing", "Grace Hopper"]
    _keys(env, "Ctrl+z")
    assert _read(w, "team.vcf") == TEAM
    assert _names(env) == ["Ada Lovelace", "Alan Turing", "Grace Hopper"]


# -- search, caps, undo --------------------------------------------------------------------


def test_search_filters_by_name_email_and_organisation():
    _w, env, _ = _seeded()
    _click(env, "search")
    ok(env, type_("NAVY"))
    assert _names(env) == ["Grace Hopper"]
    _keys(env, "Ctrl+a")
    ok(env, type_("engine.example"))
    assert _names(env) == ["Ada Lovelace"]
    _keys(env, "Enter")
    assert _focus(env)["interaction"] == "window:0:content:contact:team.vcf#1"
    _keys(env, "Ctrl+f", "Escape")
    assert len(_names(env)) == 3
    _keys(env, "Escape")
    ok(env, type_("zz"))  # typing in the list searches
    assert _names(env) == [] and "No matching contacts" in _texts(env)
    _keys(env, "Ctrl+a", "Backspace")
    out = one(env, type_("x" * (MAX_SEARCH + 1)))
    assert out["error"]["code"] == "invalid"
    assert _elements(env)["window:0:content:search"]["value"] == ""


def test_field_caps_are_refused_and_the_form_undoes():
    w, env, _ = _open()
    _keys(env, "Ctrl+n")
    ok(env, type_("n" * FIELD_CAPS["name"]))
    assert one(env, key("x"))["error"]["code"] == "invalid"
    assert one(env, type_("xy"))["error"]["code"] == "invalid"
    assert _value(env, "name") == "n" * FIELD_CAPS["name"]
    _keys(env, "Ctrl+a")
    ok(env, type_("Ada"))
    ok(env, type_(" "))
    ok(env, type_("Okafor"))
    _keys(env, "Tab")
    ok(env, type_("ada@okafor.example"))
    _keys(env, "Ctrl+z")
    assert _value(env, "email") == ""
    _keys(env, "Ctrl+z")
    assert _value(env, "name") == "Ada "
    _keys(env, "Ctrl+Shift+z", "Ctrl+y")
    assert _value(env, "name") == "Ada Okafor" and _value(env, "email") == "ada@okafor.example"
    _click(env, "field:note")
    w.machine(M).clipboard = "p" * FIELD_CAPS["note"]
    _keys(env, "Ctrl+v")
    assert one(env, key("Enter"))["error"]["code"] == "invalid"
    _keys(env, "Ctrl+s")
    assert "NOTE:" + "p" * 70 + "\r\n " + "p" * 74 + "\r\n" in _read(
        w, "Ada Okafor.vcf"
    )  # folded at 75 octets


# -- launch argument, every control --------------------------------------------------------


def test_launch_argument_selects_or_refuses():
    _w, env, _ = _seeded({".local/share/contacts/broken.vcf": BROKEN})
    wid = ok(env, app("launch", kind="contacts", argument="grace.vcf"))["window"]
    assert _title(env, wid) == "Grace Hopper — Contacts"
    wid = ok(env, app("launch", kind="contacts", argument="~/.local/share/contacts/broken.vcf"))[
        "window"
    ]
    assert _title(env, wid) == "Contacts"
    assert "broken.vcf holds no contact that can be read" in _texts(env)
    for bad in ("/home/ada/notes.txt", "missing.vcf", "/etc/passwd"):
        assert (
            one(env, app("launch", kind="contacts", argument=bad))["error"]["code"]
            == "action_failed"
        )


def test_every_control_answers_application_shell():
    w, env, _ = _seeded()
    assert _shell(env, "contact:grace.vcf")["success"] and _title(env) == "Grace Hopper — Contacts"
    assert (
        _shell(env, "search")["success"] and _focus(env)["interaction"] == "window:0:content:search"
    )
    assert _shell(env, "edit")["success"]
    for field in ("name", "email", "phone", "org", "note"):
        assert _shell(env, f"field:{field}")["success"]
        assert _focus(env)["interaction"] == f"window:0:content:field:{field}"
    assert _shell(env, "cancel")["success"]
    assert _shell(env, "add")["success"] and _shell(env, "field:name")["success"]
    ok(env, type_("Zed Shaw"))
    assert _shell(env, "save")["success"] and "Zed Shaw.vcf" in _files(w)
    assert _shell(env, "favorite")["success"] and "Favorites" in _read(w, "Zed Shaw.vcf")
    assert _shell(env, "delete")["success"] and _shell(env, "delete-confirm")["success"]
    assert "Zed Shaw.vcf" not in _files(w)
    assert _shell(env, "undo-delete")["success"] and "Zed Shaw.vcf" in _files(w)
    assert _shell(env, "undo-delete")["error"]["reason"] == "unknown_shell_target"
    assert _shell(env, "save")["error"]["reason"] == "unknown_shell_target"


def test_a_file_changed_behind_the_form_is_not_overwritten():
    w, env, _ = _seeded()
    _click(env, "contact:grace.vcf")
    _click(env, "edit")
    out = one(env, act("terminal.v1", "execute", command="rm ~/.local/share/contacts/grace.vcf"))
    assert out["success"]
    _click(env, "save")
    assert "The contact's file changed or is gone; it was not saved." in _texts(env)
    assert _files(w) == ["team.vcf"]


# -- the vCard reader ----------------------------------------------------------------------


def test_vcard_reads_hand_written_cards():
    [card] = vc.parse(GRACE.encode())
    assert (card.fn, card.email, card.tel, card.org) == (
        "Grace Hopper",
        "grace@navy.example",
        "+1 555 0100",
        "US Navy, Computing",
    )
    assert card.n == ["Hopper", "Grace", "Brewster", "Rear Admiral", ""]
    assert card.email_params == ";TYPE=WORK" and card.extra == ["BDAY:1906-12-09"]
    ada, alan = vc.parse(TEAM.encode())
    assert (
        ada.fn == "Ada Lovelace"
        and ada.email == "ada@engine.example"
        and (ada.first, ada.last) == (0, 4)
    )
    assert alan.favorite and alan.categories == ["Work"]
    assert alan.note.endswith("so that the line has to be folded")
    quoted = b'BEGIN:VCARD\nTEL;TYPE="voice,cell":+44 1\nFN:A\\;B\nEND:VCARD'
    [card] = vc.parse(quoted)
    assert card.tel == "+44 1" and card.tel_params == ';TYPE="voice,cell"' and card.fn == "A;B"


@pytest.mark.parametrize(
    ("data", "line", "problem"),
    [
        (b"FN:x\n", 1, "expected BEGIN:VCARD"),
        (b"BEGIN:VCARD\nFN:x\n", 2, "has no END:VCARD"),
        (b"BEGIN:VCARD\nFN:x\nBEGIN:VCARD\nEND:VCARD\n", 3, "BEGIN inside a vCard"),
        (b"BEGIN:VCARD\nVERSION:5.0\nFN:x\nEND:VCARD\n", 2, "unknown vCard version"),
        (b"BEGIN:VCARD\nEMAIL:a@b.c\nEND:VCARD\n", 1, "has no name"),
        (b"BEGIN:VCARD\nFN:ok\n\xff\nEND:VCARD\n", 3, "not UTF-8"),
        (b"BEGIN:VCARD\nFN:ok\nBAD NAME:x\nEND:VCARD\n", 3, "is not a property name"),
        (b"\n\n", 0, "holds no vCard"),
    ],
)
def test_vcard_errors_name_the_line(data, line, problem):
    with pytest.raises(vc.VCardError) as caught:
        vc.parse(data)
    assert caught.value.line == line and problem in caught.value.problem


def test_vcard_round_trip():
    fields = {
        "name": "Zoë O'Brien",
        "email": "zoe@x.example",
        "phone": "+1 2",
        "org": "A, B; C",
        "note": "line\nand \\ more",
    }
    [card] = vc.parse(vc.serialize(fields, True).encode())
    assert card.fields() == fields and card.favorite
    [again] = vc.parse(vc.serialize(card.fields(), card.favorite, card).encode())
    assert again.fields() == fields and again.n == card.n


def test_an_unreadable_file_is_skipped_and_named():
    w, env, _ = _seeded()
    out = one(
        env, act("terminal.v1", "execute", command="chmod 000 ~/.local/share/contacts/grace.vcf")
    )
    assert out["success"]
    assert _names(env) == ["Ada Lovelace", "Alan Turing"]
    assert "Skipped grace.vcf: Permission denied" in _texts(env)
    assert _files(w) == ["grace.vcf", "team.vcf"]
