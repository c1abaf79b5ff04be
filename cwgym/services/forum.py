"""``forum``: a discussion forum in the manner of Reddit and Stack Exchange.

Communities hold threads; a thread has replies (nested one level: a reply to a reply
joins its top-level reply and says whom it answers); signed-in users vote threads and
replies up or down (one vote per user per item, changeable or withdrawn), and the author
of a thread may mark one top-level reply as the accepted answer, which makes the forum a
Q&A site too. Authors edit and delete their own posts (``403`` for anyone else; a deleted
reply stays as ``[deleted]`` so the replies under it keep their place). Everything posted
is public; what a user voted is visible only to that user.

Routes (pages; a form ``POST`` answers ``303`` to the page it changed, or JSON to a JSON
client):

==========================================  ===================================================
``GET /``                                   communities, search box, create-a-community form
``POST /communities``                       create a community (``name``, ``title``, ``description``)
``GET /c/{name}``                           its threads by score, then newest
``GET /c/{name}/submit``                    the new-thread form
``POST /c/{name}/submit``                   post a thread (``title``, ``body``)
``GET /t/{id}``                             a thread with its replies and the reply form
``POST /t/{id}/reply``                      reply (``body``, ``parent``: a reply id, optional)
``GET /replies/{id}/reply``                 the form to answer one reply
``POST /t/{id}/vote``, ``/replies/{id}/vote``  ``dir`` = ``up``, ``down`` or ``clear``
``POST /t/{id}/accept``                     thread author: ``reply`` = a reply id, or ``none``
``GET|POST /t/{id}/edit``, ``/replies/{id}/edit``  edit own post (``title``, ``body``)
``POST /t/{id}/delete``, ``/replies/{id}/delete``  delete own post
``GET /search?q=&c=``                       threads and replies holding every word of ``q``
``GET /u/{name}``                           a user's threads and replies
``GET /u/{name}/votes``                     what that user voted (that user only)
==========================================  ===================================================

JSON API: ``GET /api/communities``, ``POST /api/communities``, ``GET /api/c/{name}``
(the community and its threads), ``POST /api/c/{name}/threads``, ``GET /api/threads/{id}``
(with replies), ``POST /api/threads/{id}/replies``, ``POST /api/threads/{id}/vote``,
``POST /api/replies/{id}/vote``, ``POST /api/threads/{id}/accept``, ``GET /api/search?q=``,
``GET /api/users/{name}``. Writes take JSON or form bodies and answer ``201`` with the item.

``initial_state``::

    {"users": [{name, password, display?}],
     "communities"?: [{"name", "title"?, "description"?,
                       "threads"?: [{"title", "body"?, "author", "score"?, "at_us"?,
                                     "accepted"?: index of a top-level reply,
                                     "replies"?: [{"body", "author", "score"?, "at_us"?,
                                                   "replies"?: [{"body", "author", "score"?, "at_us"?}]}]}]}]}

``score`` is a starting score the votes of the world's users add to. Threads and replies
are numbered from 1 in the order listed. The state a service keeps (and its snapshots
carry) has ``communities`` as an object by name and flat ``threads`` and ``replies``
objects by id; :meth:`Forum.validate` accepts it as well.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from cwgym.net.services import SERVICE_KINDS
from cwgym.protocol.page import (
    Button,
    Element,
    Form,
    Heading,
    Input,
    Link,
    Table,
    Text,
    TextArea,
)
from cwgym.services._search_index import page_entry
from cwgym.services.framework import (
    Ctx,
    HttpError,
    Json,
    Redirect,
    WebService,
    assoc,
    assoc_in,
    check_fields,
    route,
    timestamp,
)

__all__ = ["Forum"]

COMMUNITY_NAME = re.compile(r"^[A-Za-z0-9_-]{2,32}$")
TITLE_LIMIT = 300
BODY_LIMIT = 40_000
REPLY_LIMIT = 10_000
VOTES = {"up": 1, "down": -1, "clear": 0}

_INT = int


# -- initial_state ------------------------------------------------------------------------------


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where}: expected int, got {type(value).__name__}")
    return value


def _author(value: str, where: str, users: dict) -> str:
    if value not in users:
        raise ValueError(f"{where}: no user named {value!r}")
    return value


def _build(state: dict, where: str, users: dict) -> dict:
    """The kept state from the ``communities`` list of an ``initial_state``."""
    for key in ("threads", "replies", "next_thread", "next_reply"):
        if key in state:
            raise ValueError(f"{where}.{key}: only a saved state has it; list threads under communities[i].threads")
    communities: dict[str, dict] = {}
    threads: dict[str, dict] = {}
    replies: dict[str, dict] = {}
    for ci, community in enumerate(state.get("communities", [])):
        at = f"{where}.communities[{ci}]"
        check_fields(community, at, {"name": str, "title": str, "description": str, "threads": list}, ("name",))
        name = community["name"]
        if not COMMUNITY_NAME.match(name):
            raise ValueError(f"{at}.name: 2 to 32 letters, digits, '-' or '_'")
        if name in communities:
            raise ValueError(f"{at}.name: {name!r} is listed twice")
        communities[name] = {"title": community.get("title", name), "description": community.get("description", ""),
                             "created_by": ""}
        for ti, thread in enumerate(community.get("threads", [])):
            tat = f"{at}.threads[{ti}]"
            check_fields(thread, tat, {"title": str, "body": str, "author": str, "score": _INT, "at_us": _INT,
                                       "accepted": _INT, "replies": list}, ("title", "author"))
            if not thread["title"].strip():
                raise ValueError(f"{tat}.title: empty")
            tid = len(threads) + 1
            top: list[int] = []
            for ri, reply in enumerate(thread.get("replies", [])):
                rat = f"{tat}.replies[{ri}]"
                rid = _reply(reply, rat, users, tid, None, replies, nested=True)
                top.append(rid)
                for ni, child in enumerate(reply.get("replies", [])):
                    _reply(child, f"{rat}.replies[{ni}]", users, tid, rid, replies, nested=False)
            accepted = thread.get("accepted")
            if accepted is not None and not 0 <= accepted < len(top):
                raise ValueError(f"{tat}.accepted: the index of one of its {len(top)} top-level replies")
            threads[str(tid)] = {"id": tid, "community": name, "title": thread["title"], "body": thread.get("body", ""),
                                 "author": _author(thread["author"], f"{tat}.author", users),
                                 "at_us": thread.get("at_us", 0), "edited_us": None,
                                 "base_score": thread.get("score", 0),
                                 "accepted": None if accepted is None else top[accepted], "votes": {}}
    return {"communities": communities, "threads": threads, "replies": replies,
            "next_thread": len(threads) + 1, "next_reply": len(replies) + 1}


def _reply(reply: Any, where: str, users: dict, tid: int, parent: int | None, replies: dict, nested: bool) -> int:
    allowed: dict = {"body": str, "author": str, "score": _INT, "at_us": _INT}
    if nested:
        allowed["replies"] = list
    elif isinstance(reply, dict) and "replies" in reply:
        raise ValueError(f"{where}.replies: replies nest one level only")
    check_fields(reply, where, allowed, ("body", "author"))
    if not reply["body"].strip():
        raise ValueError(f"{where}.body: empty")
    rid = len(replies) + 1
    replies[str(rid)] = {"id": rid, "thread": tid, "parent": parent, "body": reply["body"],
                         "author": _author(reply["author"], f"{where}.author", users), "at_us": reply.get("at_us", 0),
                         "edited_us": None, "deleted": False, "base_score": reply.get("score", 0), "votes": {}}
    return rid


def _check_kept(state: dict, where: str, users: dict) -> dict:
    """A kept state (as :func:`_build` makes and handlers change) checked as it is."""
    check_fields(state, where, {"communities": dict, "threads": dict, "replies": dict, "next_thread": _INT,
                                "next_reply": _INT}, ("communities", "threads", "replies", "next_thread", "next_reply"))
    for name, community in state["communities"].items():
        at = f"{where}.communities[{name!r}]"
        if not isinstance(name, str) or not COMMUNITY_NAME.match(name):
            raise ValueError(f"{at}: 2 to 32 letters, digits, '-' or '_'")
        check_fields(community, at, {"title": str, "description": str, "created_by": str},
                     ("title", "description", "created_by"))
    for kind, table in (("threads", state["threads"]), ("replies", state["replies"])):
        for key, item in table.items():
            at = f"{where}.{kind}[{key!r}]"
            shape: dict = {"id": _INT, "body": str, "author": str, "at_us": _INT, "edited_us": (_INT, type(None)),
                           "base_score": _INT, "votes": dict}
            if kind == "threads":
                shape.update(community=str, title=str, accepted=(_INT, type(None)))
            else:
                shape.update(thread=_INT, parent=(_INT, type(None)), deleted=bool)
            check_fields(item, at, shape, tuple(shape))
            if key != str(item["id"]):
                raise ValueError(f"{at}.id: {item['id']} under the key {key!r}")
            _author(item["author"], f"{at}.author", users)
            for voter, vote in item["votes"].items():
                if voter not in users or type(vote) is not int or vote not in (1, -1):
                    raise ValueError(f"{at}.votes[{voter!r}]: a user's vote is 1 or -1")
            counter = "next_thread" if kind == "threads" else "next_reply"
            if item["id"] >= state[counter]:
                raise ValueError(f"{where}.{counter}: {state[counter]} does not exceed the id {item['id']}")
    for key, thread in state["threads"].items():
        if thread["community"] not in state["communities"]:
            raise ValueError(f"{where}.threads[{key!r}].community: no community {thread['community']!r}")
        accepted = state["replies"].get(str(thread["accepted"]))
        if thread["accepted"] is not None and (accepted is None or accepted["thread"] != thread["id"] or accepted["parent"] is not None):
            raise ValueError(f"{where}.threads[{key!r}].accepted: not a top-level reply of this thread")
    for key, reply in state["replies"].items():
        if str(reply["thread"]) not in state["threads"]:
            raise ValueError(f"{where}.replies[{key!r}].thread: no thread {reply['thread']}")
        parent = state["replies"].get(str(reply["parent"]))
        if reply["parent"] is not None and (parent is None or parent["thread"] != reply["thread"] or parent["parent"] is not None):
            raise ValueError(f"{where}.replies[{key!r}].parent: not a top-level reply of the same thread")
    return state


# -- reading the state ------------------------------------------------------------------------


def _score(item: dict) -> int:
    return item["base_score"] + sum(item["votes"].values())


def _newest_best(items: list[dict]) -> list[dict]:
    return sorted(items, key=lambda t: (-_score(t), -t["at_us"], -t["id"]))


def _n(count: int, word: str, plural: str = "") -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def _vote_word(vote: int | None) -> str:
    return {1: "up", -1: "down"}.get(vote or 0, "none")


class Forum(WebService):
    """Communities, threads, replies, votes and accepted answers; see the module docstring."""

    name = "forum"
    title = "Forum"
    fields: ClassVar[dict] = {"communities": (list, dict), "threads": dict, "replies": dict, "next_thread": int, "next_reply": int}

    def validate(self, state: dict, where: str, users: dict[str, dict], definition: Any = None) -> dict:
        if isinstance(state.get("communities"), dict):
            if "threads" not in state:
                raise ValueError(f"{where}.communities: a list of {{name, title?, description?, threads?}}")
            return _check_kept(state, where, users)
        return _build(state, where, users)

    def public_pages(self, state: dict, base: str) -> list[dict]:
        """Every thread, by number, at ``/t/<id>``: everything posted is public. The snippet
        is the start of its text (of its first reply when it has none); the community's name
        is a keyword."""
        out = []
        for thread in sorted(state["threads"].values(), key=lambda t: t["id"]):
            text = thread["body"] or next((r["body"] for r in self._replies_of(state, thread["id"]) if not r["deleted"]), "")
            out.append(page_entry(thread["title"], f"{base}/t/{thread['id']}", text, [thread["community"]]))
        return out

    # -- lookups -------------------------------------------------------------------------
    @staticmethod
    def _community(ctx: Ctx, name: str | None = None) -> tuple[str, dict]:
        name = ctx.params["name"] if name is None else name
        community = ctx.state["communities"].get(name)
        if community is None:
            raise HttpError(404, f"no community named {name!r}")
        return name, community

    @staticmethod
    def _item(ctx: Ctx, table: str) -> dict:
        raw = ctx.params["id"]
        if not raw.isdigit():
            raise HttpError(400, f"{raw!r} is not a number")
        item = ctx.state[table].get(str(int(raw)))
        if item is None:
            raise HttpError(404, f"no {table[:-1] if table == 'threads' else 'reply'} {raw}")
        return item

    def _thread(self, ctx: Ctx) -> dict:
        return self._item(ctx, "threads")

    def _live_reply(self, ctx: Ctx) -> dict:
        reply = self._item(ctx, "replies")
        if reply["deleted"]:
            raise HttpError(404, f"reply {reply['id']} was deleted")
        return reply

    @staticmethod
    def _own(ctx: Ctx, item: dict, what: str) -> str:
        user = ctx.require_user()
        if item["author"] != user:
            raise HttpError(403, f"only {item['author']} may change this {what}")
        return user

    @staticmethod
    def _replies_of(state: dict, tid: int) -> list[dict]:
        return sorted((r for r in state["replies"].values() if r["thread"] == tid), key=lambda r: r["id"])

    def _display(self, ctx: Ctx, user: str) -> str:
        account = ctx.state["users"].get(user)
        return account["display"] if account else user

    # -- JSON shapes ---------------------------------------------------------------------
    def _thread_json(self, ctx: Ctx, thread: dict, full: bool = False) -> dict:
        replies = self._replies_of(ctx.state, thread["id"])
        out = {"id": thread["id"], "community": thread["community"], "title": thread["title"], "author": thread["author"],
               "score": _score(thread), "replies": sum(not r["deleted"] for r in replies), "posted": timestamp(thread["at_us"]),
               "accepted": thread["accepted"], "url": f"/t/{thread['id']}"}
        if ctx.user is not None:
            out["your_vote"] = _vote_word(thread["votes"].get(ctx.user))
        if full:
            out["body"] = thread["body"]
            out["edited"] = thread["edited_us"] is not None
            tops = [r for r in replies if r["parent"] is None]
            out["replies"] = [{**self._reply_json(ctx, r),
                               "replies": [self._reply_json(ctx, c) for c in replies if c["parent"] == r["id"]]}
                              for r in self._ordered_tops(thread, tops)]
        return out

    def _reply_json(self, ctx: Ctx, reply: dict) -> dict:
        out = {"id": reply["id"], "thread": reply["thread"], "parent": reply["parent"],
               "body": "[deleted]" if reply["deleted"] else reply["body"],
               "author": None if reply["deleted"] else reply["author"], "score": _score(reply),
               "posted": timestamp(reply["at_us"]), "edited": reply["edited_us"] is not None, "deleted": reply["deleted"]}
        if ctx.user is not None:
            out["your_vote"] = _vote_word(reply["votes"].get(ctx.user))
        return out

    @staticmethod
    def _ordered_tops(thread: dict, tops: list[dict]) -> list[dict]:
        """Top-level replies: the accepted answer first, then by score, then oldest; deleted ones last."""
        return sorted(tops, key=lambda r: (r["id"] != thread["accepted"], r["deleted"], -_score(r), r["at_us"], r["id"]))

    def _done(self, ctx: Ctx, url: str, data: Any, status: int = 201) -> Any:
        return Json(data, status) if ctx.wants_json else Redirect(url)

    # -- home and communities ------------------------------------------------------------
    def _search_form(self, q: str = "") -> Form:
        return Form("/search", (Input("q", label="Search", value=q, type="search", id="search-q"),
                                Button("Search", id="search-submit")), method="GET", id="search-form")

    @route("GET", "/")
    def home(self, ctx: Ctx) -> Any:
        rows = []
        for name in sorted(ctx.state["communities"]):
            community = ctx.state["communities"][name]
            count = sum(t["community"] == name for t in ctx.state["threads"].values())
            rows.append((Link(f"c/{name}", f"/c/{name}", id=f"community-{name}"),
                         Text(community["title"]), Text(community["description"]), Text(str(count))))
        body: list[Element] = [Heading("Communities", id="communities-title"), self._search_form()]
        if rows:
            body.append(Table(("Community", "Title", "About", "Threads"), tuple(rows), id="communities"))
        else:
            body.append(Text("No communities yet.", id="communities-empty"))
        if ctx.user is not None:
            body += [Heading("Create a community", level=2, id="new-community-title"),
                     Form("/communities", (Input("name", label="Name", required=True, id="new-community-name"),
                                           Input("title", label="Title", id="new-community-display"),
                                           TextArea("description", label="Description", rows=2, id="new-community-description"),
                                           Button("Create community", id="new-community-submit")), id="new-community")]
            body.append(Link("My profile", f"/u/{ctx.user}", id="my-profile"))
        return self.page(ctx, self.title, body)

    @route("GET", "/api/communities")
    def api_communities(self, ctx: Ctx) -> Json:
        threads = list(ctx.state["threads"].values())
        return Json({"communities": [{"name": n, "title": c["title"], "description": c["description"],
                                      "threads": sum(t["community"] == n for t in threads)}
                                     for n, c in sorted(ctx.state["communities"].items())]})

    @route("POST", "/communities")
    @route("POST", "/api/communities")
    def create_community(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        name = ctx.field("name", limit=32).strip()
        if not COMMUNITY_NAME.match(name):
            raise HttpError(400, "a community name is 2 to 32 letters, digits, '-' or '_'")
        if name in ctx.state["communities"]:
            raise HttpError(409, f"the community {name!r} exists")
        community = {"title": ctx.field("title", required=False, limit=100).strip() or name,
                     "description": ctx.field("description", required=False, limit=500).strip(), "created_by": user}
        ctx.state = assoc_in(ctx.state, ["communities", name], community)
        return self._done(ctx, f"/c/{name}", {"name": name, "title": community["title"],
                                              "description": community["description"], "threads": 0})

    @route("GET", "/c/{name}")
    def community(self, ctx: Ctx) -> Any:
        name, community = self._community(ctx)
        threads = _newest_best([t for t in ctx.state["threads"].values() if t["community"] == name])
        body: list[Element] = [Heading(community["title"], id="community-title"), Text(f"c/{name}", id="community-name")]
        if community["description"]:
            body.append(Text(community["description"], id="community-description"))
        body.append(Link("New thread", f"/c/{name}/submit", id="new-thread"))
        rows = []
        for t in threads:
            replies = sum(r["thread"] == t["id"] and not r["deleted"] for r in ctx.state["replies"].values())
            rows.append((Text(str(_score(t)), id=f"thread-{t['id']}-score"),
                         Link(t["title"], f"/t/{t['id']}", id=f"thread-{t['id']}"),
                         Text(str(replies)), Link(t["author"], f"/u/{t['author']}"),
                         Text(timestamp(t["at_us"]) + (" · answered" if t["accepted"] is not None else ""))))
        if rows:
            body.append(Table(("Score", "Thread", "Replies", "Author", "Posted"), tuple(rows), id="threads"))
        else:
            body.append(Text("No threads yet. Start one!", id="threads-empty"))
        return self.page(ctx, f"c/{name}", body)

    @route("GET", "/api/c/{name}")
    @route("GET", "/api/c/{name}/threads")
    def api_community(self, ctx: Ctx) -> Json:
        name, community = self._community(ctx)
        threads = _newest_best([t for t in ctx.state["threads"].values() if t["community"] == name])
        return Json({"name": name, "title": community["title"], "description": community["description"],
                     "threads": [self._thread_json(ctx, t) for t in threads]})

    # -- threads -------------------------------------------------------------------------
    @route("GET", "/c/{name}/submit")
    def submit_form(self, ctx: Ctx) -> Any:
        ctx.require_user()
        name, _ = self._community(ctx)
        return self.page(ctx, f"New thread in c/{name}", [
            Heading(f"New thread in c/{name}", id="submit-title"),
            Form(f"/c/{name}/submit", (Input("title", label="Title", required=True, id="thread-title"),
                                       TextArea("body", label="Text", rows=8, id="thread-body"),
                                       Button("Post", id="thread-submit")), id="submit-form"),
            Link(f"Back to c/{name}", f"/c/{name}", id="back"),
        ])

    @route("POST", "/c/{name}/submit")
    @route("POST", "/api/c/{name}/threads")
    def submit(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        name, _ = self._community(ctx)
        title = ctx.field("title", limit=TITLE_LIMIT).strip()
        body = ctx.field("body", required=False, limit=BODY_LIMIT)
        tid = ctx.state["next_thread"]
        thread = {"id": tid, "community": name, "title": title, "body": body, "author": user, "at_us": ctx.now_us,
                  "edited_us": None, "base_score": 0, "accepted": None, "votes": {}}
        ctx.state = {**assoc_in(ctx.state, ["threads", str(tid)], thread), "next_thread": tid + 1}
        return self._done(ctx, f"/t/{tid}", self._thread_json(ctx, thread, full=True))

    def _vote_form(self, ctx: Ctx, action: str, prefix: str, item: dict) -> Form:
        mine = item["votes"].get(ctx.user or "")
        buttons = [Button("Upvoted" if mine == 1 else "Upvote", name="dir", value="up", id=f"{prefix}-upvote"),
                   Button("Downvoted" if mine == -1 else "Downvote", name="dir", value="down", id=f"{prefix}-downvote")]
        if mine:
            buttons.append(Button("Clear vote", name="dir", value="clear", id=f"{prefix}-clear-vote"))
        return Form(action, tuple(buttons), id=f"{prefix}-vote")

    @route("GET", "/t/{id}")
    def thread(self, ctx: Ctx) -> Any:
        thread = self._thread(ctx)
        tid = thread["id"]
        name = thread["community"]
        mine = ctx.user is not None and ctx.user == thread["author"]
        edited = " (edited)" if thread["edited_us"] is not None else ""
        body: list[Element] = [
            Link(f"c/{name}", f"/c/{name}", id="thread-community"),
            Heading(thread["title"], id="thread-title"),
            Text(f"Posted by {thread['author']} · {timestamp(thread['at_us'])}{edited}", id="thread-meta"),
        ]
        if thread["body"]:
            body.append(Text(thread["body"], id="thread-body"))
        body.append(Text(f"Score: {_score(thread)}", id="thread-score"))
        if ctx.user is not None:
            body.append(self._vote_form(ctx, f"/t/{tid}/vote", "thread", thread))
        if mine:
            body += [Link("Edit", f"/t/{tid}/edit", id="thread-edit"),
                     Form(f"/t/{tid}/delete", (Button("Delete thread", id="thread-delete-button"),), id="thread-delete")]
        replies = self._replies_of(ctx.state, tid)
        tops = self._ordered_tops(thread, [r for r in replies if r["parent"] is None])
        count = sum(not r["deleted"] for r in replies)
        body.append(Heading(_n(count, "reply", "replies"), level=2, id="replies-title"))
        for top in tops:
            body += self._reply_elements(ctx, thread, top, None)
            for child in (r for r in replies if r["parent"] == top["id"]):
                body += self._reply_elements(ctx, thread, child, top)
        if ctx.user is None:
            body.append(Link("Sign in to reply", f"/login?next=/t/{tid}", id="reply-sign-in"))
        else:
            body.append(Form(f"/t/{tid}/reply", (TextArea("body", label="Your reply", rows=5, id="reply-body"),
                                                 Button("Post reply", id="reply-submit")), id="reply-form"))
        return self.page(ctx, thread["title"], body)

    def _reply_elements(self, ctx: Ctx, thread: dict, reply: dict, parent: dict | None) -> list[Element]:
        rid = reply["id"]
        prefix = f"reply-{rid}"
        if reply["deleted"]:
            return [Text("[deleted]", id=prefix)]
        bits = [reply["author"], f"score {_score(reply)}", timestamp(reply["at_us"])]
        if parent is not None:
            bits.insert(0, f"in reply to {'[deleted]' if parent['deleted'] else parent['author']}")
        if reply["edited_us"] is not None:
            bits.append("edited")
        accepted = thread["accepted"] == rid
        out: list[Element] = []
        if accepted:
            out.append(Text("✓ Accepted answer", emphasis=True, id=f"{prefix}-accepted"))
        out += [Text(reply["body"], id=prefix), Text(" · ".join(bits), id=f"{prefix}-meta")]
        if ctx.user is None:
            return out
        out.append(self._vote_form(ctx, f"/replies/{rid}/vote", prefix, reply))
        if parent is None:
            out.append(Link("Reply", f"/replies/{rid}/reply", id=f"{prefix}-reply"))
            if ctx.user == thread["author"]:
                if accepted:
                    out.append(Form(f"/t/{thread['id']}/accept", (Input("reply", type="hidden", value="none"),
                                                                  Button("Unaccept", id=f"{prefix}-unaccept-button")),
                                    id=f"{prefix}-unaccept"))
                else:
                    out.append(Form(f"/t/{thread['id']}/accept", (Input("reply", type="hidden", value=str(rid)),
                                                                  Button("Accept answer", id=f"{prefix}-accept-button")),
                                    id=f"{prefix}-accept"))
        if ctx.user == reply["author"]:
            out += [Link("Edit", f"/replies/{rid}/edit", id=f"{prefix}-edit"),
                    Form(f"/replies/{rid}/delete", (Button("Delete", id=f"{prefix}-delete-button"),), id=f"{prefix}-delete")]
        return out

    @route("GET", "/api/threads/{id}")
    def api_thread(self, ctx: Ctx) -> Json:
        return Json(self._thread_json(ctx, self._thread(ctx), full=True))

    @route("GET", "/t/{id}/edit")
    def edit_thread_form(self, ctx: Ctx) -> Any:
        thread = self._thread(ctx)
        self._own(ctx, thread, "thread")
        return self.page(ctx, "Edit thread", [
            Heading("Edit thread", id="edit-title"),
            Form(f"/t/{thread['id']}/edit", (Input("title", label="Title", value=thread["title"], required=True, id="edit-thread-title"),
                                             TextArea("body", label="Text", value=thread["body"], rows=8, id="edit-thread-body"),
                                             Button("Save", id="edit-submit")), id="edit-form"),
        ])

    @route("POST", "/t/{id}/edit")
    @route("POST", "/api/threads/{id}/edit")
    def edit_thread(self, ctx: Ctx) -> Any:
        thread = self._thread(ctx)
        self._own(ctx, thread, "thread")
        title = ctx.field("title", required=False, default=thread["title"], limit=TITLE_LIMIT).strip()
        if not title:
            raise HttpError(400, "the field 'title' is required")
        body = ctx.field("body", required=False, default=thread["body"], limit=BODY_LIMIT)
        changed = {**thread, "title": title, "body": body, "edited_us": ctx.now_us}
        ctx.state = assoc_in(ctx.state, ["threads", str(thread["id"])], changed)
        return self._done(ctx, f"/t/{thread['id']}", self._thread_json(ctx, changed, full=True), 200)

    @route("POST", "/t/{id}/delete")
    @route("POST", "/api/threads/{id}/delete")
    @route("DELETE", "/api/threads/{id}")
    def delete_thread(self, ctx: Ctx) -> Any:
        thread = self._thread(ctx)
        self._own(ctx, thread, "thread")
        tid = thread["id"]
        ctx.state = {**ctx.state,
                     "threads": {k: t for k, t in ctx.state["threads"].items() if t["id"] != tid},
                     "replies": {k: r for k, r in ctx.state["replies"].items() if r["thread"] != tid}}
        return self._done(ctx, f"/c/{thread['community']}", {"deleted": tid}, 200)

    # -- replies -------------------------------------------------------------------------
    @route("GET", "/replies/{id}/reply")
    def reply_form(self, ctx: Ctx) -> Any:
        ctx.require_user()
        reply = self._live_reply(ctx)
        top = reply if reply["parent"] is None else ctx.state["replies"][str(reply["parent"])]
        return self.page(ctx, "Reply", [
            Heading(f"Reply to {reply['author']}", id="reply-to-title"),
            Text(reply["body"], id="reply-to-body"),
            Form(f"/t/{reply['thread']}/reply", (Input("parent", type="hidden", value=str(top["id"]), id="reply-parent"),
                                                 TextArea("body", label="Your reply", rows=5, id="reply-body"),
                                                 Button("Post reply", id="reply-submit")), id="reply-form"),
            Link("Back to the thread", f"/t/{reply['thread']}", id="back"),
        ])

    @route("POST", "/t/{id}/reply")
    @route("POST", "/api/threads/{id}/replies")
    def reply(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        thread = self._thread(ctx)
        text = ctx.field("body", limit=REPLY_LIMIT)
        raw = ctx.field("parent", required=False).strip()
        parent = None
        if raw:
            if not raw.isdigit():
                raise HttpError(400, f"the field 'parent' is a reply number, not {raw!r}")
            found = ctx.state["replies"].get(str(int(raw)))
            if found is None or found["thread"] != thread["id"]:
                raise HttpError(400, f"the thread has no reply {raw}")
            parent = found["id"] if found["parent"] is None else found["parent"]  # one level of nesting
        rid = ctx.state["next_reply"]
        reply = {"id": rid, "thread": thread["id"], "parent": parent, "body": text, "author": user, "at_us": ctx.now_us,
                 "edited_us": None, "deleted": False, "base_score": 0, "votes": {}}
        ctx.state = {**assoc_in(ctx.state, ["replies", str(rid)], reply), "next_reply": rid + 1}
        return self._done(ctx, f"/t/{thread['id']}", self._reply_json(ctx, reply))

    @route("GET", "/replies/{id}/edit")
    def edit_reply_form(self, ctx: Ctx) -> Any:
        reply = self._live_reply(ctx)
        self._own(ctx, reply, "reply")
        return self.page(ctx, "Edit reply", [
            Heading("Edit reply", id="edit-title"),
            Form(f"/replies/{reply['id']}/edit", (TextArea("body", label="Text", value=reply["body"], rows=5, id="edit-reply-body"),
                                                  Button("Save", id="edit-submit")), id="edit-form"),
        ])

    @route("POST", "/replies/{id}/edit")
    @route("POST", "/api/replies/{id}/edit")
    def edit_reply(self, ctx: Ctx) -> Any:
        reply = self._live_reply(ctx)
        self._own(ctx, reply, "reply")
        changed = {**reply, "body": ctx.field("body", limit=REPLY_LIMIT), "edited_us": ctx.now_us}
        ctx.state = assoc_in(ctx.state, ["replies", str(reply["id"])], changed)
        return self._done(ctx, f"/t/{reply['thread']}", self._reply_json(ctx, changed), 200)

    @route("POST", "/replies/{id}/delete")
    @route("POST", "/api/replies/{id}/delete")
    @route("DELETE", "/api/replies/{id}")
    def delete_reply(self, ctx: Ctx) -> Any:
        reply = self._live_reply(ctx)
        self._own(ctx, reply, "reply")
        gone = {**reply, "body": "", "deleted": True, "votes": {}, "base_score": 0}
        state = assoc_in(ctx.state, ["replies", str(reply["id"])], gone)
        thread = state["threads"][str(reply["thread"])]
        if thread["accepted"] == reply["id"]:
            state = assoc_in(state, ["threads", str(thread["id"]), "accepted"], None)
        ctx.state = state
        return self._done(ctx, f"/t/{reply['thread']}", {"deleted": reply["id"]}, 200)

    # -- votes and answers ---------------------------------------------------------------
    def _vote(self, ctx: Ctx, table: str, item: dict) -> Any:
        user = ctx.require_user()
        word = ctx.field("dir").strip().lower()
        if word not in VOTES:
            raise HttpError(400, f"the field 'dir' is up, down or clear, not {word!r}")
        votes = {k: v for k, v in item["votes"].items() if k != user}
        if VOTES[word]:
            votes = {**votes, user: VOTES[word]}
        changed = assoc(item, "votes", votes)
        ctx.state = assoc_in(ctx.state, [table, str(item["id"]), "votes"], votes)
        url = f"/t/{item['id'] if table == 'threads' else item['thread']}"
        return self._done(ctx, url, {"id": item["id"], "score": _score(changed), "your_vote": _vote_word(votes.get(user))}, 200)

    @route("POST", "/t/{id}/vote")
    @route("POST", "/api/threads/{id}/vote")
    def vote_thread(self, ctx: Ctx) -> Any:
        return self._vote(ctx, "threads", self._thread(ctx))

    @route("POST", "/replies/{id}/vote")
    @route("POST", "/api/replies/{id}/vote")
    def vote_reply(self, ctx: Ctx) -> Any:
        return self._vote(ctx, "replies", self._live_reply(ctx))

    @route("POST", "/t/{id}/accept")
    @route("POST", "/api/threads/{id}/accept")
    def accept(self, ctx: Ctx) -> Any:
        thread = self._thread(ctx)
        user = ctx.require_user()
        if user != thread["author"]:
            raise HttpError(403, f"only {thread['author']}, who asked, may accept an answer")
        raw = ctx.field("reply").strip()
        accepted = None
        if raw != "none":
            if not raw.isdigit():
                raise HttpError(400, f"the field 'reply' is a reply number or 'none', not {raw!r}")
            reply = ctx.state["replies"].get(str(int(raw)))
            if reply is None or reply["thread"] != thread["id"] or reply["deleted"]:
                raise HttpError(400, f"the thread has no reply {raw}")
            if reply["parent"] is not None:
                raise HttpError(400, "only a top-level reply can be the accepted answer")
            accepted = reply["id"]
        ctx.state = assoc_in(ctx.state, ["threads", str(thread["id"]), "accepted"], accepted)
        return self._done(ctx, f"/t/{thread['id']}", {"id": thread["id"], "accepted": accepted}, 200)

    # -- search and users ----------------------------------------------------------------
    def _search(self, ctx: Ctx) -> tuple[str, list[dict], list[dict]]:
        q = ctx.field("q", required=False, limit=200).strip()
        where = ctx.field("c", required=False, limit=32).strip()
        if where:
            self._community(ctx, where)
        words = q.lower().split()
        if not words:
            return q, [], []

        def hit(*texts: str) -> bool:
            text = " ".join(texts).lower()
            return all(w in text for w in words)

        threads = _newest_best([t for t in ctx.state["threads"].values()
                                if (not where or t["community"] == where) and hit(t["title"], t["body"])])
        replies = [r for r in ctx.state["replies"].values() if not r["deleted"] and hit(r["body"])
                   and (not where or ctx.state["threads"][str(r["thread"])]["community"] == where)]
        return q, threads, sorted(replies, key=lambda r: (-_score(r), -r["at_us"], -r["id"]))

    @route("GET", "/search")
    def search(self, ctx: Ctx) -> Any:
        q, threads, replies = self._search(ctx)
        body: list[Element] = [Heading("Search", id="search-title"), self._search_form(q)]
        if q:
            body.append(Text(f"{_n(len(threads), 'thread')} and {_n(len(replies), 'reply', 'replies')} match {q!r}", id="search-summary"))
            for t in threads:
                body.append(Link(f"{t['title']} (c/{t['community']}, score {_score(t)})", f"/t/{t['id']}", id=f"result-thread-{t['id']}"))
            for r in replies:
                thread = ctx.state["threads"][str(r["thread"])]
                body.append(Link(f"{r['author']} in “{thread['title']}”: {r['body'][:120]}", f"/t/{thread['id']}",
                                 id=f"result-reply-{r['id']}"))
        return self.page(ctx, f"Search: {q}" if q else "Search", body)

    @route("GET", "/api/search")
    def api_search(self, ctx: Ctx) -> Json:
        q, threads, replies = self._search(ctx)
        return Json({"q": q, "threads": [self._thread_json(ctx, t) for t in threads],
                     "replies": [self._reply_json(ctx, r) for r in replies]})

    def _user(self, ctx: Ctx) -> str:
        name = ctx.params["name"]
        if name not in ctx.state["users"]:
            raise HttpError(404, f"no user named {name!r}")
        return name

    def _posts_of(self, ctx: Ctx, name: str) -> tuple[list[dict], list[dict]]:
        def newest(items: Any) -> list[dict]:
            return sorted(items, key=lambda i: (-i["at_us"], -i["id"]))
        return (newest(t for t in ctx.state["threads"].values() if t["author"] == name),
                newest(r for r in ctx.state["replies"].values() if r["author"] == name and not r["deleted"]))

    @route("GET", "/u/{name}")
    def user(self, ctx: Ctx) -> Any:
        name = self._user(ctx)
        threads, replies = self._posts_of(ctx, name)
        karma = sum(_score(t) for t in threads) + sum(_score(r) for r in replies)
        body: list[Element] = [Heading(self._display(ctx, name), id="user-title"), Text(f"u/{name}", id="user-name"),
                               Text(f"{_n(karma, 'point')} · {_n(len(threads), 'thread')} · {_n(len(replies), 'reply', 'replies')}", id="user-stats"),
                               Heading("Threads", level=2, id="user-threads-title")]
        body += [Link(f"{t['title']} (c/{t['community']}, score {_score(t)})", f"/t/{t['id']}", id=f"user-thread-{t['id']}")
                 for t in threads] or [Text("No threads.", id="user-threads-empty")]
        body.append(Heading("Replies", level=2, id="user-replies-title"))
        body += [Link(f"{r['body'][:120]} (score {_score(r)})", f"/t/{r['thread']}", id=f"user-reply-{r['id']}")
                 for r in replies] or [Text("No replies.", id="user-replies-empty")]
        if ctx.user == name:
            body.append(Link("My votes", f"/u/{name}/votes", id="user-votes"))
        return self.page(ctx, f"u/{name}", body)

    @route("GET", "/api/users/{name}")
    def api_user(self, ctx: Ctx) -> Json:
        name = self._user(ctx)
        threads, replies = self._posts_of(ctx, name)
        return Json({"name": name, "display": self._display(ctx, name),
                     "threads": [self._thread_json(ctx, t) for t in threads],
                     "replies": [self._reply_json(ctx, r) for r in replies]})

    @route("GET", "/u/{name}/votes")
    @route("GET", "/api/users/{name}/votes")
    def votes(self, ctx: Ctx) -> Any:
        name = self._user(ctx)
        if ctx.require_user() != name:
            raise HttpError(403, f"only {name} sees what {name} voted")
        threads = [t for t in ctx.state["threads"].values() if name in t["votes"]]
        replies = [r for r in ctx.state["replies"].values() if name in r["votes"]]
        if ctx.wants_json:
            return Json({"threads": {str(t["id"]): _vote_word(t["votes"][name]) for t in threads},
                         "replies": {str(r["id"]): _vote_word(r["votes"][name]) for r in replies}})
        items = [Link(f"{_vote_word(t['votes'][name])}: {t['title']}", f"/t/{t['id']}", id=f"vote-thread-{t['id']}") for t in threads]
        items += [Link(f"{_vote_word(r['votes'][name])}: {r['body'][:120]}", f"/t/{r['thread']}", id=f"vote-reply-{r['id']}")
                  for r in replies]
        return self.page(ctx, "My votes", [Heading("My votes", id="votes-title"),
                                           *(items or [Text("No votes yet.", id="votes-empty")])])


SERVICE_KINDS.register(Forum.name, Forum())
