"""``media``: a catalogue of videos and music tracks — browse by tag and creator, search, play
(counted, and kept in your history), like, playlists and subscriptions to creators.

====== ================================== ===============================================================
GET    ``/``                              most played, newest from your subscriptions, tags, creators
GET    ``/search?q=&kind=``               search titles, creators, tags, descriptions (``kind``: video, track)
GET    ``/tags/{tag}``                    items with a tag
GET    ``/creators/{creator}``            a creator's items, with Subscribe / Unsubscribe
POST   ``/creators/{creator}/subscribe``  subscribe (``/unsubscribe`` to stop)
GET    ``/watch/{id}``                    an item: title, creator, duration, plays, likes, description
POST   ``/watch/{id}/play``               play: counts a play and adds it to your history
POST   ``/watch/{id}/like``               like (``/unlike`` to take it back)
GET    ``/playlists``                     your playlists and the form to create one
POST   ``/playlists``                     ``name``, ``visibility`` (``private`` or ``public``)
GET    ``/playlists/{id}``                a playlist (a private one is ``404`` to everyone but its owner)
POST   ``/playlists/{id}/add``            ``item``
POST   ``/playlists/{id}/remove``         ``item``
POST   ``/playlists/{id}/move``           ``item``, ``direction`` (``up`` or ``down``)
POST   ``/playlists/{id}/edit``           ``name``, ``visibility``
POST   ``/playlists/{id}/delete``         delete the playlist
GET    ``/subscriptions``                 creators you follow
GET    ``/history``                       what you played, newest first
GET    ``/liked``                         what you liked
====== ================================== ===============================================================

Playing works signed out too (it counts, but there is no history); everything personal needs
a signed-in user. Changing someone else's playlist is ``403``.

JSON API: ``GET /api/items`` (``q``, ``kind``, ``tag``, ``creator``), ``GET /api/items/{id}``,
``POST /api/items/{id}/play``, ``POST /api/items/{id}/like``, ``GET /api/playlists`` (yours),
``POST /api/playlists``, ``GET /api/playlists/{id}``, ``POST /api/playlists/{id}/add`` (and
``remove``, ``move``), ``GET /api/history``, ``GET /api/subscriptions``.

``initial_state``::

    {"users": [...],
     "items"?: [{"id", "kind": "video" | "track", "title", "creator", "duration_s",
                 "tags"?: [...], "description"?, "plays"?: 0}],
     "playlists"?: [{"id"?, "owner", "name", "public"?: false, "items"?: [item ids]}],
     "subscriptions"?: {user: [creators]}, "likes"?: {user: [item ids]}}

The service adds ``history`` (``{user: [{item, at_us, at}]}``) and ``next_playlist``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar
from urllib.parse import quote

from cwgym.net.services import SERVICE_KINDS
from cwgym.protocol.page import (
    Button,
    Form,
    Heading,
    Input,
    Link,
    ListBlock,
    Option,
    Select,
    Table,
    Text,
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

ITEM_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
KINDS = ("video", "track")
ITEM_FIELDS = {"id": str, "kind": str, "title": str, "creator": str, "duration_s": int, "tags": list,
               "description": str, "plays": int}
PLAYLIST_FIELDS = {"id": str, "owner": str, "name": str, "public": bool, "items": list}
HISTORY_KEEP = 200


def duration(seconds: int) -> str:
    """``3:07``, ``1:02:03``."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def slug(text: str) -> str:
    """A name as part of an element id: ``Lo Fi Co`` -> ``lo-fi-co``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def _names(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ValueError(f"{where}: a list of non-empty names")
    return list(dict.fromkeys(value))


class Media(WebService):
    name = "media"
    title = "Media"
    fields: ClassVar[dict[str, type | tuple[type, ...]]] = {
        "items": (list, dict), "playlists": (list, dict), "subscriptions": dict, "likes": dict, "history": dict,
        "next_playlist": int}

    # -- state -------------------------------------------------------------------------
    def validate(self, state: dict, where: str, users: dict[str, dict], definition: Any = None) -> dict:
        raw = state.get("items", [])
        entries = [(f"{where}.items[{k!r}]", v) for k, v in raw.items()] if isinstance(raw, dict) else \
            [(f"{where}.items[{i}]", v) for i, v in enumerate(raw)]
        items: dict[str, dict] = {}
        for at, item in entries:
            check_fields(item, at, ITEM_FIELDS, ("id", "kind", "title", "creator", "duration_s"))
            if not ITEM_ID.match(item["id"]):
                raise ValueError(f"{at}.id: letters, digits, '-' and '_' (1 to 64), got {item['id']!r}")
            if item["id"] in items:
                raise ValueError(f"{at}.id: {item['id']!r} is listed twice")
            if item["kind"] not in KINDS:
                raise ValueError(f"{at}.kind: video or track, got {item['kind']!r}")
            if not item["creator"].strip() or "/" in item["creator"]:
                raise ValueError(f"{at}.creator: a name without '/'")
            if item["duration_s"] <= 0:
                raise ValueError(f"{at}.duration_s: more than 0 seconds, got {item['duration_s']}")
            tags = _names(item.get("tags", []), f"{at}.tags")
            if any("/" in t for t in tags):
                raise ValueError(f"{at}.tags: a tag has no '/'")
            plays = item.get("plays", 0)
            if plays < 0:
                raise ValueError(f"{at}.plays: 0 or more, got {plays}")
            items[item["id"]] = {"id": item["id"], "kind": item["kind"], "title": item["title"], "creator": item["creator"],
                                 "duration_s": item["duration_s"], "tags": tags, "description": item.get("description", ""),
                                 "plays": plays}
        raw = state.get("playlists", [])
        entries = [(f"{where}.playlists[{k!r}]", v) for k, v in raw.items()] if isinstance(raw, dict) else \
            [(f"{where}.playlists[{i}]", v) for i, v in enumerate(raw)]
        playlists: dict[str, dict] = {}
        counter = state.get("next_playlist", 1)
        for at, playlist in entries:
            check_fields(playlist, at, PLAYLIST_FIELDS, ("owner", "name"))
            pid = playlist.get("id")
            if pid is None:
                while str(counter) in playlists or any(isinstance(q, dict) and q.get("id") == str(counter) for _, q in entries):
                    counter += 1
                pid = str(counter)
            if not ITEM_ID.match(pid) or pid in playlists:
                raise ValueError(f"{at}.id: a unique id of letters, digits, '-' and '_', got {pid!r}")
            if playlist["owner"] not in users:
                raise ValueError(f"{at}.owner: no such user {playlist['owner']!r}")
            listed = _names(playlist.get("items", []), f"{at}.items")
            for n, item_id in enumerate(listed):
                if item_id not in items:
                    raise ValueError(f"{at}.items[{n}]: no item {item_id!r}")
            playlists[pid] = {"id": pid, "owner": playlist["owner"], "name": playlist["name"],
                              "public": playlist.get("public", False), "items": listed}
        top = max((int(p) for p in playlists if p.isdigit()), default=0)
        subscriptions, likes, history = {}, {}, {}
        for user, creators in state.get("subscriptions", {}).items():
            if user not in users:
                raise ValueError(f"{where}.subscriptions.{user}: no such user")
            subscriptions[user] = _names(creators, f"{where}.subscriptions.{user}")
        for user, liked in state.get("likes", {}).items():
            if user not in users:
                raise ValueError(f"{where}.likes.{user}: no such user")
            likes[user] = _names(liked, f"{where}.likes.{user}")
            missing = [i for i in likes[user] if i not in items]
            if missing:
                raise ValueError(f"{where}.likes.{user}: no item {missing[0]!r}")
        for user, plays in state.get("history", {}).items():
            if user not in users or not isinstance(plays, list):
                raise ValueError(f"{where}.history.{user}: a list of plays of an existing user")
            for n, play in enumerate(plays):
                check_fields(play, f"{where}.history.{user}[{n}]", {"item": str, "at_us": int, "at": str}, ("item", "at_us", "at"))
            history[user] = list(plays)
        return {"items": items, "playlists": playlists, "subscriptions": subscriptions, "likes": likes, "history": history,
                "next_playlist": max(counter, top + 1)}

    def public_pages(self, state: dict, base: str) -> list[dict]:
        """Every video and track, by id, at ``/watch/<id>``: anyone browses and plays. The
        snippet is its description (else what it is and who made it); its creator and tags
        are keywords."""
        return [page_entry(item["title"], f"{base}/watch/{quote(iid)}",
                           item["description"] or f"{'Video' if item['kind'] == 'video' else 'Track'} by {item['creator']}",
                           [item["creator"], *item["tags"]])
                for iid, item in sorted(state["items"].items())]

    # -- helpers -----------------------------------------------------------------------
    @staticmethod
    def _item(ctx: Ctx, item_id: str, status: int = 404) -> dict:
        item = ctx.state["items"].get(item_id)
        if item is None:
            raise HttpError(status, f"no item {item_id!r}")
        return item

    def _likes(self, ctx: Ctx, item_id: str) -> int:
        return sum(item_id in liked for liked in ctx.state["likes"].values())

    def _item_json(self, ctx: Ctx, item: dict) -> dict:
        out = {**item, "likes": self._likes(ctx, item["id"]), "duration": duration(item["duration_s"])}
        if ctx.user:
            out["liked"] = item["id"] in ctx.state["likes"].get(ctx.user, [])
        return out

    @staticmethod
    def _link(item: dict, prefix: str = "item") -> Link:
        label = f"{item['title']} — {item['creator']} ({duration(item['duration_s'])}, {item['kind']})"
        return Link(label, f"/watch/{item['id']}", id=f"{prefix}-{item['id']}")

    def _list(self, items: list[dict], list_id: str, prefix: str = "item") -> ListBlock:
        return ListBlock(tuple(self._link(i, prefix) for i in items), id=list_id)

    @staticmethod
    def _by_title(items: Any) -> list[dict]:
        return sorted(items, key=lambda i: (i["title"].lower(), i["id"]))

    def _find(self, ctx: Ctx) -> list[dict]:
        words = ctx.query.get("q", "").lower().split()
        kind, tag, creator = ctx.query.get("kind", ""), ctx.query.get("tag", ""), ctx.query.get("creator", "")
        if kind and kind not in KINDS:
            raise HttpError(400, f"kind is video or track, got {kind!r}")
        found = []
        for item in ctx.state["items"].values():
            if (kind and item["kind"] != kind) or (tag and tag not in item["tags"]) or (creator and item["creator"] != creator):
                continue
            title, text = item["title"].lower(), " ".join([item["creator"], *item["tags"], item["description"]]).lower()
            if all(w in title or w in text for w in words):
                found.append((-sum(2 * (w in title) + (w in text) for w in words), item))
        return [i for _, i in sorted(found, key=lambda s: (s[0], s[1]["title"].lower(), s[1]["id"]))]

    def _playlist(self, ctx: Ctx, pid: str, owner_only: bool = False) -> dict:
        playlist = ctx.state["playlists"].get(pid)
        if playlist is None or (not playlist["public"] and playlist["owner"] != ctx.user):
            raise HttpError(404, f"no playlist {pid}")
        if owner_only and playlist["owner"] != ctx.require_user():
            raise HttpError(403, f"the playlist {playlist['name']!r} belongs to {playlist['owner']}")
        return playlist

    def _mine(self, ctx: Ctx) -> list[dict]:
        user = ctx.require_user()
        return sorted((p for p in ctx.state["playlists"].values() if p["owner"] == user), key=lambda p: (p["name"].lower(), p["id"]))

    def _done(self, ctx: Ctx, data: Any, url: str, status: int = 200) -> Any:
        return Json(data, status) if ctx.wants_json else Redirect(url)

    # -- browsing ------------------------------------------------------------------------
    @route("GET", "/")
    def home(self, ctx: Ctx) -> Any:
        items = list(ctx.state["items"].values())
        body = [Heading("Media", id="home-title"),
                Form("/search", (Input("q", label="Search", type="search", id="search-q"), Button("Search", id="search-submit")),
                     method="GET", id="search-form")]
        if ctx.user:
            followed = ctx.state["subscriptions"].get(ctx.user, [])
            feed = self._by_title(i for i in items if i["creator"] in followed)
            body += [Heading("From your subscriptions", level=2, id="feed-title"),
                     self._list(feed, "feed", "feed") if feed else Text("Subscribe to creators to see their work here.", id="feed-empty"),
                     Link("Playlists", "/playlists", id="playlists-link"), Link("History", "/history", id="history-link"),
                     Link("Liked", "/liked", id="liked-link"), Link("Subscriptions", "/subscriptions", id="subscriptions-link")]
        popular = sorted(items, key=lambda i: (-i["plays"], i["title"].lower(), i["id"]))[:10]
        body += [Heading("Popular", level=2, id="popular-title"),
                 self._list(popular, "popular") if popular else Text("Nothing here yet.", id="empty")]
        tags = sorted({t for i in items for t in i["tags"]})
        creators = sorted({i["creator"] for i in items})
        body += [Heading("Tags", level=2, id="tags-title"),
                 ListBlock(tuple(Link(t, f"/tags/{quote(t)}", id=f"tag-{slug(t)}") for t in tags), id="tags"),
                 Heading("Creators", level=2, id="creators-title"),
                 ListBlock(tuple(Link(c, f"/creators/{quote(c)}", id=f"creator-{slug(c)}") for c in creators), id="creators")]
        return self.page(ctx, "Media", body)

    @route("GET", "/search")
    def search(self, ctx: Ctx) -> Any:
        found = self._find(ctx)
        q = ctx.query.get("q", "")
        kinds = (Option("", "Everything"), Option("video", "Videos"), Option("track", "Music"))
        body = [Form("/search", (Input("q", label="Search", value=q, type="search", id="search-q"),
                                 Select("kind", kinds, label="Show", value=ctx.query.get("kind", ""), id="search-kind"),
                                 Button("Search", id="search-submit")), method="GET", id="search-form"),
                Heading(f"{len(found)} result{'s' * (len(found) != 1)}" + (f' for "{q}"' if q else ""), id="results-title"),
                self._list(found, "results") if found else Text("Nothing matches.", id="no-results")]
        return self.page(ctx, f"Search: {q}", body)

    @route("GET", "/tags/{tag}")
    def tag(self, ctx: Ctx) -> Any:
        tag = ctx.params["tag"]
        found = self._by_title(i for i in ctx.state["items"].values() if tag in i["tags"])
        if not found:
            raise HttpError(404, f"no item is tagged {tag!r}")
        return self.page(ctx, f"#{tag}", [Heading(f"#{tag}", id="tag-title"), self._list(found, "results")])

    @route("GET", "/creators/{creator}")
    def creator(self, ctx: Ctx) -> Any:
        name = ctx.params["creator"]
        found = self._by_title(i for i in ctx.state["items"].values() if i["creator"] == name)
        if not found:
            raise HttpError(404, f"no creator {name!r}")
        followers = sum(name in c for c in ctx.state["subscriptions"].values())
        body = [Heading(name, id="creator-title"), Text(f"{followers} subscriber{'s' * (followers != 1)}", id="creator-subscribers")]
        if ctx.user:
            on = name in ctx.state["subscriptions"].get(ctx.user, [])
            action = "unsubscribe" if on else "subscribe"
            body.append(Form(f"/creators/{quote(name)}/{action}", (Button(action.capitalize(), id=action),), id="subscribe-form"))
        body.append(self._list(found, "results"))
        return self.page(ctx, name, body)

    def _subscribe(self, ctx: Ctx, on: bool) -> Any:
        user = ctx.require_user()
        name = ctx.params["creator"]
        if not any(i["creator"] == name for i in ctx.state["items"].values()):
            raise HttpError(404, f"no creator {name!r}")
        mine = [c for c in ctx.state["subscriptions"].get(user, []) if c != name]
        ctx.state = assoc_in(ctx.state, ["subscriptions", user], [*mine, name] if on else mine)
        return self._done(ctx, {"subscriptions": ctx.state["subscriptions"][user]}, f"/creators/{quote(name)}")

    @route("POST", "/creators/{creator}/subscribe")
    def subscribe(self, ctx: Ctx) -> Any:
        return self._subscribe(ctx, True)

    @route("POST", "/creators/{creator}/unsubscribe")
    def unsubscribe(self, ctx: Ctx) -> Any:
        return self._subscribe(ctx, False)

    @route("GET", "/subscriptions")
    def subscriptions(self, ctx: Ctx) -> Any:
        mine = ctx.state["subscriptions"].get(ctx.require_user(), [])
        links = tuple(Link(c, f"/creators/{quote(c)}", id=f"subscription-{slug(c)}") for c in sorted(mine))
        return self.page(ctx, "Subscriptions", [Heading("Subscriptions", id="subscriptions-title"),
                                                ListBlock(links, id="subscriptions") if links
                                                else Text("You follow no creators yet.", id="subscriptions-empty")])

    # -- an item -------------------------------------------------------------------------
    @route("GET", "/watch/{id}")
    def watch(self, ctx: Ctx) -> Any:
        item = self._item(ctx, ctx.params["id"])
        iid = item["id"]
        likes = self._likes(ctx, iid)
        body = [Heading(item["title"], id="item-title"),
                Link(item["creator"], f"/creators/{quote(item['creator'])}", id="item-creator"),
                Text(f"{'Video' if item['kind'] == 'video' else 'Track'} · {duration(item['duration_s'])}", id="item-duration"),
                Text(f"{item['plays']} play{'s' * (item['plays'] != 1)} · {likes} like{'s' * (likes != 1)}", id="item-stats"),
                Form(f"/watch/{iid}/play", (Button("Play", id="play"),), id="play-form")]
        if ctx.user:
            liked = iid in ctx.state["likes"].get(ctx.user, [])
            body.append(Form(f"/watch/{iid}/{'unlike' if liked else 'like'}", (Button("Liked ✓" if liked else "Like", id="like"),),
                             id="like-form"))
            mine = self._mine(ctx)
            if mine:
                body.append(Form("/playlists/add", (
                    Select("playlist", tuple(Option(p["id"], p["name"]) for p in mine), label="Playlist", value=mine[0]["id"],
                           id="add-playlist"),
                    Input("item", type="hidden", value=iid, id="add-item"), Button("Add to playlist", id="add-submit")),
                    id="add-form"))
        if item["description"]:
            body.append(Text(item["description"], id="item-description"))
        body.append(ListBlock(tuple(Link(f"#{t}", f"/tags/{quote(t)}", id=f"item-tag-{slug(t)}") for t in item["tags"]), id="item-tags"))
        return self.page(ctx, item["title"], body)

    @route("POST", "/watch/{id}/play")
    def play(self, ctx: Ctx) -> Any:
        item = self._item(ctx, ctx.params["id"])
        ctx.state = assoc_in(ctx.state, ["items", item["id"], "plays"], item["plays"] + 1)
        if ctx.user:
            past = ctx.state["history"].get(ctx.user, [])[-(HISTORY_KEEP - 1):]
            entry = {"item": item["id"], "at_us": ctx.now_us, "at": timestamp(ctx.now_us)}
            ctx.state = assoc_in(ctx.state, ["history", ctx.user], [*past, entry])
        return self._done(ctx, self._item_json(ctx, ctx.state["items"][item["id"]]), f"/watch/{item['id']}")

    def _like(self, ctx: Ctx, on: bool) -> Any:
        user = ctx.require_user()
        item = self._item(ctx, ctx.params["id"])
        mine = [i for i in ctx.state["likes"].get(user, []) if i != item["id"]]
        ctx.state = assoc_in(ctx.state, ["likes", user], [*mine, item["id"]] if on else mine)
        return self._done(ctx, self._item_json(ctx, item), f"/watch/{item['id']}")

    @route("POST", "/watch/{id}/like")
    def like(self, ctx: Ctx) -> Any:
        return self._like(ctx, True)

    @route("POST", "/watch/{id}/unlike")
    def unlike(self, ctx: Ctx) -> Any:
        return self._like(ctx, False)

    @route("GET", "/history")
    def history(self, ctx: Ctx) -> Any:
        plays = ctx.state["history"].get(ctx.require_user(), [])
        rows = []
        for n, play in reversed(list(enumerate(plays, 1))):
            item = ctx.state["items"].get(play["item"])
            title = f"{item['title']} — {item['creator']}" if item else play["item"]
            rows.append(Link(f"{play['at']}  {title}", f"/watch/{play['item']}", id=f"history-{n}"))
        return self.page(ctx, "History", [Heading("History", id="history-title"),
                                          ListBlock(tuple(rows), id="history") if rows else Text("You have played nothing yet.", id="history-empty")])

    @route("GET", "/liked")
    def liked(self, ctx: Ctx) -> Any:
        ids = ctx.state["likes"].get(ctx.require_user(), [])
        items = [ctx.state["items"][i] for i in reversed(ids) if i in ctx.state["items"]]
        return self.page(ctx, "Liked", [Heading("Liked", id="liked-title"),
                                        self._list(items, "liked", "liked") if items else Text("You have liked nothing yet.", id="liked-empty")])

    # -- playlists -----------------------------------------------------------------------
    @route("GET", "/playlists")
    def playlists(self, ctx: Ctx) -> Any:
        mine = self._mine(ctx)
        links = tuple(Link(f"{p['name']} ({len(p['items'])} items, {'public' if p['public'] else 'private'})", f"/playlists/{p['id']}",
                           id=f"playlist-{p['id']}") for p in mine)
        visibility = (Option("private", "Private"), Option("public", "Public"))
        return self.page(ctx, "Playlists", [
            Heading("Your playlists", id="playlists-title"),
            ListBlock(links, id="playlists") if links else Text("You have no playlists yet.", id="playlists-empty"),
            Heading("New playlist", level=2, id="new-playlist-title"),
            Form("/playlists", (Input("name", label="Name", id="new-playlist-name"),
                                Select("visibility", visibility, label="Visibility", value="private", id="new-playlist-visibility"),
                                Button("Create playlist", id="new-playlist-submit")), id="new-playlist-form")])

    @staticmethod
    def _visibility(ctx: Ctx, default: str) -> bool:
        value = ctx.field("visibility", required=False, default=default, limit=10) or default
        if value not in ("private", "public"):
            raise HttpError(400, f"visibility is private or public, got {value!r}")
        return value == "public"

    @route("POST", "/playlists")
    def create_playlist(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        name = ctx.field("name", limit=150).strip()
        public = self._visibility(ctx, "private")
        n, playlists = ctx.state["next_playlist"], ctx.state["playlists"]
        while str(n) in playlists:
            n += 1
        playlist = {"id": str(n), "owner": user, "name": name, "public": public, "items": []}
        ctx.state = {**ctx.state, "next_playlist": n + 1, "playlists": assoc(playlists, str(n), playlist)}
        return self._done(ctx, playlist, f"/playlists/{n}", 201)

    @route("GET", "/playlists/{id}")
    def playlist(self, ctx: Ctx) -> Any:
        p = self._playlist(ctx, ctx.params["id"])
        pid, own = p["id"], p["owner"] == ctx.user
        total = sum(ctx.state["items"][i]["duration_s"] for i in p["items"] if i in ctx.state["items"])
        body = [Heading(p["name"], id="playlist-title"),
                Text(f"By {p['owner']} · {'Public' if p['public'] else 'Private'} · {len(p['items'])} items · {duration(total)}",
                     id="playlist-info")]
        rows = []
        for n, item_id in enumerate(p["items"], 1):
            item = ctx.state["items"].get(item_id)
            if item is None:
                continue
            row: list = [Text(str(n), id=f"entry-{item_id}-position"), self._link(item, "entry")]
            if own:
                for action, label in (("up", "Move up"), ("down", "Move down")):
                    if (action == "up" and n > 1) or (action == "down" and n < len(p["items"])):
                        row.append(Form(f"/playlists/{pid}/move", (Input("item", type="hidden", value=item_id, id=f"entry-{item_id}-{action}-item"),
                                                                   Input("direction", type="hidden", value=action, id=f"entry-{item_id}-{action}-direction"),
                                                                   Button(label, id=f"entry-{item_id}-{action}")), id=f"entry-{item_id}-{action}-form"))
                    else:
                        row.append(Text("", id=f"entry-{item_id}-{action}-none"))
                row.append(Form(f"/playlists/{pid}/remove", (Input("item", type="hidden", value=item_id, id=f"entry-{item_id}-remove-item"),
                                                             Button("Remove", id=f"entry-{item_id}-remove")), id=f"entry-{item_id}-remove-form"))
            rows.append(tuple(row))
        headers = ("#", "Item", "", "", "") if own else ("#", "Item")
        body.append(Table(headers, tuple(rows), id="playlist-items") if rows else Text("This playlist is empty.", id="playlist-empty"))
        if own:
            visibility = (Option("private", "Private"), Option("public", "Public"))
            body += [Form(f"/playlists/{pid}/edit", (Input("name", label="Name", value=p["name"], id="edit-name"),
                                                     Select("visibility", visibility, label="Visibility",
                                                            value="public" if p["public"] else "private", id="edit-visibility"),
                                                     Button("Save", id="edit-submit")), id="edit-form"),
                     Form(f"/playlists/{pid}/delete", (Button("Delete playlist", id="delete-playlist"),), id="delete-form")]
        return self.page(ctx, p["name"], body)

    def _put_items(self, ctx: Ctx, p: dict, items: list[str]) -> Any:
        ctx.state = assoc_in(ctx.state, ["playlists", p["id"], "items"], items)
        return self._done(ctx, ctx.state["playlists"][p["id"]], f"/playlists/{p['id']}")

    @route("POST", "/playlists/add")
    def add_from_item(self, ctx: Ctx) -> Any:
        ctx.params = {"id": ctx.field("playlist", limit=64)}
        return self.add_item(ctx)

    @route("POST", "/playlists/{id}/add")
    def add_item(self, ctx: Ctx) -> Any:
        p = self._playlist(ctx, ctx.params["id"], owner_only=True)
        item = self._item(ctx, ctx.field("item", limit=64), 400)
        if item["id"] in p["items"]:
            raise HttpError(409, f"{item['title']!r} is already in {p['name']!r}")
        return self._put_items(ctx, p, [*p["items"], item["id"]])

    @route("POST", "/playlists/{id}/remove")
    def remove_item(self, ctx: Ctx) -> Any:
        p = self._playlist(ctx, ctx.params["id"], owner_only=True)
        item_id = ctx.field("item", limit=64)
        if item_id not in p["items"]:
            raise HttpError(404, f"{item_id!r} is not in {p['name']!r}")
        return self._put_items(ctx, p, [i for i in p["items"] if i != item_id])

    @route("POST", "/playlists/{id}/move")
    def move_item(self, ctx: Ctx) -> Any:
        p = self._playlist(ctx, ctx.params["id"], owner_only=True)
        item_id = ctx.field("item", limit=64)
        direction = ctx.field("direction", limit=10)
        if direction not in ("up", "down"):
            raise HttpError(400, f"direction is up or down, got {direction!r}")
        if item_id not in p["items"]:
            raise HttpError(404, f"{item_id!r} is not in {p['name']!r}")
        items = list(p["items"])  # a copy: the state's list is never changed in place
        at = items.index(item_id)
        to = at - 1 if direction == "up" else at + 1
        if not 0 <= to < len(items):
            raise HttpError(400, f"{item_id!r} is already at the {'top' if direction == 'up' else 'bottom'}")
        items[at], items[to] = items[to], items[at]
        return self._put_items(ctx, p, items)

    @route("POST", "/playlists/{id}/edit")
    def edit_playlist(self, ctx: Ctx) -> Any:
        p = self._playlist(ctx, ctx.params["id"], owner_only=True)
        name = ctx.field("name", required=False, limit=150).strip() or p["name"]
        public = self._visibility(ctx, "public" if p["public"] else "private")
        ctx.state = assoc_in(ctx.state, ["playlists", p["id"]], {**p, "name": name, "public": public})
        return self._done(ctx, ctx.state["playlists"][p["id"]], f"/playlists/{p['id']}")

    @route("POST", "/playlists/{id}/delete")
    def delete_playlist(self, ctx: Ctx) -> Any:
        p = self._playlist(ctx, ctx.params["id"], owner_only=True)
        ctx.state = assoc(ctx.state, "playlists", {k: v for k, v in ctx.state["playlists"].items() if k != p["id"]})
        return self._done(ctx, {"deleted": p["id"]}, "/playlists")

    # -- JSON API ------------------------------------------------------------------------
    @route("GET", "/api/items")
    def api_items(self, ctx: Ctx) -> Json:
        return Json({"items": [self._item_json(ctx, i) for i in self._find(ctx)]})

    @route("GET", "/api/items/{id}")
    def api_item(self, ctx: Ctx) -> Json:
        return Json(self._item_json(ctx, self._item(ctx, ctx.params["id"])))

    @route("POST", "/api/items/{id}/play")
    def api_play(self, ctx: Ctx) -> Any:
        return self.play(ctx)

    @route("POST", "/api/items/{id}/like")
    def api_like(self, ctx: Ctx) -> Any:
        return self.like(ctx)

    @route("POST", "/api/items/{id}/unlike")
    def api_unlike(self, ctx: Ctx) -> Any:
        return self.unlike(ctx)

    @route("GET", "/api/playlists")
    def api_playlists(self, ctx: Ctx) -> Json:
        return Json({"playlists": self._mine(ctx)})

    @route("POST", "/api/playlists")
    def api_create(self, ctx: Ctx) -> Any:
        return self.create_playlist(ctx)

    @route("GET", "/api/playlists/{id}")
    def api_playlist(self, ctx: Ctx) -> Json:
        return Json(self._playlist(ctx, ctx.params["id"]))

    @route("POST", "/api/playlists/{id}/add")
    def api_add(self, ctx: Ctx) -> Any:
        return self.add_item(ctx)

    @route("POST", "/api/playlists/{id}/remove")
    def api_remove(self, ctx: Ctx) -> Any:
        return self.remove_item(ctx)

    @route("POST", "/api/playlists/{id}/move")
    def api_move(self, ctx: Ctx) -> Any:
        return self.move_item(ctx)

    @route("GET", "/api/history")
    def api_history(self, ctx: Ctx) -> Json:
        return Json({"history": ctx.state["history"].get(ctx.require_user(), [])})

    @route("GET", "/api/subscriptions")
    def api_subscriptions(self, ctx: Ctx) -> Json:
        return Json({"subscriptions": ctx.state["subscriptions"].get(ctx.require_user(), [])})


SERVICE_KINDS.register(Media.name, Media())
