"""Worlds written for the reference engine: each kind's ``initial_state`` in the reference's
form loads, its content shows on the kind's pages, what cwgym cannot represent is refused
naming the reference's path, and a state in cwgym's own form is never taken for it.

The samples in ``data/reference_forms.json`` load in the reference engine too
(``python -m benchmarks.check_reference_forms``)."""

from __future__ import annotations

import base64
import copy
import json
import pathlib

import pytest

from cwgym import World
from cwgym.services.reference_form import in_reference_form, reference_kinds
from tests.services.every_place import places, sweep
from tests.services.test_every_kind import get, world_with

FORMS = json.loads((pathlib.Path(__file__).parent / "data" / "reference_forms.json").read_text())
PEOPLE = [{"name": "ada", "password": "pw"}, {"name": "bob", "password": "pw"}]


def signable(kind: str) -> dict:
    """The kind's sample, with cwgym's fields the reference engine ignores added so ada and
    bob can sign in: accounts with passwords, or (mail, whose ``users`` are addresses)
    sessions already signed in."""
    state = copy.deepcopy(FORMS[kind])
    if kind == "mail":
        state["sessions"] = {"sid-ada": "ada", "sid-bob": "bob"}
    elif kind not in ("git", "media", "search"):
        state["users"] = copy.deepcopy(PEOPLE)
    return state


def page(world: World, path: str, user: str | None = None) -> tuple[int, str]:
    headers = {}
    if user:
        headers["Authorization"] = "Basic " + base64.b64encode(f"{user}:pw".encode()).decode()
        if service_state(world)["users"][user]["password"] == "":
            headers = {"Cookie": f"sid=sid-{user}"}
    out = get(world, path, headers=headers)
    return out["status"], out["body"].decode()


def service_state(world: World) -> dict:
    return next(s["state"] for s in world.inspect()["state"]["services"] if s["id"] == "site")


@pytest.mark.parametrize("kind", sorted(FORMS))
def test_every_sample_loads_and_answers_its_home_page(kind):
    world = world_with(kind, copy.deepcopy(FORMS[kind]))
    assert get(world, "/")["status"] == 200


def test_every_reader_has_a_sample():
    assert set(reference_kinds()) <= set(FORMS)


# (kind, path, who signs in, text the page shows)
PAGES = [
    ("mail", "/", "ada", "Printer on floor 2"),
    ("mail", "/folder/Sent", "bob", "Printer on floor 2"),
    ("wiki", "/wiki/Printers", None, "LaserJet 4"),
    ("wiki", "/wiki/Printers", None, "Vendor manual"),
    ("wiki", "/wiki/Main_Page", None, "The new printer arrived"),
    ("wiki", "/wiki/Talk:Printers", None, "Is floor 3 missing?"),
    ("wiki", "/wiki/Printer", None, "moved to"),
    ("chat", "/c/general", "bob", "Printer is down again"),
    ("chat", "/c/general/m/1/react", "bob", "@bob"),
    ("slack", "/w/acme/c/ops", "ada", "Deploy at noon"),
    ("calendar", "/events/1", "bob", "Printer vendor call"),
    ("docs", "/d/1", "bob", "Clear the jam"),
    ("issues", "/browse/OPS-1", "bob", "Ordered a new roller"),
    ("bank", "/", "ada", "Everyday"),
    ("shop", "/p/p1", None, "80 gsm"),
    ("shop", "/cart", "ada", "A4 paper"),
    ("forum", "/t/1", None, "Worn roller"),
    ("social", "/posts/1", "bob", "New printer day!"),
    ("drive", "/files/Manuals", "ada", "printer.txt"),
    ("media", "/", None, "Clearing a printer jam"),
    ("search", "/search?q=printer+jam", None, "Printer troubleshooting"),
    ("git", "/ada/printer-tools", None, "a.txt"),
]


@pytest.mark.parametrize(("kind", "path", "user", "text"), PAGES)
def test_the_content_shows_on_the_kinds_pages(kind, path, user, text):
    status, body = page(world_with(kind, signable(kind)), path, user)
    assert status == 200, body[:300]
    assert text in body


