"""Social media: a feed of short posts by @users to like, share or reply to (MiniWoB++'s
social-media tasks).

Every feed is 4 posts, each its author's ``@name`` and three words, with its actions under
it: links that answer at once (social-media) or checkboxes ticked and then submitted
(social-media-all, social-media-some). Post ids (``p10``-``p99``) are drawn at random, so
an id says nothing of where a post is or whose it is. Every page fits the 320x420 kiosk
without scrolling (4 posts of a text line and a row of actions, and Submit).
"""

from __future__ import annotations

from typing import Any

from cwgym.protocol.page import Button, Checkbox, Element, Form, Link, Table, Text
from cwgym.webtasks import SUBMIT, TaskKind, TaskRandom, register
from cwgym.webtasks.words import FIRST_NAMES, WORDS

#: Posts in every feed (the pages are sized for this many).
POSTS = 4
#: What a post's links do in social-media, by the value submitted and the label shown.
LINK_ACTIONS = (("reply", "Reply"), ("share", "Share"), ("like", "Like"))
#: What a post's checkboxes mark in social-media-all and -some.
BOX_ACTIONS = (("like", "Like"), ("share", "Share"))

USERS = tuple(name.lower() for name in FIRST_NAMES)


def _feed(r: TaskRandom, authors: list[str]) -> list[dict[str, str]]:
    """Posts by ``authors`` in a seeded order, with three-word texts and ids drawn from
    ``p10``-``p99`` (another draw's ids rarely name this feed's boxes)."""
    order = r.shuffled(authors)
    ids = [f"p{i}" for i in r.sample(range(10, 100), len(order))]
    words = r.sample(WORDS, 3 * len(order))
    return [{"id": ids[i], "user": user, "text": " ".join(words[3 * i:3 * i + 3]).capitalize() + "."}
            for i, user in enumerate(order)]


def _label(action: str, actions: tuple[tuple[str, str], ...]) -> str:
    return dict(actions)[action]


def _post_text(post: dict[str, str]) -> Text:
    return Text(f"@{post['user']}: {post['text']}", id=f"{post['id']}-text")


def _box_feed(task: dict[str, Any]) -> list[Element]:
    """Each post's line and a row of its action checkboxes (``name`` the action, ``value``
    what the kind submits), then Submit; ``task["checked"]`` lists boxes ticked at first."""
    checked = set(task.get("checked", ()))
    out: list[Element] = []
    for post in task["posts"]:
        value = post[task["value_field"]]
        boxes = tuple(Checkbox(action, label=label, value=value, id=f"{post['id']}-{action}",
                               checked=f"{post['id']}-{action}" in checked) for action, label in BOX_ACTIONS)
        out += [_post_text(post), Table(rows=(boxes,), id=f"{post['id']}-actions")]
    return [Form(SUBMIT, (*out, Button("Submit", id="submit")), id="feed")]


@register
class SocialMedia(TaskKind):
    name = "social-media"
    family = "messaging"
    miniwob = "social-media"
    title = "Act on a post"
    variation = "4 posts: authors, texts and order; whose post and which action (Reply, Share or Like)"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        posts = _feed(r, r.sample(USERS, POSTS))
        post = r.choice(posts)
        action = r.choice([a for a, _ in LINK_ACTIONS])
        label = _label(action, LINK_ACTIONS)
        return {"instruction": f'For the user @{post["user"]}, click "{label}" on their post.',
                "posts": posts, "user": post["user"], "action": action, "action_id": f"{post['id']}-{action}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        out: list[Element] = []
        for post in task["posts"]:
            links = tuple(Link(label, f"{SUBMIT}?user={post['user']}&action={action}", id=f"{post['id']}-{action}")
                          for action, label in LINK_ACTIONS)
            out += [_post_text(post), Table(rows=(links,), id=f"{post['id']}-actions")]
        return out


@register
class SocialMediaAll(TaskKind):
    name = "social-media-all"
    family = "messaging"
    miniwob = "social-media-all"
    title = "Mark all posts of a user"
    variation = "4 posts, 2 by the asked user: authors, texts and order; which action (Like or Share)"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        users = r.sample(USERS, 3)
        posts = _feed(r, [users[0], users[0], users[1], users[2]])
        action = r.choice([a for a, _ in BOX_ACTIONS])
        theirs = [p["id"] for p in posts if p["user"] == users[0]]
        label = _label(action, BOX_ACTIONS)
        return {"instruction": f'Tick "{label}" on all posts by @{users[0]} and nothing else, then click Submit.',
                "posts": posts, "value_field": "id", "user": users[0], "action": action,
                "ids": ",".join(theirs), "tick_ids": [f"{pid}-{action}" for pid in theirs]}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return _box_feed(task)


@register
class SocialMediaSome(TaskKind):
    """Three posts are the asked user's; one box that must end unticked starts ticked (and
    for two posts, one of the user's boxes too), so the answer always takes an untick, a
    tick and Submit whether one or two posts are asked for."""

    name = "social-media-some"
    family = "messaging"
    miniwob = "social-media-some"
    title = "Mark some posts of a user"
    variation = ("4 posts, 3 by the asked user: authors, texts and order; the action (Like or Share), "
                 "how many of their posts (1 or 2) and which boxes start ticked")

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        user, other = r.sample(USERS, 2)
        posts = _feed(r, [user, user, user, other])
        action = r.choice([a for a, _ in BOX_ACTIONS])
        count = r.randint(1, 2)
        theirs = [p["id"] for p in posts if p["user"] == user]
        wrong = [f"{p['id']}-{a}" for p in posts for a, _ in BOX_ACTIONS if a != action or p["user"] != user]
        right = [f"{pid}-{action}" for pid in r.sample(theirs, count)]
        untick = r.choice(wrong)
        label = _label(action, BOX_ACTIONS)
        posts_word = "post" if count == 1 else "posts"
        return {"instruction": (f'Make exactly {count} {posts_word} by @{user} have "{label}" ticked, with no other '
                                "box ticked, then click Submit."),
                "posts": posts, "value_field": "user", "user": user, "action": action, "count": count,
                "checked": [untick, *right[1:]], "untick_id": untick, "tick_id": right[0],
                "expected": ",".join([user] * count)}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return _box_feed(task)
