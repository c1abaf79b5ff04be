"""The assistant kind end to end: answers from the world's search index (every service's
search_entries, search engines' own entries, its own), templated answers with sources, a
kept conversation per signed-in user and none for anonymous visitors, privacy, malformed
input, snapshots, forks and replay."""

from __future__ import annotations

import copy
import json

import pytest

from cwgym import World
from cwgym.environment.replay import replay
from cwgym.net.http import Headers, Request, parse_url
from cwgym.net.services import SERVICE_KINDS
from cwgym.resources import load_world
from cwgym.services.assistant import answer, subject_terms

BOT = "http://bot.office.internal:8091"
WIFI = "The guest network is OfficeGuest, password sunflower42."


def definition(**state) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"][0]["search_entries"] = [
        {"title": "Guest Wi-Fi", "url": "/wiki/Wifi", "snippet": WIFI, "keywords": ["wifi", "password"]},
        {"title": "Printers", "url": "/wiki/Printers", "snippet": "Printers are on floor 2."}]
    d["services"].append({"id": "search", "kind": "search", "node": "fileserver", "port": 8090,
                          "initial_state": {"entries": [{"title": "Wifi troubleshooting", "url": "http://help.example/wifi"}]}})
    d["services"].append({"id": "bot", "kind": "assistant", "node": "fileserver", "port": 8091, "domains": ["bot.office.internal"],
                          "initial_state": {"users": [{"name": "ada", "password": "pw"}, {"name": "bob", "password": "pw2"}],
                                            "entries": [{"title": "Lunch", "url": "http://canteen.example/", "snippet": "Soup today."}],
                                            **state}})
    d["network"]["dns"].append({"name": "bot.office.internal", "address": "10.20.1.5", "resolver": "fileserver"})
    return d


def shell(world: World, machine: str = "reception"):
    computer = next(c for c in world.definition()["computers"] if c["id"] == machine)
    env = world.environment({"actor": computer["user"], "machines": [machine], "actions": ["terminal.v1"], "observations": []})

    def run(command: str) -> str:
        out = env.step([{"family": "terminal.v1", "op": "execute", "machine": machine, "payload": {"command": command}}])
        return out["outcomes"][0]["value"]["stdout"]

    return run


def ask(run, question: str, auth: str = "") -> dict:
    body = json.dumps({"question": question}).replace("'", "'\\''")
    return json.loads(run(f"curl -s {auth} -H 'Content-Type: application/json' -d '{body}' {BOT}/api/ask"))


def state(world: World) -> dict:
    return world.runtime.network.services["bot"]


# -- answers ----------------------------------------------------------------------------------

def test_an_answer_quotes_the_best_match_and_lists_sources():
    run = shell(World(definition()))
    reply = ask(run, "What is the wifi password?")
    assert reply == {
        "id": None, "question": "What is the wifi password?",
        "answer": f'I found 2 pages about "wifi password". The best match is "Guest Wi-Fi": {WIFI}',
        "sources": [{"title": "Guest Wi-Fi", "url": "http://wiki.office.internal/wiki/Wifi", "snippet": WIFI},
                    {"title": "Wifi troubleshooting", "url": "http://help.example/wifi", "snippet": ""}]}


def test_an_entry_without_a_snippet_is_named_with_its_url_and_nothing_found_says_so():
    run = shell(World(definition()))
    assert ask(run, "troubleshooting")["answer"] == \
        'I found 1 page about "troubleshooting". The best match is "Wifi troubleshooting" (http://help.example/wifi).'
    assert ask(run, "Where is the gym?") == {"id": None, "question": "Where is the gym?", "sources": [],
                                             "answer": 'I couldn\'t find anything about "gym" in this world.'}
    # its own entries are in the index too, and plurals find the singular
    assert ask(run, "lunch")["sources"][0]["url"] == "http://canteen.example/"
    assert subject_terms("Where are the printers?") == ["printer"]
    assert subject_terms("what is it") == ["what", "is", "it"]  # nothing but common words: keep them