def test_the_assistant_answers_from_the_reference_facts():
    world = world_with("assistant", signable("assistant"))
    out = get(world, "/api/ask", "POST", json.dumps({"question": "why does the printer jam"}),
              {"Content-Type": "application/json"})
    assert out["status"] == 200
    assert "duplex" in json.loads(out["body"])["answer"]


def test_records_keep_their_people_times_and_states():
    mail = service_state(world_with("mail", signable("mail")))
    inbox = mail["mailboxes"]["ada"]
    assert [(m["subject"], m["folder"], m["unread"], m["at_us"]) for m in inbox] == \
        [("Printer on floor 2", "Inbox", True, 1_000_000)]
    assert [m.get("thread") for m in mail["mailboxes"]["bob"]] == [None, "m1"]
    assert mail["domain"] == "office.internal"
    assert sorted(mail["users"]) == ["ada", "bob", "grace"]  # users, and the addresses accounts name
    assert mail["sessions"] == {"sid-ada": "ada", "sid-bob": "bob"}

    calendar = service_state(world_with("calendar", signable("calendar")))
    event = calendar["events"]["1"]
    assert (event["organizer"], event["attendees"], event["start"], event["end"]) == \
        ("ada", {"bob": "accepted"}, "2026-09-17T10:00", "2026-09-17T10:30")

    issues = service_state(world_with("issues", signable("issues")))["projects"]["OPS"]
    assert issues["workflow"] == ["open", "closed"]
    assert [(i["key"], i["state"], i["assignee"], i["reporter"]) for i in issues["issues"].values()] == \
        [("OPS-1", "open", "ada", "bob"), ("OPS-2", "closed", None, "ada")]
    assert issues["issues"]["1"]["comments"][0]["at_us"] == 7

    bank = service_state(world_with("bank", signable("bank")))["accounts"]["chk-1"]
    assert bank["balance_cents"] == 125_000
    assert [t["amount_cents"] for t in bank["transactions"]] == [200_000, -4_599]  # oldest first

    shop = service_state(world_with("shop", signable("shop")))
    assert shop["carts"]["ada"][0]["sku"] == "p1" and shop["carts"]["ada"][0]["qty"] == 2
    assert shop["orders"]["1001"]["status"] == "placed" and shop["next_order"] == 1002

    social = service_state(world_with("social", signable("social")))
    assert social["posts"]["2"]["reply_to"] == 1 and social["posts"]["1"]["likes"] == ["bob"]
    assert social["follows"] == [["bob", "ada"]]

    docs = service_state(world_with("docs", signable("docs")))["documents"]["1"]
    assert docs["shared"] == {"bob": "viewer"} and len(docs["revisions"]) == 2


def test_posts_are_numbered_in_the_order_they_were_posted_whatever_their_keys():
    state = copy.deepcopy(FORMS["social"])
    state["posts"] = {"z-reply": {"id": "z-reply", "author": "bob", "text": "Finally.", "tick": 6, "reply_to": "a-first"},
                      "a-first": {"id": "a-first", "author": "ada", "text": "New printer day!", "tick": 5}}
    state["likes"] = {"bob": ["a-first"]}
    posts = service_state(world_with("social", state))["posts"]
    assert [(p["text"], p["reply_to"], p["likes"]) for p in posts.values()] == \
        [("New printer day!", None, ["bob"]), ("Finally.", 1, [])]


def test_people_named_only_in_records_are_accounts_without_passwords():
    state = service_state(world_with("chat", copy.deepcopy(FORMS["chat"])))
    assert state["users"]["ada"]["password"] == "" and state["users"]["bob"]["password"] == ""
    basic = "Basic " + base64.b64encode(b"ada:").decode()
    out = get(world_with("chat", copy.deepcopy(FORMS["chat"])), "/c/general", headers={"Authorization": basic})
    assert out["status"] == 401  # no password signs in an account without one


def test_a_reference_form_world_replays_snapshots_and_forks():
    worlds = [world_with(kind, copy.deepcopy(FORMS[kind])) for kind in ("mail", "wiki", "shop")]
    again = [world_with(kind, copy.deepcopy(FORMS[kind])) for kind in ("mail", "wiki", "shop")]
    assert [w.state_hash() for w in worlds] == [w.state_hash() for w in again]
    world = worlds[1]
    snap = world.snapshot()
    page(world, "/wiki/Printers")
    fork = world.fork()
    assert fork.state_hash() == world.state_hash()
    world.restore(snap)
    assert world.state_hash() == again[1].state_hash()


