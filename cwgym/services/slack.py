"""``slack``: a Slack-like app — workspaces, each with public and private channels, threads,
@mentions, direct messages and search. The model and the team pages come from
:mod:`cwgym.services._chat_engine`; this kind adds workspaces: a team lives under
``/w/{workspace}``, and every account may open every workspace.

Routes (all but ``/`` and a workspace's ``/w/{workspace}`` need a signed-in user):

====== ========================================== ===========================================
GET    ``/``                                      your workspaces; the create-workspace form
POST   ``/workspaces``                            create one: ``name`` (lower-case, '-', '_')
GET    ``/w/{workspace}``                         your channels and direct messages there
GET    ``/w/{workspace}/channels``                browse channels; the create-channel form
POST   ``/w/{workspace}/channels``                create: ``name``, ``private`` (checkbox), ``topic``
GET    ``/w/{workspace}/c/{channel}``             messages in order, with author and time
POST   ``/w/{workspace}/c/{channel}``             post ``text`` (members only: ``403`` otherwise)
POST   ``/w/{workspace}/c/{channel}/join``        join a public channel (``/leave``, ``/invite`` with ``user``)
GET    ``/w/{workspace}/c/{channel}/t/{id}``      a thread; ``POST`` replies with ``text``
GET    ``/w/{workspace}/c/{channel}/m/{id}/edit`` edit form; ``POST`` saves (only your own: ``403``)
POST   ``/w/{workspace}/c/{channel}/m/{id}/delete`` delete your own message
GET    ``/w/{workspace}/dm/{user}``               direct messages (``POST``, ``/t/``, ``/m/`` as above)
GET    ``/w/{workspace}/people``                  everyone, to message
GET    ``/w/{workspace}/mentions``                messages that mention you
GET    ``/w/{workspace}/search?q=``               search what you can see (``from:@user``, ``in:#channel``)
====== ========================================== ===========================================

JSON API: ``GET /api/workspaces``, ``GET /api/w/{workspace}/channels``, ``GET
/api/w/{workspace}/channels/{channel}/messages``, ``POST
/api/w/{workspace}/channels/{channel}/messages`` with ``{"text", "thread"?: id}`` (``201``).

``initial_state``::

    {"users": [{name, password, display?}],
     "brand"?: "Slack",
     "workspaces"?: [{"name",
                      "channels"?: [{"name", "private"?, "topic"?, "members"?: [user] (default: everyone),
                                     "messages"?: [{"author", "text", "at_us"?, "id"?, "edited"?,
                                                    "thread"?: [{"author", "text", "at_us"?}]}]}],
                      "dms"?: [{"members": [a, b], "messages"?: [...]}]}],
     "next_message"?: int}

Workspaces, channels and direct conversations are stored as objects keyed by name; message ids
are unique across the service.
"""

from __future__ import annotations

from typing import Any, ClassVar

from cwgym.net.services import SERVICE_KINDS
from cwgym.protocol.page import Button, Form, Heading, Input, Link, ListBlock, Page, Text
from cwgym.services._chat_engine import CHANNEL_NAME, ChatEngine, MessageIds
from cwgym.services.framework import Ctx, HttpError, Json, Redirect, assoc_in, check_fields, route


class Slack(ChatEngine):
    name = "slack"
    title = "Slack"
    prefix = "/w/{workspace}"
    fields: ClassVar[dict[str, Any]] = {"brand": str, "workspaces": (list, dict), "next_message": int}

    def validate(self, state: dict, where: str, users: dict[str, dict], definition: Any = None) -> dict:
        brand = self.check_brand(state, where)
        raw = state.get("workspaces", [])
        if isinstance(raw, dict):
            raw = [{"name": n, **w} if isinstance(w, dict) else w for n, w in raw.items()]
        ids = MessageIds()
        workspaces: dict[str, dict] = {}
        for i, workspace in enumerate(raw):
            at = f"{where}.workspaces[{i}]"
            check_fields(workspace, at, {"name": str, "channels": (list, dict), "dms": (list, dict)}, ("name",))
            name = workspace["name"]
            if not CHANNEL_NAME.match(name):
                raise ValueError(f"{at}.name: {name!r} is not a workspace name (lower-case letters, digits, '-', '_')")
            if name in workspaces:
                raise ValueError(f"{at}.name: the workspace {name!r} is listed twice")
            workspaces[name] = self.check_space(workspace, at, users, ids)
        return {"brand": brand, "workspaces": workspaces, "next_message": ids.settle(state.get("next_message", 1))}

    def space_path(self, ctx: Ctx) -> tuple[str, ...]:
        name = ctx.params["workspace"]
        if name not in ctx.state["workspaces"]:
            raise HttpError(404, f"no workspace named {name!r}")
        return ("workspaces", name)

    def base(self, ctx: Ctx) -> str:
        return f"/w/{ctx.params['workspace']}"

    def team_name(self, ctx: Ctx) -> str:
        return ctx.params["workspace"]

    @route("GET", "/")
    def workspaces(self, ctx: Ctx) -> Page:
        """The workspaces, and the form to create one."""
        brand = ctx.state["brand"]
        body = [Heading(brand, id="workspaces-title")]
        if ctx.user is None:
            body += [Text("Sign in to open your workspaces.", id="welcome"),
                     Link("Sign in", "/login", id="welcome-sign-in")]
            return self.page(ctx, brand, body)
        names = sorted(ctx.state["workspaces"])
        body.append(Heading("Your workspaces", level=2, id="your-workspaces"))
        body.append(ListBlock(tuple(Link(n, f"/w/{n}", id=f"workspace-{n}") for n in names), id="workspaces")
                    if names else Text("No workspaces yet.", id="no-workspaces"))
        body += [Heading("Create a workspace", level=2, id="create-workspace-title"),
                 Form("/workspaces", (Input("name", label="Workspace name", placeholder="e.g. acme", id="create-workspace-name"),
                                      Button("Create workspace", id="create-workspace-submit")), id="create-workspace")]
        return self.page(ctx, brand, body)

    @route("POST", "/workspaces")
    def create_workspace(self, ctx: Ctx) -> Any:
        """Create a workspace (empty: no channels yet)."""
        ctx.require_user()
        raw = ctx.field("name", limit=200)
        name = "-".join(raw.strip().lower().split())
        if not CHANNEL_NAME.match(name):
            raise HttpError(400, f"{raw!r} is not a workspace name: up to 80 lower-case letters, digits, '-' and '_'")
        if name in ctx.state["workspaces"]:
            raise HttpError(409, f"a workspace named {name!r} exists already")
        ctx.state = assoc_in(ctx.state, ["workspaces", name], {"channels": {}, "dms": {}})
        return Json({"workspace": name}, 201) if ctx.wants_json else Redirect(f"/w/{name}")

    @route("GET", "/api/workspaces")
    def api_workspaces(self, ctx: Ctx) -> Json:
        """The workspaces' names."""
        ctx.require_user()
        return Json({"workspaces": sorted(ctx.state["workspaces"])})


SERVICE_KINDS.register(Slack.name, Slack())
