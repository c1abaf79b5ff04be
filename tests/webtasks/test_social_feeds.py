"""The social-media kinds: their feeds, pages that fit the kiosk unscrolled, and answers the
verifier tells apart (the answer's equals pass, others fail; test_every_kind.py checks
what every kind shares)."""

from __future__ import annotations

import pytest
from webtask_kit import family_kinds, get, http_env, staged_task, submit, tasks_world, walk

from cwgym.desktop.themes.kiosk import SCREEN
from cwgym.protocol.page import Checkbox, Page
from cwgym.web.layout import layout_page
from cwgym.webtasks import generate, kind_of

KINDS = ("social-media", "social-media-all", "social-media-some")
SCROLL_BAR = 12  # the browser's scroll bar takes this much of the kiosk's width


def test_these_kinds_are_messaging():
    assert set(KINDS) <= family_kinds("messaging")


@pytest.mark.parametrize("kind", KINDS)
def test_the_feeds_hold_four_posts_and_the_users_own(kind):
    tasks = [generate(kind, seed) for seed in range(20)]
    mine = {"social-media": 1, "social-media-all": 2, "social-media-some": 3}[kind]
    for t in tasks:
        users = [p["user"] for p in t["posts"]]
        assert len(users) == 4 and users.count(t["user"]) == mine
        assert len({p["id"] for p in t["posts"]}) == 4
        assert f"@{t['user']}" in t["instruction"]
    assert len({t["posts"][0]["user"] for t in tasks}) > 1  # the order varies too


def test_the_counts_and_actions_vary():
    assert {generate("social-media", s)["action"] for s in range(20)} == {"like", "share", "reply"}
    assert {generate("social-media-all", s)["action"] for s in range(20)} == {"like", "share"}
    assert {generate("social-media-some", s)["count"] for s in range(20)} == {1, 2}


@pytest.mark.parametrize("kind", KINDS)
def test_every_page_fits_the_kiosk_without_scrolling(kind):
    width, height = SCREEN
    for seed in range(20):
        task = generate(kind, seed)
        elements = kind_of(kind).page(task, {})
        layout = layout_page(Page(kind, tuple(elements)), width - SCROLL_BAR)
        assert layout.height <= height and not layout.hscrolls, (seed, layout.height)
        ids = [e.id for e in walk(elements)]
        assert all(ids) and len(set(ids)) == len(ids)


@pytest.mark.parametrize("kind", KINDS)
def test_the_feed_renders(kind):
    status, html = get(http_env(tasks_world(kind, 4)), "/")
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
def test_the_answer_and_its_equals_verify_and_others_do_not(kind):
    right, wrong = _answers(kind, staged_task(kind))
    for pairs, passes in [*((p, True) for p in right), *((p, False) for p in wrong)]:
        assert submit(kind, pairs).passed is passes, pairs


def test_any_n_of_the_users_posts_submit_the_same_answer():
    """social-media-some: every box of the user's posts submits the author, so which posts
    are ticked does not matter; the boxes ticked at first are not the answer."""
    for seed in range(20):
        task = generate("social-media-some", seed)
        boxes = [e for e in walk(kind_of("social-media-some").page(task, {})) if isinstance(e, Checkbox)]
        asked = [b for b in boxes if b.name == task["action"] and b.value == task["user"]]
        assert len(asked) == 3 and task["tick_id"] in {b.id for b in asked}
        first = [(b.name, b.value) for b in boxes if b.checked]
        assert task["untick_id"] in {b.id for b in boxes if b.checked}
        assert ",".join(v for n, v in first if n == task["action"]) != task["expected"] or len(first) > task["count"]