# (kind, change to the sample, the path the error names, words it says)
REFUSED = [
    ("mail", lambda s: s["messages"]["m1"]["mailboxes"]["ada@office.internal"].update(labels=["work"]),
     "mailboxes.ada@office.internal.labels", "labels"),
    ("mail", lambda s: s["messages"]["m1"]["mailboxes"]["ada@office.internal"].update(folders=["inbox", "work"]),
     "mailboxes.ada@office.internal.folders", "one folder"),
    ("mail", lambda s: s["messages"]["m1"].update(time="noon"), "messages.m1.time", "an integer"),
    ("mail", lambda s: s["messages"]["m1"].pop("sender"), "messages.m1.sender", "required"),
    ("mail", lambda s: s["users"].append("eve@elsewhere.example"), "initial_state.users", "2 domains"),
    ("chat", lambda s: s["channels"]["general"]["messages"][0].update(reactions={"Eyes!": ["bob"]}),
     "messages[0].reactions.Eyes!", "short name"),
    ("wiki", lambda s: s.update(skin="vector"), "initial_state.skin", "own style"),
    ("wiki", lambda s: s["articles"]["printers"].update(see_also=["nowhere"]), "printers.see_also[0]", "no article"),
    ("wiki", lambda s: s["articles"]["printers"].update(infobox=[["Model"]]), "printers.infobox[0]", "pair"),
    ("calendar", lambda s: s["events"]["e1"].update(start=3_600_000_001), "events.e1.start", "whole minutes"),
    ("calendar", lambda s: s["events"]["e1"]["attendees"].update(bob="perhaps"), "attendees.bob", "a response"),
    ("issues", lambda s: s["projects"]["OPS"]["issues"]["2"].update(kind="pull_request"), "issues.2.kind",
     "pull requests"),
    ("issues", lambda s: s["projects"]["OPS"].update(readers=["carol"]), "projects.OPS.readers", "may only read"),
    ("issues", lambda s: s["projects"]["OPS"]["issues"]["2"].update(id=3), "issues.2.id", "does not match"),
    ("bank", lambda s: s["accounts"]["chk-1"].update(limit_cents=50_000), "accounts.chk-1.limit_cents", "credit"),
    ("bank", lambda s: s["transactions"]["t1"].update(account="nope"), "transactions.t1.account", "no account"),
    ("bank", lambda s: s["payees"]["p1"].update(account_hint="9911"), "payees.p1.account_hint", "own accounts"),
    ("shop", lambda s: s.update(mode="tickets"), "initial_state.mode", "retail"),
    ("shop", lambda s: s["carts"]["ada"].update(p9=1), "carts.ada.p9", "no product"),
    ("shop", lambda s: s["orders"]["1001"].update(status="lost"), "orders.1001.status", "placed"),
    ("forum", lambda s: s["threads"]["t1"].update(board="nowhere"), "threads.t1.board", "no board"),
    ("social", lambda s: s["posts"]["p2"].update(reply_to="p9"), "posts.p2.reply_to", "no post 'p9' posted before it"),
    ("social", lambda s: s["posts"]["p1"].update(tick=9), "posts.p2.reply_to", "no post 'p1' posted before it"),
    ("drive", lambda s: s["nodes"]["n1"].update(parent="lost"), "nodes.n1.parent", "no folder"),
    ("assistant", lambda s: s.update(greeting="Hi!"), "initial_state.greeting", "fixed wording"),
    ("media", lambda s: s["items"]["v1"].update(channel="c9"), "items.v1.channel", "no channel"),
    ("media", lambda s: s["items"]["v1"].update(likes=40), "items.v1.likes", "likes"),
    ("search", lambda s: s.update(trending=["printers"]), "initial_state.trending", "trending"),
    ("search", lambda s: s["documents"][0].pop("url"), "documents[0].url", "required"),
    ("git", lambda s: s["repositories"]["empty"].update(readers=["bob"]), "repositories.empty.readers", "may only read"),
    ("git", lambda s: s["repositories"]["empty"].update(writers=[]), "repositories.empty.writers", "owner"),
    ("git", lambda s: s["repositories"]["printer-tools"]["refs"].update({"refs/tags/v1": "x"}),
     "refs.refs/tags/v1", "branches"),
    ("git", lambda s: s["repositories"]["printer-tools"]["refs"].update({"refs/heads/main": "nope"}),
     "refs.refs/heads/main", "no commit"),
]