def test_an_empty_assistant_answers_from_nothing():
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "bot", "kind": "assistant", "node": "fileserver", "port": 8091, "domains": ["bot.office.internal"]})
    run = shell(World(d))
    home = run(f"curl -s {BOT}/")
    assert '<form id="ask-form" action="/ask" method="post">' in home and '<textarea id="question" name="question"' in home
    assert ask(run, "wifi")["answer"] == 'I couldn\'t find anything about "wifi" in this world.'
    assert answer([], "hello") == ('I couldn\'t find anything about "hello" in this world.', [])


def test_an_anonymous_question_is_answered_on_the_page_and_not_kept():
    world = World(definition())
    run = shell(world)
    before = state(world)
    page = run(f"curl -s -d 'question=where are the printers?' {BOT}/ask")
    assert '<p id="reply-answer">Assistant: I found 1 page about &quot;printers&quot;. The best match is ' \
           '&quot;Printers&quot;: Printers are on floor 2.</p>' in page
    assert '<a id="reply-source-1" href="http://wiki.office.internal/wiki/Printers">Printers</a>' in page
    assert '<p id="not-kept">Sign in to keep your conversation.</p>' in page
    assert state(world) is before


# -- conversations ----------------------------------------------------------------------------

def test_a_signed_in_conversation_is_kept_and_private():
    world = World(definition())
    run = shell(world)
    out = run(f"curl -s -i -u ada:pw -d 'question=wifi password' {BOT}/ask")
    assert out.startswith("HTTP/1.1 303 See Other") and "Location: /\r\n" in out
    assert ask(run, "printers", "-u ada:pw")["id"] == 2
    chat = run(f"curl -s -u ada:pw {BOT}/")
    assert chat.index('<p id="message-1-question"><strong>You: wifi password</strong></p>') < \
        chat.index('<p id="message-2-question"><strong>You: printers</strong></p>')
    assert '<a id="message-1-source-1" href="http://wiki.office.internal/wiki/Wifi">Guest Wi-Fi</a>' in chat
    history = json.loads(run(f"curl -s -u ada:pw {BOT}/api/history"))
    assert [(m["id"], m["question"]) for m in history["messages"]] == [(1, "wifi password"), (2, "printers")]
    # bob sees none of it
    assert json.loads(run(f"curl -s -u bob:pw2 {BOT}/api/history")) == {"user": "bob", "messages": []}
    assert "message-1" not in run(f"curl -s -u bob:pw2 {BOT}/")
    assert run(f"curl -s -w ' %{{http_code}}' -u bob:pw2 {BOT}/api/messages/1") == \
        '{"error": "this message belongs to another user"} 403'
    assert run(f"curl -s -o /dev/null -w '%{{http_code}}' -u bob:pw2 {BOT}/messages/1") == "403"
    assert run(f"curl -s -o /dev/null -w '%{{http_code}}' -u ada:pw {BOT}/messages/9") == "404"
    assert "Asked " in run(f"curl -s -u ada:pw {BOT}/messages/1")
    assert run(f"curl -s -w ' %{{http_code}}' {BOT}/api/history") == '{"error": "sign in first"} 401'
    # clearing forgets ada's messages only
    ask(run, "lunch", "-u bob:pw2")
    run(f"curl -s -u ada:pw -X POST {BOT}/clear")
    assert sorted(state(world)["messages"]) == ["3"] and state(world)["conversations"] == {"bob": [3]}


def test_a_question_asked_on_one_machine_shows_on_another_only_through_a_request():
    world = World(definition())
    reception, laptop = shell(world), shell(world, "legal-laptop")
    ask(reception, "lunch", "-u ada:pw")
    assert '<p id="message-1-answer">Assistant: I found 1 page about &quot;lunch&quot;.' in laptop(f"curl -s -u ada:pw {BOT}/")


