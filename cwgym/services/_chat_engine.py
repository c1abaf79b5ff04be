"""The engine shared by the team-chat kinds ``chat`` (one team, like Mattermost or Rocket.Chat)
and ``slack`` (several workspaces): channels, membership, messages, threads, @mentions,
direct messages and search. A kind subclasses :class:`ChatEngine`, names its ``prefix`` (where
one team's pages live: ``""`` for ``chat``, ``"/w/{workspace}"`` for ``slack``) and says where
a team's data sits in the state (:meth:`ChatEngine.space_path`).

One team (a *space*) is ``{"channels": {name: channel}, "dms": {key: conversation}}``:

* a channel is ``{"private": bool, "topic": str, "members": [user], "messages": [message]}``;
* a direct conversation is ``{"members": [a, b], "messages": [message]}`` under the key
  ``"a|b"`` (names sorted; ``"a"`` alone for notes to oneself);
* a message is ``{"id", "author", "text", "at_us", "edited", "thread": [reply]}``, with
  ``"reactions": {name: [user]}`` once someone reacts (a name is a short emoji name such as
  ``eyes`` or ``+1``; each user once, in the order they reacted); a reply has the same
  fields without ``thread``. Ids come from the service's ``next_message`` counter and are
  unique across the service.

Mentions (``@name``, and ``@channel``/``@here``/``@all`` for every member) are read from the
text when a page asks, so an edit changes who is mentioned. Everything a person reads is
limited to what they may see: public channels, private channels they belong to, and their
own direct conversations; a private channel is ``404`` to anyone else.

Routes, under the kind's ``prefix`` (``{p}``; the JSON API under ``/api{p}``):

====== ====================================== ===================================================
GET    ``{p}/`` (``/`` for chat)              the team: your channels, direct messages, links
GET    ``{p}/channels``                       browse channels, and the create-channel form
POST   ``{p}/channels``                       create one: ``name``, ``private`` (checkbox), ``topic``
GET    ``{p}/c/{channel}``                    its messages in order (author, time, replies)
POST   ``{p}/c/{channel}``                    post ``text`` (members only)
POST   ``{p}/c/{channel}/join`` · ``/leave``  join a public channel · leave a channel
POST   ``{p}/c/{channel}/invite``             add ``user`` (members only)
GET    ``{p}/c/{channel}/t/{id}``             a thread: the message and its replies
POST   ``{p}/c/{channel}/t/{id}``             reply ``text`` in the thread
GET    ``{p}/c/{channel}/m/{id}/edit``        the edit form (your own message)
POST   ``{p}/c/{channel}/m/{id}/edit``        save ``text`` (another's message: ``403``)
POST   ``{p}/c/{channel}/m/{id}/delete``      delete it (another's message: ``403``)
GET    ``{p}/c/{channel}/m/{id}/react``       who reacted with what, and the form to react
POST   ``{p}/c/{channel}/m/{id}/react``       toggle your reaction ``name`` (members only)
\\*     ``{p}/dm/{user}``...                   the same seven for a direct conversation
GET    ``{p}/people``                         everyone, each with a link to message them
GET    ``{p}/mentions``                       messages that mention you, newest first
GET    ``{p}/search?q=``                      messages you can see (``from:@user``, ``in:#channel``)
GET    ``/api{p}/channels``                   channels you can see (JSON)
GET    ``/api{p}/channels/{channel}/messages`` a channel's messages with their threads (JSON)
POST   ``/api{p}/channels/{channel}/messages`` post ``{text, thread?}`` (``201``)
====== ====================================== ===================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from cwgym.protocol.page import (
    Button,
    Checkbox,
    Element,
    Form,
    Heading,
    Input,
    Link,
    ListBlock,
    Page,
    Table,
    Text,
    TextArea,
)
from cwgym.services.framework import (
    Ctx,
    HttpError,
    Json,
    Redirect,
    WebService,
    assoc_in,
    check_fields,
    timestamp,
)

__all__ = ["ChatEngine", "MessageIds", "mentioned"]

#: Channel (and workspace) names: lower-case letters, digits, '-' and '_', as Slack has them.
CHANNEL_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,79}$")
#: ``@name`` not preceded by a word character (so an e-mail address is no mention).
MENTION = re.compile(r"(?<![A-Za-z0-9._@-])@([A-Za-z0-9._-]+)")
#: Mentions that reach every member of the conversation.
BROADCAST = ("channel", "here", "all", "everyone")
#: The longest message (Slack's limit).
TEXT_LIMIT = 40_000
_ID = re.compile(r"[0-9]{1,18}")

MESSAGE_FIELDS: dict[str, Any] = {"id": int, "author": str, "text": str, "at_us": int, "edited": bool, "thread": list,
                                  "reactions": dict}
#: a reaction's name: an emoji's short name, as Slack and Mattermost write them
REACTION = re.compile(r"^[a-z0-9_+-]{1,32}$")
CHANNEL_FIELDS: dict[str, Any] = {"name": str, "private": bool, "topic": str, "members": list, "messages": list}
DM_FIELDS: dict[str, Any] = {"members": list, "messages": list}

# (method, pattern, handler); "{p}" is the kind's prefix, "{p}/" its team home.
ROUTES: tuple[tuple[str, str, str], ...] = (
    ("GET", "{p}/", "team_home"),
    ("GET", "{p}/channels", "browse"),
    ("POST", "{p}/channels", "create_channel"),
    ("GET", "{p}/people", "people"),
    ("GET", "{p}/mentions", "mentions"),
    ("GET", "{p}/search", "search"),
    ("POST", "{p}/c/{channel}/join", "join"),
    ("POST", "{p}/c/{channel}/leave", "leave"),
    ("POST", "{p}/c/{channel}/invite", "invite"),
    *((method, f"{{p}}/{conv}{tail}", handler)
      for conv in ("c/{channel}", "dm/{user}")
      for method, tail, handler in (("GET", "", "conversation"), ("POST", "", "post"),
                                    ("GET", "/t/{message_id}", "thread"), ("POST", "/t/{message_id}", "reply"),
                                    ("GET", "/m/{message_id}/edit", "edit_form"),
                                    ("POST", "/m/{message_id}/edit", "edit"),
                                    ("POST", "/m/{message_id}/delete", "delete"),
                                    ("GET", "/m/{message_id}/react", "react_form"),
                                    ("POST", "/m/{message_id}/react", "react"))),
    ("GET", "/api{p}/channels", "api_channels"),
    ("GET", "/api{p}/channels/{channel}/messages", "api_messages"),
    ("POST", "/api{p}/channels/{channel}/messages", "api_post"),
)


def mentioned(text: str, members: list[str], users: dict[str, Any]) -> set[str]:
    """The accounts ``text`` mentions: ``@name`` (any case; a trailing ``.``/``-``/``_`` is
    punctuation when the name without it is an account) and ``@channel``, ``@here``,
    ``@all``, ``@everyone`` for every member of the conversation."""
    lower = {name.lower(): name for name in sorted(users, reverse=True)}
    out: set[str] = set()
    for raw in MENTION.findall(text):
        for name in (raw, raw.rstrip("._-")):
            if name in users or name.lower() in lower:
                out.add(name if name in users else lower[name.lower()])
                break
            if name.lower() in BROADCAST:
                out.update(members)
                break
    return out


@dataclass(frozen=True)
class Conv:
    """A conversation as a handler found it: where it sits in the state, its page, its data."""

    keys: tuple[str, ...]  # the path to the conversation's dict in the state
    url: str  # its page: /c/general, /w/acme/dm/bob
    label: str  # "#general", "Bob Ray"
    data: dict
    channel: str | None  # the channel's name; None for a direct conversation

    @property
    def messages(self) -> list[dict]:
        return self.data["messages"]


class MessageIds:
    """Message ids while a state is checked: explicit ones must be unique; missing ones are
    handed out afterwards from what is free, in the order the messages were listed."""

    def __init__(self) -> None:
        self.taken: dict[int, str] = {}
        self.pending: list[dict] = []

    def claim(self, message: dict, where: str) -> None:
        n = message.get("id")
        if n is None:
            self.pending.append(message)
        elif n in self.taken:
            raise ValueError(f"{where}.id: {n} is also the id of {self.taken[n]}")
        else:
            self.taken[n] = where

    def settle(self, given_next: int) -> int:
        n = max([given_next, *(i + 1 for i in self.taken)])
        for message in self.pending:  # fresh dicts built by the check, not yet any state
            message["id"] = n
            n += 1
        return n


class ChatEngine(WebService):
    """A team chat; see the module docstring. Subclasses set ``name``, ``title``, ``prefix``
    and implement :meth:`validate`, :meth:`space_path` and :meth:`base`."""

    prefix: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Each kind serves the same handlers at its own URLs: mark a fresh function per kind.
        for attr in dict.fromkeys(handler for _, _, handler in ROUTES):
            engine_fn = getattr(ChatEngine, attr)

            def handler(self: ChatEngine, ctx: Ctx, _fn: Any = engine_fn) -> Any:
                return _fn(self, ctx)

            handler.__name__ = handler.__qualname__ = attr
            handler.__doc__ = engine_fn.__doc__
            handler.routes = [(m, cls.prefix or "/" if p == "{p}/" else p.replace("{p}", cls.prefix))  # type: ignore[attr-defined]
                              for m, p, h in ROUTES if h == attr]
            setattr(cls, attr, handler)
        super().__init_subclass__(**kwargs)

    # -- where a team lives (the kinds say) ------------------------------------------------
    def space_path(self, ctx: Ctx) -> tuple[str, ...]:
        """The path in the state to the team a request names (``404`` if none)."""
        raise NotImplementedError

    def base(self, ctx: Ctx) -> str:
        """The URL of the team a request names, without a trailing slash."""
        raise NotImplementedError

    def team_name(self, ctx: Ctx) -> str:
        return ctx.state["brand"]

    def _space(self, ctx: Ctx) -> tuple[tuple[str, ...], dict]:
        path = self.space_path(ctx)
        space = ctx.state
        for key in path:
            space = space[key]
        return path, space

    # -- checking initial_state ------------------------------------------------------------
    def check_brand(self, state: dict, where: str) -> str:
        brand = state.get("brand", self.title)
        if not brand.strip():
            raise ValueError(f"{where}.brand: empty")
        return brand

    def check_space(self, value: dict, where: str, users: dict[str, dict], ids: MessageIds) -> dict:
        """A team's ``channels`` and ``dms`` (lists as a world writes them, or the dicts this
        engine stores) checked and normalised."""
        raw_channels = value.get("channels", [])
        if isinstance(raw_channels, dict):
            raw_channels = [{"name": n, **c} if isinstance(c, dict) else c for n, c in raw_channels.items()]
        if not isinstance(raw_channels, list):
            raise ValueError(f"{where}.channels: a list of channels")
        channels: dict[str, dict] = {}
        for i, channel in enumerate(raw_channels):
            at = f"{where}.channels[{i}]"
            check_fields(channel, at, CHANNEL_FIELDS, ("name",))
            name = channel["name"]
            if not CHANNEL_NAME.match(name):
                raise ValueError(f"{at}.name: {name!r} is not a channel name (lower-case letters, digits, '-', '_')")
            if name in channels:
                raise ValueError(f"{at}.name: the channel {name!r} is listed twice")
            members = self._members(channel.get("members", sorted(users)), f"{at}.members", users)
            channels[name] = {"private": channel.get("private", False), "topic": channel.get("topic", ""),
                              "members": members,
                              "messages": self._messages(channel.get("messages", []), f"{at}.messages", users, ids)}
        raw_dms = value.get("dms", [])
        if isinstance(raw_dms, dict):
            raw_dms = list(raw_dms.values())
        if not isinstance(raw_dms, list):
            raise ValueError(f"{where}.dms: a list of direct conversations")
        dms: dict[str, dict] = {}
        for i, dm in enumerate(raw_dms):
            at = f"{where}.dms[{i}]"
            check_fields(dm, at, DM_FIELDS, ("members",))
            members = self._members(dm["members"], f"{at}.members", users)
            if not 1 <= len(members) <= 2:
                raise ValueError(f"{at}.members: one or two users, got {len(members)}")
            key = "|".join(members)
            if key in dms:
                raise ValueError(f"{at}.members: the conversation of {' and '.join(members)} is listed twice")
            dms[key] = {"members": members, "messages": self._messages(dm.get("messages", []), f"{at}.messages", users, ids)}
        return {"channels": channels, "dms": dms}

    @staticmethod
    def _members(value: Any, where: str, users: dict[str, dict]) -> list[str]:
        if not isinstance(value, list):
            raise ValueError(f"{where}: a list of user names, got {type(value).__name__}")
        for k, name in enumerate(value):
            if not isinstance(name, str):
                raise ValueError(f"{where}[{k}]: a user name, got {type(name).__name__}")
            if name not in users:
                raise ValueError(f"{where}[{k}]: {name!r} is not a user")
        return sorted(set(value))

    def _messages(self, value: Any, where: str, users: dict[str, dict], ids: MessageIds, reply: bool = False) -> list[dict]:
        if not isinstance(value, list):
            raise ValueError(f"{where}: a list of messages, got {type(value).__name__}")
        out = []
        for k, message in enumerate(value):
            at = f"{where}[{k}]"
            if reply and isinstance(message, dict) and "thread" in message:
                raise ValueError(f"{at}.thread: a reply has no thread of its own")
            check_fields(message, at, MESSAGE_FIELDS, ("author", "text"))
            if message["author"] not in users:
                raise ValueError(f"{at}.author: {message['author']!r} is not a user")
            if not message["text"].strip():
                raise ValueError(f"{at}.text: empty")
            if len(message["text"]) > TEXT_LIMIT:
                raise ValueError(f"{at}.text: longer than {TEXT_LIMIT} characters")
            if message.get("at_us", 0) < 0:
                raise ValueError(f"{at}.at_us: negative")
            if message.get("id", 1) < 1:
                raise ValueError(f"{at}.id: ids start at 1")
            built = {"id": message.get("id"), "author": message["author"], "text": message["text"],
                     "at_us": message.get("at_us", 0), "edited": message.get("edited", False)}
            reactions = self._reactions(message.get("reactions", {}), f"{at}.reactions", users)
            if reactions:
                built["reactions"] = reactions
            ids.claim(built, at)
            if not reply:
                built["thread"] = self._messages(message.get("thread", []), f"{at}.thread", users, ids, reply=True)
            out.append(built)
        return out

    @staticmethod
    def _reactions(value: dict, where: str, users: dict[str, dict]) -> dict[str, list[str]]:
        out = {}
        for name, who in value.items():
            if not REACTION.match(name):
                raise ValueError(f"{where}.{name}: a reaction is an emoji's short name (a-z, 0-9, '_', '+', '-')")
            ChatEngine._members(who, f"{where}.{name}", users)
            if not who:
                raise ValueError(f"{where}.{name}: a non-empty list of users")
            for i, user in enumerate(who):
                if user in who[:i]:
                    raise ValueError(f"{where}.{name}[{i}]: {user!r} reacted once already")
            out[name] = list(who)  # in the order they reacted, which _members does not keep
        return out

    @staticmethod
    def _reaction_summary(m: dict) -> str:
        """``:eyes: 2 · :+1: 1``, or ``React`` when nobody has."""
        return " · ".join(f":{name}: {len(who)}" for name, who in m.get("reactions", {}).items()) or "React"

    # -- pages -----------------------------------------------------------------------------
    def page(self, ctx: Ctx, title: str, body: Any) -> Page:
        brand = ctx.state.get("brand", self.title)
        page = super().page(ctx, title, body)
        return Page(title if title == brand else f"{title} — {brand}", (Link(brand, "/", id="brand"), *page.elements[1:]))

    def nav(self, ctx: Ctx) -> list[Element]:
        b = self.base(ctx)
        return [Link(self.team_name(ctx), b or "/", id="nav-home"), Link("Channels", f"{b}/channels", id="nav-channels"),
                Link("People", f"{b}/people", id="nav-people"), Link("Mentions", f"{b}/mentions", id="nav-mentions"),
                Link("Search", f"{b}/search", id="nav-search")]

    @staticmethod
    def who(ctx: Ctx, name: str) -> str:
        """How a page names an account: ``Grace Hopper (@grace)``, or ``@grace``."""
        display = ctx.state["users"].get(name, {}).get("display", name)
        return f"@{name}" if display == name else f"{display} (@{name})"

    def _can_post(self, user: str, conv: Conv) -> bool:
        return user in conv.data["members"]

    @staticmethod
    def _reacted(messages: list[dict]) -> bool:
        """Whether a table of ``messages`` has a reactions column: only when one has some,
        so a conversation nobody reacted in looks as it always did."""
        return any(m.get("reactions") for m in messages)

    def _table(self, ctx: Ctx, conv: Conv, messages: list[dict], in_thread: bool, head: tuple[str, ...],
               table_id: str) -> Table:
        """A table of messages; ``head`` names the columns before the reactions column."""
        reacted = self._reacted(messages)
        columns = (*head[:3], *(("Reactions",) if reacted else ()), *head[3:])
        return Table(columns, self._rows(ctx, conv, messages, in_thread, reacted), id=table_id)

    def _rows(self, ctx: Ctx, conv: Conv, messages: list[dict], in_thread: bool,
              reacted: bool = False) -> tuple[tuple[Element, ...], ...]:
        user = ctx.user
        b = self.base(ctx)
        rows = []
        for m in messages:
            n = m["id"]
            cells: list[Element] = [
                Link(self.who(ctx, m["author"]), f"{b}/dm/{m['author']}", id=f"message-{n}-author"),
                Text(timestamp(m["at_us"]), id=f"message-{n}-time"),
                Text(m["text"] + (" (edited)" if m["edited"] else ""), id=f"message-{n}-text"),
            ]
            if reacted:
                cells.append(Link(self._reaction_summary(m), f"{conv.url}/m/{n}/react", id=f"message-{n}-reactions"))
            if not in_thread:
                count = len(m["thread"])
                label = "Reply" if count == 0 else f"{count} {'reply' if count == 1 else 'replies'}"
                cells.append(Link(label, f"{conv.url}/t/{n}", id=f"message-{n}-thread"))
            if m["author"] == user:
                cells.append(Link("Edit", f"{conv.url}/m/{n}/edit", id=f"message-{n}-edit"))
                cells.append(Form(f"{conv.url}/m/{n}/delete", (Button("Delete", id=f"message-{n}-delete"),),
                                  id=f"message-{n}-delete-form"))
            else:
                cells += [Text("", id=f"message-{n}-edit"), Text("", id=f"message-{n}-delete")]
            rows.append(tuple(cells))
        return tuple(rows)

    # -- finding things --------------------------------------------------------------------
    def _channel(self, ctx: Ctx, user: str, name: str | None = None) -> Conv:
        name = ctx.params["channel"] if name is None else name
        path, space = self._space(ctx)
        channel = space["channels"].get(name)
        if channel is None or (channel["private"] and user not in channel["members"]):
            raise HttpError(404, f"no channel #{name}")
        return Conv((*path, "channels", name), f"{self.base(ctx)}/c/{name}", f"#{name}", channel, name)

    def _dm(self, ctx: Ctx, user: str, other: str) -> Conv:
        if other not in ctx.state["users"]:
            raise HttpError(404, f"no user named {other!r}")
        path, space = self._space(ctx)
        members = sorted({user, other})
        key = "|".join(members)
        data = space["dms"].get(key, {"members": members, "messages": []})
        label = "yourself" if other == user else self.who(ctx, other)
        return Conv((*path, "dms", key), f"{self.base(ctx)}/dm/{other}", label, data, None)

    def _conv(self, ctx: Ctx, user: str) -> Conv:
        if "channel" in ctx.params:
            return self._channel(ctx, user)
        return self._dm(ctx, user, ctx.params["user"])

    def _readable(self, ctx: Ctx, user: str) -> list[Conv]:
        """Every conversation ``user`` may read in this team: channels by name, then direct ones."""
        path, space = self._space(ctx)
        b = self.base(ctx)
        out = [Conv((*path, "channels", name), f"{b}/c/{name}", f"#{name}", channel, name)
               for name, channel in sorted(space["channels"].items())
               if not channel["private"] or user in channel["members"]]
        for key, dm in sorted(space["dms"].items()):
            if user in dm["members"]:
                other = next((m for m in dm["members"] if m != user), user)
                label = "yourself" if other == user else self.who(ctx, other)
                out.append(Conv((*path, "dms", key), f"{b}/dm/{other}", label, dm, None))
        return out

    @staticmethod
    def _message_id(ctx: Ctx) -> int:
        raw = ctx.params["message_id"]
        if not _ID.fullmatch(raw):
            raise HttpError(400, f"a message id is a number, got {raw!r}")
        return int(raw)

    @staticmethod
    def _find(conv: Conv, n: int) -> tuple[int, int | None, dict]:
        """``(index, reply index or None, message)`` of message ``n`` in ``conv``."""
        for i, m in enumerate(conv.messages):
            if m["id"] == n:
                return i, None, m
            for j, r in enumerate(m["thread"]):
                if r["id"] == n:
                    return i, j, r
        raise HttpError(404, f"no message {n} in {conv.label}")

    @staticmethod
    def _text(ctx: Ctx) -> str:
        text = ctx.field("text", limit=TEXT_LIMIT)
        if not text.strip():
            raise HttpError(400, "the field 'text' is required")
        return text

    # -- changing things -------------------------------------------------------------------
    def _set_messages(self, ctx: Ctx, conv: Conv, messages: list[dict]) -> None:
        ctx.state = assoc_in(ctx.state, conv.keys, {**conv.data, "messages": messages})

    def _new_message(self, ctx: Ctx, author: str, text: str, reply: bool) -> dict:
        n = ctx.state["next_message"]
        ctx.state = {**ctx.state, "next_message": n + 1}
        message = {"id": n, "author": author, "text": text, "at_us": ctx.now_us, "edited": False}
        return message if reply else {**message, "thread": []}

    def _post(self, ctx: Ctx, user: str, conv: Conv, text: str, parent: int | None = None) -> dict:
        if not self._can_post(user, conv):
            raise HttpError(403, f"join {conv.label} before posting in it")
        if parent is None:
            message = self._new_message(ctx, user, text, reply=False)
            self._set_messages(ctx, conv, [*conv.messages, message])
            return message
        i, _, _ = self._find(conv, parent)
        root = conv.messages[i]
        message = self._new_message(ctx, user, text, reply=True)
        updated = {**root, "thread": [*root["thread"], message]}
        self._set_messages(ctx, conv, [*conv.messages[:i], updated, *conv.messages[i + 1:]])
        return message

    def _own(self, ctx: Ctx, user: str) -> tuple[Conv, int, int | None, dict]:
        conv = self._conv(ctx, user)
        i, j, message = self._find(conv, self._message_id(ctx))
        if message["author"] != user:
            raise HttpError(403, f"message {message['id']} is {self.who(ctx, message['author'])}'s, not yours")
        return conv, i, j, message

    def _set_members(self, ctx: Ctx, conv: Conv, members: list[str]) -> None:
        ctx.state = assoc_in(ctx.state, [*conv.keys, "members"], sorted(set(members)))

    # -- handlers (marked with their URLs per kind by __init_subclass__) -------------------
    def team_home(self, ctx: Ctx) -> Page:
        """The team: your channels and direct conversations."""
        if ctx.user is None:
            self.space_path(ctx)  # a missing workspace is 404 before the sign-in question
            return self.page(ctx, self.team_name(ctx), [
                Heading(self.team_name(ctx), id="team-title"),
                Text("Sign in to read and post messages with your team.", id="welcome"),
                Link("Sign in", f"/login?next={self.base(ctx) or '/'}", id="welcome-sign-in")])
        user = ctx.user
        _, space = self._space(ctx)
        b = self.base(ctx)
        mine = [Link(f"#{name}" + (" (private)" if c["private"] else ""), f"{b}/c/{name}", id=f"channel-{name}")
                for name, c in sorted(space["channels"].items()) if user in c["members"]]
        dms = [Link(conv.label, conv.url, id=f"dm-{conv.url.rsplit('/', 1)[1]}")
               for conv in self._readable(ctx, user) if conv.channel is None]
        return self.page(ctx, self.team_name(ctx), [
            *self.nav(ctx),
            Heading(self.team_name(ctx), id="team-title"),
            Heading("Channels", level=2, id="channels-title"),
            ListBlock(tuple(mine), id="my-channels") if mine else Text("You are in no channel yet.", id="no-channels"),
            Link("Browse channels", f"{b}/channels", id="browse-channels"),
            Heading("Direct messages", level=2, id="dms-title"),
            ListBlock(tuple(dms), id="direct-messages") if dms else Text("No direct messages yet.", id="no-dms"),
            Link("Message someone", f"{b}/people", id="people-link"),
        ])

    def browse(self, ctx: Ctx) -> Page:
        """Every channel you may see, to join, and the form to create one."""
        user = ctx.require_user()
        b = self.base(ctx)
        rows = []
        for conv in self._readable(ctx, user):
            if conv.channel is None:
                continue
            name, c = conv.channel, conv.data
            if user in c["members"]:
                action: Element = Text("Joined", id=f"browse-{name}-joined")
            else:
                action = Form(f"{b}/c/{name}/join", (Button("Join", id=f"browse-{name}-join"),), id=f"browse-{name}-join-form")
            rows.append((Link(f"#{name}", conv.url, id=f"browse-{name}"),
                         Text("Private" if c["private"] else "Public", id=f"browse-{name}-visibility"),
                         Text(c["topic"], id=f"browse-{name}-topic"),
                         Text(str(len(c["members"])), id=f"browse-{name}-members"), action))
        return self.page(ctx, "Channels", [
            *self.nav(ctx),
            Heading("Channels", id="browse-title"),
            Table(("Channel", "Visibility", "Topic", "Members", ""), tuple(rows), id="channels") if rows
            else Text("No channels yet.", id="no-channels"),
            Heading("Create a channel", level=2, id="create-channel-title"),
            Form(f"{b}/channels", (
                Input("name", label="Name", placeholder="e.g. project-x", id="create-channel-name"),
                Input("topic", label="Topic", id="create-channel-topic"),
                Checkbox("private", label="Private: only invited members can see it", id="create-channel-private"),
                Button("Create channel", id="create-channel-submit")), id="create-channel"),
        ])

    def create_channel(self, ctx: Ctx) -> Any:
        """Create a channel; its creator is its first member."""
        user = ctx.require_user()
        raw = ctx.field("name", limit=200)
        name = re.sub(r"\s+", "-", raw.strip().lstrip("#").strip()).lower()
        if not CHANNEL_NAME.match(name):
            raise HttpError(400, f"{raw!r} is not a channel name: up to 80 lower-case letters, digits, '-' and '_'")
        private = _flag(ctx, "private")
        topic = ctx.field("topic", required=False, limit=250).strip()
        path, space = self._space(ctx)
        if name in space["channels"]:
            raise HttpError(409, f"a channel named #{name} exists already")
        ctx.state = assoc_in(ctx.state, [*path, "channels", name],
                             {"private": private, "topic": topic, "members": [user], "messages": []})
        url = f"{self.base(ctx)}/c/{name}"
        return Json({"channel": {"name": name, "private": private, "topic": topic, "members": [user]}}, 201) \
            if ctx.wants_json else Redirect(url)

    def people(self, ctx: Ctx) -> Page:
        """Everyone with an account, each a link to a direct conversation."""
        ctx.require_user()
        b = self.base(ctx)
        items = tuple(Link(self.who(ctx, name), f"{b}/dm/{name}", id=f"person-{name}") for name in sorted(ctx.state["users"]))
        return self.page(ctx, "People", [*self.nav(ctx), Heading("People", id="people-title"),
                                         ListBlock(items, id="people")])

    def conversation(self, ctx: Ctx) -> Page:
        """A channel or a direct conversation: its messages in order and the compose box."""
        user = ctx.require_user()
        conv = self._conv(ctx, user)
        body: list[Element] = [*self.nav(ctx)]
        if conv.channel is not None:
            c = conv.data
            body += [Heading(conv.label, id="channel-title"),
                     Text(f"{'Private' if c['private'] else 'Public'} channel · {len(c['members'])} "
                          f"member{'' if len(c['members']) == 1 else 's'}", id="channel-info")]
            if c["topic"]:
                body.append(Text(c["topic"], id="channel-topic"))
            body.append(Text("Members: " + ", ".join(f"@{m}" for m in c["members"]), id="channel-members"))
            if user in c["members"]:
                body += [Form(f"{conv.url}/leave", (Button("Leave channel", id="leave-channel"),), id="leave-form"),
                         Form(f"{conv.url}/invite", (Input("user", label="Add someone", placeholder="user name",
                                                           id="invite-user"),
                                                     Button("Add", id="invite-submit")), id="invite-form")]
            else:
                body.append(Form(f"{conv.url}/join", (Button("Join channel", id="join-channel"),), id="join-form"))
        else:
            body.append(Heading(f"Direct messages with {conv.label}", id="dm-title"))
        if conv.messages:
            body.append(self._table(ctx, conv, conv.messages, False, ("From", "Time", "Message", "Thread", "", ""),
                                    "messages"))
        else:
            body.append(Text("No messages yet.", id="no-messages"))
        if self._can_post(user, conv):
            body.append(Form(conv.url, (TextArea("text", label=f"Message {conv.label}", rows=3, id="compose-text"),
                                        Button("Send", id="compose-send")), id="compose"))
        return self.page(ctx, conv.label, body)

    def post(self, ctx: Ctx) -> Any:
        """Post ``text`` in the conversation."""
        user = ctx.require_user()
        conv = self._conv(ctx, user)
        message = self._post(ctx, user, conv, self._text(ctx))
        return Json({"message": self._message_json(message)}, 201) if ctx.wants_json else Redirect(conv.url)

    def thread(self, ctx: Ctx) -> Any:
        """A message and its replies, with the reply box."""
        user = ctx.require_user()
        conv = self._conv(ctx, user)
        i, j, _ = self._find(conv, self._message_id(ctx))
        root = conv.messages[i]
        if j is not None:  # a reply's thread is its message's
            return Redirect(f"{conv.url}/t/{root['id']}")
        body: list[Element] = [*self.nav(ctx), Heading(f"Thread in {conv.label}", id="thread-title"),
                               Link(f"Back to {conv.label}", conv.url, id="thread-back"),
                               self._table(ctx, conv, [root], True, ("From", "Time", "Message", "", ""), "thread-parent")]
        if root["thread"]:
            body.append(self._table(ctx, conv, root["thread"], True, ("From", "Time", "Reply", "", ""), "replies"))
        else:
            body.append(Text("No replies yet.", id="no-replies"))
        if self._can_post(user, conv):
            body.append(Form(f"{conv.url}/t/{root['id']}", (TextArea("text", label="Reply", rows=3, id="reply-text"),
                                                            Button("Reply", id="reply-send")), id="reply"))
        return self.page(ctx, f"Thread in {conv.label}", body)

    def reply(self, ctx: Ctx) -> Any:
        """Reply ``text`` in a message's thread."""
        user = ctx.require_user()
        conv = self._conv(ctx, user)
        n = self._message_id(ctx)
        i, _, _ = self._find(conv, n)
        root = conv.messages[i]["id"]
        message = self._post(ctx, user, conv, self._text(ctx), parent=root)
        return Json({"message": self._message_json(message)}, 201) if ctx.wants_json else Redirect(f"{conv.url}/t/{root}")

    def edit_form(self, ctx: Ctx) -> Page:
        """The form to edit your own message."""
        user = ctx.require_user()
        conv, _, _, message = self._own(ctx, user)
        n = message["id"]
        return self.page(ctx, "Edit message", [
            *self.nav(ctx), Heading("Edit message", id="edit-title"),
            Form(f"{conv.url}/m/{n}/edit", (TextArea("text", label="Message", value=message["text"], id="edit-text"),
                                            Button("Save", id="edit-save")), id="edit-form"),
            Link("Cancel", conv.url, id="edit-cancel")])

    def edit(self, ctx: Ctx) -> Any:
        """Replace the text of your own message."""
        user = ctx.require_user()
        conv, i, j, message = self._own(ctx, user)
        changed = {**message, "text": self._text(ctx), "edited": True}
        root = conv.messages[i]
        if j is None:
            root = changed
        else:
            root = {**root, "thread": [*root["thread"][:j], changed, *root["thread"][j + 1:]]}
        self._set_messages(ctx, conv, [*conv.messages[:i], root, *conv.messages[i + 1:]])
        if ctx.wants_json:
            return Json({"message": self._message_json(changed)})
        return Redirect(conv.url if j is None else f"{conv.url}/t/{root['id']}")

    def delete(self, ctx: Ctx) -> Any:
        """Delete your own message (a message takes its thread with it)."""
        user = ctx.require_user()
        conv, i, j, _ = self._own(ctx, user)
        root = conv.messages[i]
        if j is None:
            rest = [*conv.messages[:i], *conv.messages[i + 1:]]
        else:
            rest = [*conv.messages[:i], {**root, "thread": [*root["thread"][:j], *root["thread"][j + 1:]]},
                    *conv.messages[i + 1:]]
        self._set_messages(ctx, conv, rest)
        if ctx.wants_json:
            return Json({"deleted": True})
        return Redirect(conv.url if j is None else f"{conv.url}/t/{root['id']}")

    def react_form(self, ctx: Ctx) -> Page:
        """Who reacted to a message with what, and the form to add or take back a reaction."""
        user = ctx.require_user()
        conv = self._conv(ctx, user)
        _, _, message = self._find(conv, self._message_id(ctx))
        n = message["id"]
        reactions = message.get("reactions", {})
        body: list[Element] = [*self.nav(ctx), Heading("Reactions", id="react-title"),
                               Text(f"{self.who(ctx, message['author'])}: {message['text']}", id="react-message")]
        if reactions:
            body.append(Table(("Reaction", "Who"), tuple(
                (Text(f":{name}:", id=f"reaction-{name}"), Text(", ".join(f"@{u}" for u in who), id=f"reaction-{name}-who"))
                for name, who in reactions.items()), id="reactions"))
        else:
            body.append(Text("No reactions yet.", id="no-reactions"))
        if self._can_post(user, conv):
            body.append(Form(f"{conv.url}/m/{n}/react", (
                Input("name", label="Reaction (a name such as eyes or +1; again to take it back)", id="react-name"),
                Button("React", id="react-submit")), id="react-form"))
        body.append(Link(f"Back to {conv.label}", conv.url, id="react-back"))
        return self.page(ctx, "Reactions", body)

    def react(self, ctx: Ctx) -> Any:
        """Add your reaction ``name`` to a message, or take it back when it is there."""
        user = ctx.require_user()
        conv = self._conv(ctx, user)
        if not self._can_post(user, conv):
            raise HttpError(403, f"join {conv.label} before reacting in it")
        i, j, message = self._find(conv, self._message_id(ctx))
        name = ctx.field("name", limit=64).strip().strip(":").lower()
        if not REACTION.match(name):
            raise HttpError(400, f"a reaction is an emoji's short name (a-z, 0-9, '_', '+', '-'), got {name!r}")
        reactions = dict(message.get("reactions", {}))
        who = reactions.get(name, [])
        reactions[name] = [u for u in who if u != user] if user in who else [*who, user]
        reactions = {k: v for k, v in reactions.items() if v}
        changed = {k: v for k, v in message.items() if k != "reactions"} | ({"reactions": reactions} if reactions else {})
        root = conv.messages[i]
        root = changed if j is None else {**root, "thread": [*root["thread"][:j], changed, *root["thread"][j + 1:]]}
        self._set_messages(ctx, conv, [*conv.messages[:i], root, *conv.messages[i + 1:]])
        if ctx.wants_json:
            return Json({"message": self._message_json(changed)})
        return Redirect(f"{conv.url}/m/{message['id']}/react")

    def join(self, ctx: Ctx) -> Any:
        """Join a public channel (already a member: nothing changes)."""
        user = ctx.require_user()
        conv = self._channel(ctx, user)
        if user not in conv.data["members"]:
            self._set_members(ctx, conv, [*conv.data["members"], user])
        return Redirect(conv.url)

    def leave(self, ctx: Ctx) -> Any:
        """Leave a channel (not a member: nothing changes)."""
        user = ctx.require_user()
        conv = self._channel(ctx, user)
        if user in conv.data["members"]:
            self._set_members(ctx, conv, [m for m in conv.data["members"] if m != user])
        return Redirect(self.base(ctx) or "/")

    def invite(self, ctx: Ctx) -> Any:
        """Add ``user`` to a channel you are a member of."""
        user = ctx.require_user()
        conv = self._channel(ctx, user)
        other = ctx.field("user", limit=64).strip().lstrip("@")
        if user not in conv.data["members"]:
            raise HttpError(403, f"only members of {conv.label} can add people to it")
        if other not in ctx.state["users"]:
            raise HttpError(404, f"no user named {other!r}")
        if other in conv.data["members"]:
            raise HttpError(409, f"@{other} is already in {conv.label}")
        self._set_members(ctx, conv, [*conv.data["members"], other])
        return Redirect(conv.url)

    def _hits(self, ctx: Ctx, user: str, keep: Any) -> list[tuple[Conv, dict, dict]]:
        """``(conversation, top-level message, message)`` for every message ``user`` may read
        that ``keep(conv, message)`` accepts, newest first."""
        hits = []
        for conv in self._readable(ctx, user):
            for m in conv.messages:
                for message in (m, *m["thread"]):
                    if keep(conv, message):
                        hits.append((conv, m, message))
        return sorted(hits, key=lambda h: (-h[2]["at_us"], -h[2]["id"]))

    def _hit_rows(self, ctx: Ctx, hits: list[tuple[Conv, dict, dict]], prefix: str) -> tuple[tuple[Element, ...], ...]:
        rows = []
        for conv, root, m in hits:
            n = m["id"]
            url = conv.url if root is m else f"{conv.url}/t/{root['id']}"
            where = conv.label if root is m else f"{conv.label} (thread)"
            rows.append((Link(where, url, id=f"{prefix}-{n}-in"), Text(self.who(ctx, m["author"]), id=f"{prefix}-{n}-from"),
                         Text(timestamp(m["at_us"]), id=f"{prefix}-{n}-time"), Text(m["text"], id=f"{prefix}-{n}-text")))
        return tuple(rows)

    def mentions(self, ctx: Ctx) -> Page:
        """Messages by others that mention you, newest first."""
        user = ctx.require_user()
        users = ctx.state["users"]
        hits = self._hits(ctx, user, lambda conv, m: m["author"] != user and user in mentioned(m["text"], conv.data["members"], users))
        return self.page(ctx, "Mentions", [
            *self.nav(ctx), Heading("Mentions", id="mentions-title"),
            Table(("In", "From", "Time", "Message"), self._hit_rows(ctx, hits, "mention"), id="mentions") if hits
            else Text("Nobody has mentioned you yet.", id="no-mentions")])

    def search(self, ctx: Ctx) -> Page:
        """Messages you can see with every word of ``q`` (``from:@user``, ``in:#channel`` narrow it)."""
        user = ctx.require_user()
        q = ctx.field("q", required=False, limit=500)
        words, author, place = [], None, None
        for token in q.split():
            if token.lower().startswith("from:"):
                author = token[5:].lstrip("@")
            elif token.lower().startswith("in:"):
                place = token[3:].lstrip("#")
            else:
                words.append(token.lower())
        body: list[Element] = [*self.nav(ctx), Heading("Search", id="search-title"),
                               Form(f"{self.base(ctx)}/search", (Input("q", label="Search messages", type="search", value=q,
                                                                       id="search-q"),
                                                                 Button("Search", id="search-submit")),
                                    method="GET", id="search-form")]
        if q.strip():
            def keep(conv: Conv, m: dict) -> bool:
                text = m["text"].lower()
                return (all(w in text for w in words) and (author is None or m["author"] == author)
                        and (place is None or conv.channel == place))

            hits = self._hits(ctx, user, keep)
            body.append(Text(f"{len(hits)} result{'' if len(hits) == 1 else 's'} for {q.strip()!r}", id="search-count"))
            if hits:
                body.append(Table(("In", "From", "Time", "Message"), self._hit_rows(ctx, hits, "result"), id="search-results"))
        return self.page(ctx, "Search", body)

    # -- JSON API --------------------------------------------------------------------------
    @staticmethod
    def _message_json(m: dict) -> dict:
        out = {"id": m["id"], "author": m["author"], "text": m["text"], "at": timestamp(m["at_us"]), "at_us": m["at_us"],
               "edited": m["edited"]}
        if m.get("reactions"):
            out["reactions"] = m["reactions"]
        if "thread" in m:
            out["replies"] = [ChatEngine._message_json(r) for r in m["thread"]]
        return out

    def api_channels(self, ctx: Ctx) -> Json:
        """The channels you may see."""
        user = ctx.require_user()
        return Json({"channels": [{"name": conv.channel, "private": conv.data["private"], "topic": conv.data["topic"],
                                   "members": conv.data["members"], "member": user in conv.data["members"]}
                                  for conv in self._readable(ctx, user) if conv.channel is not None]})

    def api_messages(self, ctx: Ctx) -> Json:
        """A channel's messages in order, each with its replies."""
        user = ctx.require_user()
        conv = self._channel(ctx, user)
        return Json({"channel": conv.channel, "messages": [self._message_json(m) for m in conv.messages]})

    def api_post(self, ctx: Ctx) -> Json:
        """Post ``{text, thread?}`` (``thread``: the id of the message to reply to)."""
        user = ctx.require_user()
        conv = self._channel(ctx, user)
        text = self._text(ctx)
        parent = ctx.json.get("thread") if isinstance(ctx.json, dict) else ctx.form.get("thread")
        if parent is not None and not (isinstance(parent, int) and not isinstance(parent, bool)):
            if not (isinstance(parent, str) and _ID.fullmatch(parent)):
                raise HttpError(400, f"'thread' is the id of a message, got {parent!r}")
            parent = int(parent)
        message = self._post(ctx, user, conv, text, parent)
        return Json({"message": self._message_json(message)}, 201)


def _flag(ctx: Ctx, name: str) -> bool:
    value = ctx.field(name, required=False).strip().lower()
    if value in ("", "0", "false", "off", "no"):
        return False
    if value in ("on", "1", "true", "yes"):
        return True
    raise HttpError(400, f"the field {name!r} is on or off, got {value!r}")
