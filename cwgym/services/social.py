"""``social``: a social network in the manner of Twitter and Mastodon.

Users post short texts (500 characters at most), reply to posts, like and unlike them,
follow and unfollow each other and keep a bio. A signed-in user's home is their feed: their
own posts and those of the people they follow, newest first; an anonymous visitor sees the
public timeline of everyone's posts. ``#hashtags`` in a post link to ``/tags/{tag}`` and
``@names`` of users to their profiles. Authors delete their own posts (``403`` for anyone
else); a reply to a deleted post stays, "replying to a deleted post". Which posts a user
liked is visible to that user only (as on Twitter); how many likes a post has, everyone sees.

Routes (pages; a form ``POST`` answers ``303`` to the page it changed, or JSON to a JSON
client):

===================================  =====================================================
``GET /``                            the home feed (signed in) or the public timeline
``GET /public``                      the public timeline: every post, newest first
``POST /posts``                      post (``text``; ``reply_to``: a post id, optional)
``GET /posts/{id}``                  a post with what it replies to, its replies and a reply form
``POST /posts/{id}/reply``           reply (``text``)
``POST /posts/{id}/like``, ``/unlike``  like or unlike (once per user)
``POST /posts/{id}/delete``          delete own post
``GET /@{user}``                     profile: bio, following/followers/posts counts, posts
``GET /@{user}/followers``, ``/following``  who follows them, whom they follow
``GET /@{user}/likes``               the posts they liked (that user only)
``POST /@{user}/follow``, ``/unfollow``  follow or unfollow
``GET|POST /settings/profile``       edit own display name and bio (``display``, ``bio``)
``GET /tags/{tag}``                  posts with ``#tag``
``GET /search?q=``                   users and posts matching ``q`` (``#tag`` searches a tag)
===================================  =====================================================

JSON API: ``GET /api/timeline`` (home feed, signed in), ``GET /api/public``, ``POST
/api/posts``, ``GET /api/posts/{id}`` (with its replies), ``DELETE /api/posts/{id}``,
``POST /api/posts/{id}/like``, ``/unlike``, ``GET /api/users/{user}`` (profile and posts),
``GET /api/users/{user}/followers``, ``/following``, ``POST /api/users/{user}/follow``,
``/unfollow``, ``GET /api/tags/{tag}``, ``GET /api/search?q=``.

``initial_state``::

    {"users": [{name, password, display?}],
     "profiles"?: {user: {"bio"?}},
     "posts"?: [{"author", "text", "at_us"?, "likes"?: [user], "reply_to"?: number of an earlier post}],
     "follows"?: [[follower, followed]]}

Posts are numbered from 1 in the order listed; ``at_us`` (default 0) is the logical time
they were posted (ties go to the later number). The state a service keeps (and its
snapshots carry) has ``posts`` as an object by id; :meth:`Social.validate` accepts it too.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from cwgym.net.services import SERVICE_KINDS
from cwgym.protocol.page import Button, Element, Form, Heading, Input, Link, Text, TextArea
from cwgym.services._search_index import clip, page_entry
from cwgym.services.framework import (
    Ctx,
    HttpError,
    Json,
    Redirect,
    WebService,
    assoc_in,
    check_fields,
    route,
    timestamp,
)

__all__ = ["Social"]

POST_LIMIT = 500
BIO_LIMIT = 160
FEED_LIMIT = 100
HASHTAG = re.compile(r"(?<![\w#])#([A-Za-z0-9_]{1,64})")
MENTION = re.compile(r"(?<![\w@])@([A-Za-z0-9._-]{1,64})")
TAG = re.compile(r"^[A-Za-z0-9_]{1,64}$")


def tags_of(text: str) -> list[str]:
    """The hashtags of a post, lower-cased, each once, in order of appearance."""
    return list(dict.fromkeys(t.lower() for t in HASHTAG.findall(text)))


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _n(count: int, word: str, plural: str = "") -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


# -- initial_state ------------------------------------------------------------------------------


def _profiles(value: Any, where: str, users: dict) -> dict:
    if not isinstance(value, dict):
        raise ValueError(f"{where}: an object of user: {{bio}}, got {type(value).__name__}")
    out = {}
    for name, profile in value.items():
        if name not in users:
            raise ValueError(f"{where}.{name}: no user named {name!r}")
        check_fields(profile, f"{where}.{name}", {"bio": str})
        if len(profile.get("bio", "")) > BIO_LIMIT:
            raise ValueError(f"{where}.{name}.bio: longer than {BIO_LIMIT} characters")
        out[name] = {"bio": profile.get("bio", "")}
    return out


def _follows(value: Any, where: str, users: dict) -> list:
    if not isinstance(value, list):
        raise ValueError(f"{where}: a list of [follower, followed] pairs, got {type(value).__name__}")
    seen = set()
    for i, pair in enumerate(value):
        at = f"{where}[{i}]"
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            raise ValueError(f"{at}: a pair [follower, followed] of user names")
        for j, name in enumerate(pair):
            if name not in users:
                raise ValueError(f"{at}[{j}]: no user named {name!r}")
        if pair[0] == pair[1]:
            raise ValueError(f"{at}: {pair[0]!r} cannot follow themselves")
        if tuple(pair) in seen:
            raise ValueError(f"{at}: {pair[0]!r} already follows {pair[1]!r}")
        seen.add(tuple(pair))
    return sorted([list(p) for p in seen])


def _likes(value: Any, where: str, users: dict) -> list:
    if not isinstance(value, list):
        raise ValueError(f"{where}: a list of user names, got {type(value).__name__}")
    for i, name in enumerate(value):
        if name not in users:
            raise ValueError(f"{where}[{i}]: no user named {name!r}")
        if name in value[:i]:
            raise ValueError(f"{where}[{i}]: {name!r} likes a post once")
    return sorted(value)


def _post_text(text: str, where: str) -> str:
    if not text.strip():
        raise ValueError(f"{where}: empty")
    if len(text) > POST_LIMIT:
        raise ValueError(f"{where}: longer than {POST_LIMIT} characters")
    return text


def _build_posts(value: list, where: str, users: dict) -> dict:
    posts: dict[str, dict] = {}
    for i, post in enumerate(value):
        at = f"{where}[{i}]"
        check_fields(post, at, {"author": str, "text": str, "at_us": int, "likes": list, "reply_to": int}, ("author", "text"))
        if post["author"] not in users:
            raise ValueError(f"{at}.author: no user named {post['author']!r}")
        reply_to = post.get("reply_to")
        if reply_to is not None and not 1 <= reply_to <= i:
            raise ValueError(f"{at}.reply_to: the number of an earlier post (1 to {i})" if i else f"{at}.reply_to: the first post replies to none")
        pid = i + 1
        posts[str(pid)] = {"id": pid, "author": post["author"], "text": _post_text(post["text"], f"{at}.text"),
                           "at_us": post.get("at_us", 0), "likes": _likes(post.get("likes", []), f"{at}.likes", users),
                           "reply_to": reply_to}
    return posts


def _check_posts(value: dict, where: str, users: dict, next_post: int) -> dict:
    for key, post in value.items():
        at = f"{where}[{key!r}]"
        check_fields(post, at, {"id": int, "author": str, "text": str, "at_us": int, "likes": list,
                                "reply_to": (int, type(None))}, ("id", "author", "text", "at_us", "likes", "reply_to"))
        if key != str(post["id"]) or not 1 <= post["id"] < next_post:
            raise ValueError(f"{at}.id: {post['id']} under the key {key!r} (ids below next_post {next_post})")
        if post["author"] not in users:
            raise ValueError(f"{at}.author: no user named {post['author']!r}")
        _post_text(post["text"], f"{at}.text")
        if _likes(post["likes"], f"{at}.likes", users) != post["likes"]:
            raise ValueError(f"{at}.likes: sorted by name")
    return value


class Social(WebService):
    """Posts, replies, likes, follows and profiles; see the module docstring."""

    name = "social"
    title = "Social"
    fields: ClassVar[dict] = {"profiles": dict, "posts": (list, dict), "follows": list, "next_post": int}

    def validate(self, state: dict, where: str, users: dict[str, dict], definition: Any = None) -> dict:
        profiles = _profiles(state.get("profiles", {}), f"{where}.profiles", users)
        follows = _follows(state.get("follows", []), f"{where}.follows", users)
        posts = state.get("posts", [])
        if isinstance(posts, list):
            if "next_post" in state:
                raise ValueError(f"{where}.next_post: only a saved state has it (its posts are an object by id)")
            built = _build_posts(posts, f"{where}.posts", users)
            next_post = len(built) + 1
        else:
            if "next_post" not in state:
                raise ValueError(f"{where}.posts: a list of {{author, text, at_us?, likes?, reply_to?}}")
            next_post = state["next_post"]
            built = _check_posts(posts, f"{where}.posts", users, next_post)
        return {"profiles": profiles, "posts": built, "follows": follows, "next_post": next_post}

    def public_pages(self, state: dict, base: str) -> list[dict]:
        """Every profile (``/@<user>``, by name; the snippet is the bio), then every post
        (``/posts/<id>``, by number; its hashtags are keywords): an anonymous visitor reads
        the public timeline, profiles and posts."""
        out = [page_entry(f"{self._display(state, user)} (@{user})", f"{base}/@{user}", state["profiles"].get(user, {}).get("bio", ""))
               for user in sorted(state["users"])]
        for post in sorted(state["posts"].values(), key=lambda p: p["id"]):
            out.append(page_entry(clip(f"@{post['author']}: {post['text']}", 80), f"{base}/posts/{post['id']}", post["text"],
                                  tags_of(post["text"])))
        return out

    # -- reading -------------------------------------------------------------------------
    @staticmethod
    def _following(state: dict, user: str) -> list[str]:
        return [b for a, b in state["follows"] if a == user]

    @staticmethod
    def _followers(state: dict, user: str) -> list[str]:
        return sorted(a for a, b in state["follows"] if b == user)

    @staticmethod
    def _newest(posts: Any) -> list[dict]:
        return sorted(posts, key=lambda p: (-p["at_us"], -p["id"]))

    def _feed(self, state: dict, user: str) -> list[dict]:
        authors = {user, *self._following(state, user)}
        return self._newest(p for p in state["posts"].values() if p["author"] in authors)[:FEED_LIMIT]

    def _public(self, state: dict) -> list[dict]:
        return self._newest(state["posts"].values())[:FEED_LIMIT]

    @staticmethod
    def _post(ctx: Ctx) -> dict:
        raw = ctx.params["id"]
        if not raw.isdigit():
            raise HttpError(400, f"a post number, not {raw!r}")
        post = ctx.state["posts"].get(str(int(raw)))
        if post is None:
            raise HttpError(404, f"no post {raw}")
        return post

    @staticmethod
    def _user(ctx: Ctx) -> str:
        name = ctx.params["user"]
        if name not in ctx.state["users"]:
            raise HttpError(404, f"no user @{name}")
        return name

    def _display(self, state: dict, user: str) -> str:
        return state["users"][user]["display"] if user in state["users"] else user

    def _reply_counts(self, state: dict) -> dict[int, int]:
        counts: dict[int, int] = {}
        for p in state["posts"].values():
            if p["reply_to"] is not None:
                counts[p["reply_to"]] = counts.get(p["reply_to"], 0) + 1
        return counts

    def _done(self, ctx: Ctx, url: str, data: Any, status: int = 200) -> Any:
        return Json(data, status) if ctx.wants_json else Redirect(url)

    # -- shapes --------------------------------------------------------------------------
    def _post_json(self, ctx: Ctx, post: dict, counts: dict[int, int] | None = None) -> dict:
        counts = self._reply_counts(ctx.state) if counts is None else counts
        out = {"id": post["id"], "author": post["author"], "display": self._display(ctx.state, post["author"]),
               "text": post["text"], "posted": timestamp(post["at_us"]), "at_us": post["at_us"], "likes": len(post["likes"]),
               "replies": counts.get(post["id"], 0), "reply_to": post["reply_to"], "tags": tags_of(post["text"]),
               "url": f"/posts/{post['id']}"}
        if ctx.user is not None:
            out["liked"] = ctx.user in post["likes"]
        return out

    def _post_elements(self, ctx: Ctx, post: dict, counts: dict[int, int], prefix: str = "post") -> list[Element]:
        pid = post["id"]
        at = f"{prefix}-{pid}"
        author = post["author"]
        out: list[Element] = [Link(f"{self._display(ctx.state, author)} @{author}", f"/@{author}", id=f"{at}-author")]
        if post["reply_to"] is not None:
            parent = ctx.state["posts"].get(str(post["reply_to"]))
            if parent is None:
                out.append(Text("Replying to a deleted post", id=f"{at}-replying"))
            else:
                out.append(Link(f"Replying to @{parent['author']}", f"/posts/{parent['id']}", id=f"{at}-replying"))
        out.append(Text(post["text"], id=at))
        out += [Link(f"#{tag}", f"/tags/{tag}", id=f"{at}-tag-{tag}") for tag in tags_of(post["text"])]
        mentioned = dict.fromkeys(m.rstrip(".") for m in MENTION.findall(post["text"]) if m.rstrip(".") in ctx.state["users"])
        out += [Link(f"@{m}", f"/@{m}", id=f"{at}-mention-{m}") for m in mentioned]
        likes, replies = len(post["likes"]), counts.get(pid, 0)
        out.append(Link(f"{timestamp(post['at_us'])} · {_n(likes, 'like')} · {_n(replies, 'reply', 'replies')}",
                        f"/posts/{pid}", id=f"{at}-link"))
        if ctx.user is not None:
            liked = ctx.user in post["likes"]
            verb = "unlike" if liked else "like"
            out.append(Form(f"/posts/{pid}/{verb}", (Input("next", type="hidden", value=ctx.request.url.path, id=f"{at}-{verb}-next"),
                                                     Button("Unlike" if liked else "Like", id=f"{at}-{verb}-button")),
                            id=f"{at}-{verb}"))
            if ctx.user == author:
                out.append(Form(f"/posts/{pid}/delete", (Button("Delete", id=f"{at}-delete-button"),), id=f"{at}-delete"))
        return out

    def _posts_elements(self, ctx: Ctx, posts: list[dict], empty: str, empty_id: str) -> list[Element]:
        if not posts:
            return [Text(empty, id=empty_id)]
        counts = self._reply_counts(ctx.state)
        out: list[Element] = []
        for post in posts:
            out += self._post_elements(ctx, post, counts)
        return out

    def _compose(self, reply_to: int | None = None) -> Form:
        prefix = "reply" if reply_to else "compose"
        action = f"/posts/{reply_to}/reply" if reply_to else "/posts"
        label = "Your reply" if reply_to else "What's happening?"
        return Form(action, (TextArea("text", label=label, rows=3, id=f"{prefix}-text"),
                             Button("Reply" if reply_to else "Post", id=f"{prefix}-submit")), id=f"{prefix}-form")

    def _nav(self, ctx: Ctx) -> list[Element]:
        out: list[Element] = [Link("Home", "/", id="nav-home"), Link("Public", "/public", id="nav-public"),
                              Form("/search", (Input("q", label="Search", type="search", id="nav-search-q"),
                                               Button("Search", id="nav-search-submit")), method="GET", id="nav-search")]
        if ctx.user is not None:
            out.insert(2, Link("Profile", f"/@{ctx.user}", id="nav-profile"))
        else:
            out.append(Link("Create an account", "/signup", id="nav-signup"))
        return out

    # -- timelines -----------------------------------------------------------------------
    @route("GET", "/")
    def home(self, ctx: Ctx) -> Any:
        if ctx.user is None:
            return self._public_page(ctx, "Social")
        body = [*self._nav(ctx), Heading("Home", id="home-title"), self._compose(),
                *self._posts_elements(ctx, self._feed(ctx.state, ctx.user),
                                      "Your feed is empty. Post something, or follow people from the public timeline.",
                                      "feed-empty")]
        return self.page(ctx, "Home", body)

    @route("GET", "/public")
    def public(self, ctx: Ctx) -> Any:
        return self._public_page(ctx, "Public timeline")

    def _public_page(self, ctx: Ctx, title: str) -> Any:
        body: list[Element] = [*self._nav(ctx), Heading("Public timeline", id="public-title")]
        if ctx.user is not None:
            body.append(self._compose())
        body += self._posts_elements(ctx, self._public(ctx.state), "No posts yet.", "public-empty")
        return self.page(ctx, title, body)

    @route("GET", "/api/timeline")
    def api_timeline(self, ctx: Ctx) -> Json:
        user = ctx.require_user()
        counts = self._reply_counts(ctx.state)
        return Json({"user": user, "posts": [self._post_json(ctx, p, counts) for p in self._feed(ctx.state, user)]})

    @route("GET", "/api/public")
    def api_public(self, ctx: Ctx) -> Json:
        counts = self._reply_counts(ctx.state)
        return Json({"posts": [self._post_json(ctx, p, counts) for p in self._public(ctx.state)]})

    # -- posts ---------------------------------------------------------------------------
    def _create(self, ctx: Ctx, reply_to: int | None) -> Any:
        user = ctx.require_user()
        text = ctx.field("text", limit=POST_LIMIT)
        pid = ctx.state["next_post"]
        post = {"id": pid, "author": user, "text": text, "at_us": ctx.now_us, "likes": [], "reply_to": reply_to}
        ctx.state = {**assoc_in(ctx.state, ["posts", str(pid)], post), "next_post": pid + 1}
        return self._done(ctx, f"/posts/{pid}", self._post_json(ctx, post), 201)

    @route("POST", "/posts")
    @route("POST", "/api/posts")
    def create(self, ctx: Ctx) -> Any:
        raw = ctx.field("reply_to", required=False).strip()
        if not raw or raw == "null":
            return self._create(ctx, None)
        if not raw.isdigit():
            raise HttpError(400, f"the field 'reply_to' is a post number, not {raw!r}")
        if str(int(raw)) not in ctx.state["posts"]:
            raise HttpError(404, f"no post {raw} to reply to")
        return self._create(ctx, int(raw))

    @route("POST", "/posts/{id}/reply")
    @route("POST", "/api/posts/{id}/replies")
    def reply(self, ctx: Ctx) -> Any:
        return self._create(ctx, self._post(ctx)["id"])

    @route("GET", "/posts/{id}")
    def post_page(self, ctx: Ctx) -> Any:
        post = self._post(ctx)
        counts = self._reply_counts(ctx.state)
        body: list[Element] = self._nav(ctx)
        chain = []  # what it replies to, up to 20 posts back
        parent = ctx.state["posts"].get(str(post["reply_to"]))
        while parent is not None and len(chain) < 20:
            chain.insert(0, parent)
            parent = ctx.state["posts"].get(str(parent["reply_to"]))
        for above in chain:
            body += self._post_elements(ctx, above, counts, "context")
        body.append(Heading(f"Post by @{post['author']}", id="post-title"))
        body += self._post_elements(ctx, post, counts, "post")
        replies = sorted((p for p in ctx.state["posts"].values() if p["reply_to"] == post["id"]),
                         key=lambda p: (p["at_us"], p["id"]))
        body.append(Heading(_n(len(replies), "reply", "replies"), level=2, id="replies-title"))
        for reply in replies:
            body += self._post_elements(ctx, reply, counts, "reply")
        if ctx.user is None:
            body.append(Link("Sign in to reply", f"/login?next=/posts/{post['id']}", id="reply-sign-in"))
        else:
            body.append(self._compose(post["id"]))
        return self.page(ctx, f"@{post['author']}: {post['text'][:40]}", body)

    @route("GET", "/api/posts/{id}")
    def api_post(self, ctx: Ctx) -> Json:
        post = self._post(ctx)
        counts = self._reply_counts(ctx.state)
        replies = sorted((p for p in ctx.state["posts"].values() if p["reply_to"] == post["id"]),
                         key=lambda p: (p["at_us"], p["id"]))
        return Json({**self._post_json(ctx, post, counts), "thread": [self._post_json(ctx, r, counts) for r in replies]})

    @route("POST", "/posts/{id}/delete")
    @route("POST", "/api/posts/{id}/delete")
    @route("DELETE", "/api/posts/{id}")
    def delete(self, ctx: Ctx) -> Any:
        post = self._post(ctx)
        if ctx.require_user() != post["author"]:
            raise HttpError(403, f"only @{post['author']} may delete this post")
        ctx.state = {**ctx.state, "posts": {k: p for k, p in ctx.state["posts"].items() if p["id"] != post["id"]}}
        return self._done(ctx, f"/@{post['author']}", {"deleted": post["id"]})

    def _like(self, ctx: Ctx, on: bool) -> Any:
        post = self._post(ctx)
        user = ctx.require_user()
        others = [u for u in post["likes"] if u != user]
        likes = sorted([*others, user]) if on else others
        if likes != post["likes"]:
            ctx.state = assoc_in(ctx.state, ["posts", str(post["id"]), "likes"], likes)
        back = ctx.form.get("next", "")
        return self._done(ctx, back if back.startswith("/") else f"/posts/{post['id']}",
                          {"id": post["id"], "likes": len(likes), "liked": on})

    @route("POST", "/posts/{id}/like")
    @route("POST", "/api/posts/{id}/like")
    def like(self, ctx: Ctx) -> Any:
        return self._like(ctx, True)

    @route("POST", "/posts/{id}/unlike")
    @route("POST", "/api/posts/{id}/unlike")
    def unlike(self, ctx: Ctx) -> Any:
        return self._like(ctx, False)

    # -- people --------------------------------------------------------------------------
    def _profile_json(self, ctx: Ctx, user: str) -> dict:
        state = ctx.state
        out = {"user": user, "display": self._display(state, user), "bio": state["profiles"].get(user, {}).get("bio", ""),
               "following": len(self._following(state, user)), "followers": len(self._followers(state, user)),
               "posts": sum(p["author"] == user for p in state["posts"].values()), "url": f"/@{user}"}
        if ctx.user is not None and ctx.user != user:
            out["you_follow"] = [ctx.user, user] in state["follows"]
            out["follows_you"] = [user, ctx.user] in state["follows"]
        return out

    @route("GET", "/@{user}")
    def profile(self, ctx: Ctx) -> Any:
        user = self._user(ctx)
        info = self._profile_json(ctx, user)
        body: list[Element] = [*self._nav(ctx), Heading(info["display"], id="profile-title"), Text(f"@{user}", id="profile-user")]
        if info["bio"]:
            body.append(Text(info["bio"], id="profile-bio"))
        body += [Link(f"{info['following']} Following", f"/@{user}/following", id="profile-following"),
                 Link(f"{_n(info['followers'], 'Follower')}", f"/@{user}/followers", id="profile-followers"),
                 Text(_n(info["posts"], "post"), id="profile-posts")]
        if info.get("follows_you"):
            body.append(Text("Follows you", id="profile-follows-you"))
        if ctx.user == user:
            body += [Link("Edit profile", "/settings/profile", id="profile-edit"), Link("Likes", f"/@{user}/likes", id="profile-likes")]
        elif ctx.user is not None:
            verb = "unfollow" if info["you_follow"] else "follow"
            body.append(Form(f"/@{user}/{verb}", (Button(verb.capitalize(), id=f"profile-{verb}-button"),), id=f"profile-{verb}"))
        posts = self._newest(p for p in ctx.state["posts"].values() if p["author"] == user)[:FEED_LIMIT]
        body.append(Heading("Posts", level=2, id="profile-posts-title"))
        body += self._posts_elements(ctx, posts, "No posts yet.", "profile-posts-empty")
        return self.page(ctx, f"{info['display']} (@{user})", body)

    @route("GET", "/api/users/{user}")
    def api_profile(self, ctx: Ctx) -> Json:
        user = self._user(ctx)
        counts = self._reply_counts(ctx.state)
        posts = self._newest(p for p in ctx.state["posts"].values() if p["author"] == user)[:FEED_LIMIT]
        return Json({**self._profile_json(ctx, user), "recent": [self._post_json(ctx, p, counts) for p in posts]})

    def _people(self, ctx: Ctx, which: str) -> tuple[str, list[str]]:
        user = self._user(ctx)
        people = self._followers(ctx.state, user) if which == "followers" else sorted(self._following(ctx.state, user))
        return user, people

    @route("GET", "/@{user}/followers")
    @route("GET", "/@{user}/following")
    def people(self, ctx: Ctx) -> Any:
        which = ctx.path.rstrip("/").rsplit("/", 1)[1]
        user, people = self._people(ctx, which)
        title = f"Followers of @{user}" if which == "followers" else f"@{user} follows"
        items = [Link(f"{self._display(ctx.state, p)} @{p}", f"/@{p}", id=f"{which}-{p}") for p in people]
        return self.page(ctx, title, [*self._nav(ctx), Heading(title, id="people-title"),
                                      *(items or [Text("Nobody yet.", id="people-empty")])])

    @route("GET", "/api/users/{user}/followers")
    @route("GET", "/api/users/{user}/following")
    def api_people(self, ctx: Ctx) -> Json:
        which = ctx.path.rstrip("/").rsplit("/", 1)[1]
        user, people = self._people(ctx, which)
        return Json({"user": user, which: people})

    def _follow(self, ctx: Ctx, on: bool) -> Any:
        target = self._user(ctx)
        user = ctx.require_user()
        if target == user:
            raise HttpError(400, "you cannot follow yourself")
        pair = [user, target]
        others = [p for p in ctx.state["follows"] if p != pair]
        follows = sorted([*others, pair]) if on else others
        if follows != ctx.state["follows"]:
            ctx.state = {**ctx.state, "follows": follows}
        return self._done(ctx, f"/@{target}", {"user": target, "you_follow": on,
                                               "followers": len(self._followers(ctx.state, target))})

    @route("POST", "/@{user}/follow")
    @route("POST", "/api/users/{user}/follow")
    def follow(self, ctx: Ctx) -> Any:
        return self._follow(ctx, True)

    @route("POST", "/@{user}/unfollow")
    @route("POST", "/api/users/{user}/unfollow")
    def unfollow(self, ctx: Ctx) -> Any:
        return self._follow(ctx, False)

    @route("GET", "/@{user}/likes")
    @route("GET", "/api/users/{user}/likes")
    def likes(self, ctx: Ctx) -> Any:
        user = self._user(ctx)
        if ctx.require_user() != user:
            raise HttpError(403, f"only @{user} sees which posts @{user} liked")
        posts = self._newest(p for p in ctx.state["posts"].values() if user in p["likes"])
        if ctx.wants_json:
            counts = self._reply_counts(ctx.state)
            return Json({"user": user, "posts": [self._post_json(ctx, p, counts) for p in posts]})
        return self.page(ctx, "Likes", [*self._nav(ctx), Heading("Posts you liked", id="likes-title"),
                                        *self._posts_elements(ctx, posts, "No likes yet.", "likes-empty")])

    @route("GET", "/settings/profile")
    def settings_form(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        return self.page(ctx, "Edit profile", [
            *self._nav(ctx), Heading("Edit profile", id="settings-title"),
            Form("/settings/profile", (
                Input("display", label="Display name", value=self._display(ctx.state, user), id="settings-display"),
                TextArea("bio", label="Bio", value=ctx.state["profiles"].get(user, {}).get("bio", ""), rows=3, id="settings-bio"),
                Button("Save", id="settings-submit")), id="settings-form"),
        ])

    @route("POST", "/settings/profile")
    @route("POST", "/api/profile")
    def settings(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        bio = ctx.field("bio", required=False, default=ctx.state["profiles"].get(user, {}).get("bio", ""), limit=BIO_LIMIT)
        display = ctx.field("display", required=False, default=self._display(ctx.state, user), limit=100).strip()
        if not display:
            raise HttpError(400, "the field 'display' may not be empty")
        state = assoc_in(ctx.state, ["profiles", user], {"bio": bio.strip()})
        ctx.state = assoc_in(state, ["users", user, "display"], display)
        return self._done(ctx, f"/@{user}", self._profile_json(ctx, user))

    # -- tags and search -----------------------------------------------------------------
    @staticmethod
    def _tag(ctx: Ctx) -> str:
        tag = ctx.params["tag"].lstrip("#")
        if not TAG.match(tag):
            raise HttpError(400, f"a hashtag is letters, digits and '_', not {tag!r}")
        return tag.lower()

    def _tagged(self, ctx: Ctx, tag: str) -> list[dict]:
        return self._newest(p for p in ctx.state["posts"].values() if tag in tags_of(p["text"]))[:FEED_LIMIT]

    @route("GET", "/tags/{tag}")
    def tag(self, ctx: Ctx) -> Any:
        tag = self._tag(ctx)
        posts = self._tagged(ctx, tag)
        return self.page(ctx, f"#{tag}", [*self._nav(ctx), Heading(f"#{tag}", id="tag-title"),
                                          Text(_n(len(posts), "post"), id="tag-count"),
                                          *self._posts_elements(ctx, posts, f"No posts with #{tag} yet.", "tag-empty")])

    @route("GET", "/api/tags/{tag}")
    def api_tag(self, ctx: Ctx) -> Json:
        tag = self._tag(ctx)
        counts = self._reply_counts(ctx.state)
        return Json({"tag": tag, "posts": [self._post_json(ctx, p, counts) for p in self._tagged(ctx, tag)]})

    def _search(self, ctx: Ctx) -> tuple[str, list[str], list[dict]]:
        q = ctx.field("q", required=False, limit=200).strip()
        if not q:
            return q, [], []
        if q.startswith("#"):
            ctx.params["tag"] = q
            return q, [], self._tagged(ctx, self._tag(ctx))
        needle = q.lower().lstrip("@")
        users = [name for name, account in sorted(ctx.state["users"].items())
                 if needle in name.lower() or needle in account["display"].lower()
                 or needle in ctx.state["profiles"].get(name, {}).get("bio", "").lower()]
        posts = self._newest(p for p in ctx.state["posts"].values() if q.lower() in p["text"].lower())[:FEED_LIMIT]
        return q, users, posts

    @route("GET", "/search")
    def search(self, ctx: Ctx) -> Any:
        q, users, posts = self._search(ctx)
        body: list[Element] = [*self._nav(ctx), Heading("Search", id="search-title"),
                               Form("/search", (Input("q", label="Search people and posts", value=q, type="search", id="search-q"),
                                                Button("Search", id="search-submit")), method="GET", id="search-form")]
        if q:
            body.append(Text(f"{_n(len(users), 'person', 'people')} and {_n(len(posts), 'post')} "
                             f"match {q!r}", id="search-summary"))
            body += [Link(f"{self._display(ctx.state, u)} @{u}", f"/@{u}", id=f"result-user-{u}") for u in users]
            counts = self._reply_counts(ctx.state)
            for post in posts:
                body += self._post_elements(ctx, post, counts, "result")
        return self.page(ctx, f"Search: {q}" if q else "Search", body)

    @route("GET", "/api/search")
    def api_search(self, ctx: Ctx) -> Json:
        q, users, posts = self._search(ctx)
        counts = self._reply_counts(ctx.state)
        return Json({"q": q, "users": [self._profile_json(ctx, u) for u in users],
                     "posts": [self._post_json(ctx, p, counts) for p in posts]})


SERVICE_KINDS.register(Social.name, Social())
