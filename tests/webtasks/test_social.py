"""The social-media kinds: seeded feeds, pages that fit the kiosk unscrolled, and answers
the verifier tells apart (the procedure's answer and its equals pass, others fail)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from cwgym import World
from cwgym.desktop.themes.kiosk import SCREEN
from cwgym.procedures import load_procedure, project, stage, verify
from cwgym.protocol.page import Checkbox, Form, Page, Table
from cwgym.resources import load_world
from cwgym.web.layout import layout_page
from cwgym.webtasks import generate, kind_of

KINDS = ("social-media", "social-media-all", "social-media-some")
SCROLL_BAR = 12  # the browser's scroll bar takes this much of the kiosk's width


@pytest.mark.parametrize("kind", KINDS)
def test_generation_is_seeded_and_varies(kind):
    assert generate(kind, 3) == generate(kind, 3)
    tasks = [generate(kind, seed) for seed in range(20)]
    assert len({t["instruction"] for t in tasks}) >= 2
    assert all(set(t) == set(tasks[0]) for t in tasks)
    mine = {"social-media": 1, "social-media-all": 2, "social-media-some": 3}[kind]
    for t in tasks:
        users = [p["user"] for p in t["posts"]]
        assert len(users) == 4 and users.count(t["user"]) == mine
        assert len({p["id"] for p in t["posts"]}) == 4
        assert f"@{t['user']}" in t["instruction"]
    assert len({t["posts"][0]["user"] for t in tasks}) > 1  # the order varies too
    assert kind_of(kind).family == "messaging"


def test_the_counts_and_actions_vary():
    assert {generate("social-media", s)["action"] for s in range(20)} == {"like", "share", "reply"}
    assert {generate("social-media-all", s)["action"] for s in range(20)} == {"like", "share"}
    assert {generate("social-media-some", s)["count"] for s in range(20)} == {1, 2}


def _controls(elements) -> list:
    out = []
    for e in elements:
        out.append(e)
        if isinstance(e, Form):
            out += _controls(e.children)
        elif isinstance(e, Table):
            out += _controls([c for row in e.rows for c in row])
    return out


@pytest.mark.parametrize("kind", KINDS)
def test_every_page_fits_the_kiosk_without_scrolling(kind):
    width, height = SCREEN
    for seed in range(20):
        task = generate(kind, seed)
        elements = kind_of(kind).page(task, {})
        layout = layout_page(Page(kind, tuple(elements)), width - SCROLL_BAR)
        assert layout.height <= height and not layout.hscrolls, (seed, layout.height)
        ids = [e.id for e in _controls(elements)]
        assert all(ids) and len(set(ids)) == len(ids)


def _env(world: World):
    return world.environment({"actor": "agent", "machines": ["kiosk"], "actions": ["http.v1"], "observations": []})


def _get(env, path: str) -> tuple[int, str]:
    out = env.step([{"family": "http.v1", "op": "request", "machine": "kiosk",
                     "payload": {"method": "GET", "url": "http://tasks.web" + path, "headers": {}, "body": ""}}])
    value = out["outcomes"][0]["value"]
    return value["status"], bytes(value["body"]).decode()


@pytest.mark.parametrize("kind", KINDS)
def test_the_feed_renders(kind):
    world = World(load_world("web-tasks"), seed=0)
    world.set_service_state("tasks", {"task": {"kind": kind, "seed": 4}})
    status, html = _get(_env(world), "/")
    task = generate(kind, 4)
    assert status == 200 and all(f"@{p['user']}: {p['text']}" in html for p in task["posts"])


def _answers(kind: str, task: dict) -> tuple[list, list]:
    """Submissions (lists of name/value pairs) that must pass, and ones that must fail."""
    user, action = task["user"], task["action"]
    others = [p for p in task["posts"] if p["user"] != user]
    other_action = "share" if action == "like" else "like"
    if kind == "social-media":
        return [[("user", user), ("action", action)]], [
            [("user", others[0]["user"]), ("action", action)],
            [("user", user), ("action", "reply" if action != "reply" else "like")]]
    if kind == "social-media-all":
        ids = task["ids"].split(",")
        return [[(action, i) for i in ids]], [
            [(action, ids[0])], [(action, ids[1])], [(action, i) for i in (*ids, others[0]["id"])],
            [(other_action, i) for i in ids], [*((action, i) for i in ids), (other_action, ids[0])]]
    n = task["count"]
    return [[(action, user)] * n], [
        [(action, user)] * (3 - n), [(action, user)] * 3, [*[(action, user)] * n, (action, others[0]["user"])],
        [(other_action, user)] * n, [*[(action, user)] * n, (other_action, user)]]


@pytest.mark.parametrize("kind", KINDS)
def test_the_procedures_answer_verifies_and_a_wrong_one_does_not(kind):
    world = World(load_world("web-tasks"), seed=0)
    instance = stage(world, load_procedure(f"web-{kind}"), seed=2)
    assert project(world, instance, {"mode": "tool"}).verification.passed
    right, wrong = _answers(kind, instance.params["task"])
    for pairs, passes in [*((p, True) for p in right), *((p, False) for p in wrong)]:
        other = World(load_world("web-tasks"), seed=0)
        staged = stage(other, load_procedure(f"web-{kind}"), seed=2)
        assert _get(_env(other), "/submit?" + urlencode(pairs))[0] == 200
        assert verify(other, staged).passed is passes, pairs


def test_any_n_of_the_users_posts_submit_the_same_answer():
    """social-media-some: every box of the user's posts submits the author, so which posts
    are ticked does not matter; the boxes ticked at first are not the answer."""
    for seed in range(20):
        task = generate("social-media-some", seed)
        boxes = [e for e in _controls(kind_of("social-media-some").page(task, {})) if isinstance(e, Checkbox)]
        asked = [b for b in boxes if b.name == task["action"] and b.value == task["user"]]
        assert len(asked) == 3 and task["tick_id"] in {b.id for b in asked}
        first = [(b.name, b.value) for b in boxes if b.checked]
        assert task["untick_id"] in {b.id for b in boxes if b.checked}
        assert ",".join(v for n, v in first if n == task["action"]) != task["expected"] or len(first) > task["count"]