@pytest.mark.parametrize(("body", "kind", "status", "message"), [
    ('{"question": ""}', "application/json", 400, "the field 'question' is required"),
    ('{"question": 5}', "application/json", 400, "question: a string"),
    ('["q"]', "application/json", 400, 'the body is a JSON object {"question": ...}'),
    ("question=" + "a" * 1001, "application/x-www-form-urlencoded", 400, "the field 'question' is longer than 1000 characters"),
])
def test_malformed_questions_are_400_and_change_nothing(body, kind, status, message):
    service = SERVICE_KINDS["assistant"]
    st = service.initial({"users": [{"name": "ada", "password": "pw"}]}, "x")
    headers = Headers((("Content-Type", kind), ("Authorization", "Basic YWRhOnB3")))
    response, after = service.handle(st, Request("POST", parse_url(BOT + "/api/ask"), headers, body.encode()), "reception", 0)
    assert (response.status, json.loads(response.body)) == (status, {"error": message})
    assert after is st


def test_a_message_id_that_is_not_a_number_is_400():
    run = shell(World(definition()))
    assert run(f"curl -s -w ' %{{http_code}}' -u ada:pw {BOT}/api/messages/x") == \
        "{\"error\": \"a message id is a number, got 'x'\"} 400"


# -- state ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("change", "where"), [
    ({"entries": [{"title": "T", "url": "/x"}]}, r"\$\.services\[2\]\.initial_state\.entries\[0\]\.url: '/x' is not"),
    ({"entries": [{"url": "http://x/"}]}, r"\$\.services\[2\]\.initial_state\.entries\[0\]\.title: required"),
    ({"brand": ""}, r"\$\.services\[2\]\.initial_state\.brand: empty"),
    ({"messages": []}, r"\$\.services\[2\]\.initial_state\.messages: expected dict"),
    ({"messages": {"1": {"id": 1, "user": "zed", "question": "q", "answer": "a", "sources": [], "at_us": 0}}},
     r"\$\.services\[2\]\.initial_state\.messages\.1\.user: no such account 'zed'"),
])
def test_a_malformed_initial_state_is_refused_naming_its_path(change, where):
    with pytest.raises(ValueError, match=where):
        World(definition(**change))


def test_a_search_services_malformed_entries_are_named_by_the_assistant_too():
    d = definition()
    d["services"][1]["initial_state"]["entries"] = [{"title": "T", "url": "relative"}]
    with pytest.raises(ValueError, match=r"\$\.services\[1\]\.initial_state\.entries\[0\]\.url"):
        World(d)


def test_a_built_state_revalidates_unchanged_and_survives_export():
    world = World(definition())
    ask(shell(world), "wifi", "-u ada:pw")
    built = state(world)
    assert SERVICE_KINDS["assistant"].initial(copy.deepcopy(built), "x", world.runtime.definition) == built
    bad = copy.deepcopy(built)
    bad["conversations"]["bob"] = [1]
    with pytest.raises(ValueError, match=r"x\.conversations\.bob: a list of ids of this user's messages"):
        SERVICE_KINDS["assistant"].initial(bad, "x", world.runtime.definition)
    again = World(definition())
    again.import_snapshot(world.export_snapshot())
    assert again.state_hash() == world.state_hash()


def test_snapshots_and_forks_keep_their_own_conversations():
    world = World(definition())
    run = shell(world)
    ask(run, "wifi", "-u ada:pw")
    snap = world.snapshot()
    ask(run, "lunch", "-u ada:pw")
    fork = world.fork(snap)
    assert [m["question"] for m in json.loads(shell(fork)(f"curl -s -u ada:pw {BOT}/api/history"))["messages"]] == ["wifi"]
    assert state(world)["conversations"]["ada"] == [1, 2]


def test_replaying_the_same_steps_gives_the_same_state_hash():
    world = World(definition(), seed=5)
    run = shell(world)
    ask(run, "wifi", "-u ada:pw")
    ask(run, "printers")
    assert replay(definition(), 5, world.trajectory()).state_hash() == world.state_hash()