@pytest.mark.parametrize(("kind", "change", "path", "words"), REFUSED,
                         ids=[f"{k}-{p}" for k, _, p, _ in REFUSED])
def test_what_cwgym_cannot_carry_is_refused_naming_the_reference_path(kind, change, path, words):
    state = copy.deepcopy(FORMS[kind])
    change(state)
    with pytest.raises(ValueError) as err:
        world_with(kind, state)
    assert path in str(err.value) and words in str(err.value), str(err.value)
    assert "$.services[1].initial_state" in str(err.value)


def test_no_field_marking_the_references_form_is_one_of_cwgyms_own():
    from cwgym.net.services import SERVICE_KINDS
    from cwgym.services.reference_form import _READERS
    for kind, (marks, _, _) in _READERS.items():
        own = set(SERVICE_KINDS.get(kind).fields) | {"users", "sessions", "next_session", "brand"}
        assert not marks & own, (kind, marks & own)


def test_states_in_cwgyms_own_form_are_not_read_as_the_references():
    own = {
        "mail": {"users": [{"name": "ada", "password": "pw"}], "mailboxes": {"ada": []}},
        "chat": {"users": PEOPLE, "channels": [{"name": "general"}]},
        "calendar": {"users": PEOPLE, "events": [{"title": "T", "start": "2026-01-01T10:00",
                                                  "end": "2026-01-01T11:00", "organizer": "ada"}]},
        "issues": {"users": PEOPLE, "projects": [{"key": "OPS", "name": "Ops"}]},
        "shop": {"users": PEOPLE, "products": [{"sku": "a", "name": "A", "price_cents": 1}]},
        "social": {"users": PEOPLE, "posts": [{"author": "ada", "text": "hi"}], "follows": [["bob", "ada"]]},
    }
    for kind, state in own.items():
        assert not in_reference_form(kind, state), kind
        built = service_state(world_with(kind, copy.deepcopy(state)))
        assert not in_reference_form(kind, {k: v for k, v in built.items() if k != "users"}), kind


def test_a_git_history_keeps_its_commits_branches_and_merges():
    state = {"repositories": {"app": {"writers": ["ada"], "readers": [], "refs": {
        "refs/heads/main": "m", "refs/heads/topic": "t"}, "objects": {
        "m": {"author": "ada", "files": {"a": "1", "b": "2"}, "message": "merge topic", "parents": ["r", "t"],
              "tick": 30},
        "t": {"author": "bob", "files": {"a": "1", "b": "2"}, "message": "add b", "parents": ["r"], "tick": 20},
        "r": {"author": "ada", "files": {"a": "1"}, "message": "start", "parents": [], "tick": 10}}}}}
    repo = service_state(world_with("git", state))["repos"]["ada/app"]
    head = repo["commits"][repo["branches"]["main"]]
    topic = repo["commits"][repo["branches"]["topic"]]
    root = repo["commits"][head["parent"]]
    assert (head["message"], head["merge_parent"], head["at_us"]) == ("merge topic", topic["id"], 30)
    assert (root["message"], root["parent"], root["files"]) == ("start", None, {"a": "1"})
    assert topic["author"] == "bob" and "bob" in service_state(world_with("git", state))["users"]
    looped = copy.deepcopy(state)
    looped["repositories"]["app"]["objects"]["r"]["parents"] = ["m"]
    with pytest.raises(ValueError, match="loops"):
        world_with("git", looped)


@pytest.mark.parametrize("kind", sorted(FORMS))
def test_any_value_in_any_place_loads_or_is_refused_with_a_valueerror(kind):
    """Every place of the sample (a field, an item, a record) holding each JSON type in
    turn, or taken out: the world builds, or its refusal is a ValueError naming the path,
    never a TypeError or KeyError from deep inside."""
    sweep(kind, FORMS[kind], list(places(FORMS[kind]))[1:])
