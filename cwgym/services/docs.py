"""``docs``: an online document editor, as Google Docs is — documents with a title and a
body, edited in the browser, with a revision history, sharing and comments.

A signed-in user sees the documents they own and the ones shared with them. The owner shares a
document with another account as a ``viewer`` (reads and comments) or an ``editor`` (also
edits); someone it is not shared with gets ``404`` (the document's existence is not
revealed), a viewer who tries to edit ``403``. Every save is a revision (who, when, the
title and body then); an old revision can be viewed and restored. Only the owner shares or
deletes.

Routes (pages; forms post ``application/x-www-form-urlencoded``):

============================================  ===============================================
``GET /``                                      the document list (owned, shared with me), a new-document form
``GET /new`` · ``POST /new``                   a new document (``title``, ``body``) → ``/d/{id}``
``GET /d/{id}``                                the document, its comments and (owner) sharing
``GET /d/{id}/edit`` · ``POST /d/{id}/edit``   edit ``title`` and ``body`` (``revision``: the one edited; a newer one is ``409``)
``GET /d/{id}/history``                        the revisions, newest first (author, time)
``GET /d/{id}/history/{n}``                    revision ``n`` as it was
``POST /d/{id}/history/{n}/restore``           make revision ``n`` the current text (a new revision)
``POST /d/{id}/share``                         owner: ``user``, ``role`` (``viewer``, ``editor`` or ``none`` to stop)
``POST /d/{id}/comments``                      add a comment (``text``)
``POST /d/{id}/comments/{c}/delete``           its author or the document's owner
``POST /d/{id}/delete``                        owner: delete the document
``GET /d/{id}/export.txt``                     the body as ``text/plain``
============================================  ===============================================

JSON API (``/api/...``, HTTP Basic or the ``sid`` cookie): ``GET /api/documents``,
``POST /api/documents`` ``{title, body?}`` (201), ``GET /api/documents/{id}``,
``PATCH /api/documents/{id}`` ``{title?, body?, revision?}``, ``DELETE /api/documents/{id}``,
``GET /api/documents/{id}/revisions``, ``GET /api/documents/{id}/revisions/{n}``,
``POST /api/documents/{id}/share`` ``{user, role}``, ``GET|POST /api/documents/{id}/comments``
``{text}``.

``initial_state``::

    {"users": [{"name", "password", "display"?, "email"?}],
     "documents"?: [{"title", "body"?, "owner", "shared"?: {user: "viewer" | "editor"}}]}

Documents get ids 1, 2, ... in order, and one revision by their owner at the world's epoch.
The built state keeps ``documents`` as ``{id: {id, title, body, owner, shared, created,
updated, revisions: [{n, title, body, author, at}], comments: [{id, author, text, at}]}}``
with the counters ``next_doc`` and ``next_comment``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from cwgym.net.http import Headers, Response
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
    next_id,
    route,
    timestamp,
)

ROLES = ("viewer", "editor")
TITLE_LIMIT = 200
BODY_LIMIT = 100_000
COMMENT_LIMIT = 5_000


class Docs(WebService):
    name = "docs"
    title = "Docs"
    fields: ClassVar[dict] = {"documents": (list, dict), "next_doc": int, "next_comment": int}

    # -- state ---------------------------------------------------------------------------
    def validate(self, state: dict, where: str, users: dict[str, dict], definition: Any = None) -> dict:
        raw = state.get("documents", [])
        documents: dict[str, dict] = {}
        if isinstance(raw, list):  # the initial_state form
            for i, doc in enumerate(raw):
                at = f"{where}.documents[{i}]"
                check_fields(doc, at, {"title": str, "body": str, "owner": str, "shared": dict}, ("title", "owner"))
                self._check_doc(doc, at, users)
                key = str(i + 1)
                at_time = timestamp(0)
                body = doc.get("body", "")
                documents[key] = {"id": i + 1, "title": doc["title"], "body": body, "owner": doc["owner"],
                                  "shared": dict(doc.get("shared", {})), "created": at_time, "updated": at_time,
                                  "revisions": [{"n": 1, "title": doc["title"], "body": body, "author": doc["owner"], "at": at_time}],
                                  "comments": []}
            next_doc, next_comment = len(raw) + 1, 1
        else:  # a state this kind built (a snapshot)
            for key, doc in raw.items():
                at = f"{where}.documents[{key!r}]"
                check_fields(doc, at, {"id": int, "title": str, "body": str, "owner": str, "shared": dict, "created": str,
                                       "updated": str, "revisions": list, "comments": list},
                             ("id", "title", "body", "owner", "shared", "created", "updated", "revisions", "comments"))
                if key != str(doc["id"]):
                    raise ValueError(f"{at}.id: {doc['id']} does not match its key")
                self._check_doc(doc, at, users)
                for n, rev in enumerate(doc["revisions"]):
                    check_fields(rev, f"{at}.revisions[{n}]", {"n": int, "title": str, "body": str, "author": str, "at": str},
                                 ("n", "title", "body", "author", "at"))
                for n, comment in enumerate(doc["comments"]):
                    check_fields(comment, f"{at}.comments[{n}]", {"id": int, "author": str, "text": str, "at": str},
                                 ("id", "author", "text", "at"))
                documents[key] = doc
            next_doc = state.get("next_doc", max((d["id"] for d in documents.values()), default=0) + 1)
            next_comment = state.get("next_comment", 1)
        return {"documents": documents, "next_doc": next_doc, "next_comment": next_comment}

    @staticmethod
    def _check_doc(doc: dict, at: str, users: dict[str, dict]) -> None:
        if doc["owner"] not in users:
            raise ValueError(f"{at}.owner: {doc['owner']!r} is not an account in users")
        if not doc["title"].strip() or len(doc["title"]) > TITLE_LIMIT:
            raise ValueError(f"{at}.title: a title is 1 to {TITLE_LIMIT} characters")
        for user, role in doc.get("shared", {}).items():
            if user not in users:
                raise ValueError(f"{at}.shared.{user}: not an account in users")
            if user == doc["owner"]:
                raise ValueError(f"{at}.shared.{user}: the owner is not shared their own document")
            if role not in ROLES:
                raise ValueError(f"{at}.shared.{user}: the role is 'viewer' or 'editor', got {role!r}")

    # -- access --------------------------------------------------------------------------
    @staticmethod
    def _role(doc: dict, user: str) -> str | None:
        if doc["owner"] == user:
            return "owner"
        return doc["shared"].get(user)

    def _doc(self, ctx: Ctx, write: bool = False) -> dict:
        """The document of the URL for the signed-in user: 404 unless it is theirs or shared
        with them, 403 when ``write`` and they only view it."""
        user = ctx.require_user()
        doc_id = ctx.params["id"]
        if not doc_id.isdigit():
            raise HttpError(400 if ctx.wants_json else 404, f"no document {doc_id!r}: ids are numbers")
        doc = ctx.state["documents"].get(str(int(doc_id)))
        if doc is None or self._role(doc, user) is None:
            raise HttpError(404, f"no document {doc_id}")
        if write and self._role(doc, user) == "viewer":
            raise HttpError(403, "you can view this document but not edit it; ask its owner for edit access")
        return doc

    def _visible(self, ctx: Ctx, user: str) -> tuple[list[dict], list[dict]]:
        docs = sorted(ctx.state["documents"].values(), key=lambda d: (d["updated"], d["id"]), reverse=True)
        return [d for d in docs if d["owner"] == user], [d for d in docs if user in d["shared"]]

    # -- changes ---------------------------------------------------------------------------
    def _create(self, ctx: Ctx, user: str) -> dict:
        title = self._title(ctx)
        body = ctx.field("body", required=False, limit=BODY_LIMIT)
        n, state = next_id(ctx.state, "next_doc")
        now = timestamp(ctx.now_us)
        doc = {"id": n, "title": title, "body": body, "owner": user, "shared": {}, "created": now, "updated": now,
               "revisions": [{"n": 1, "title": title, "body": body, "author": user, "at": now}], "comments": []}
        ctx.state = assoc_in(state, ["documents", str(n)], doc)
        return doc

    @staticmethod
    def _title(ctx: Ctx, default: str | None = None) -> str:
        if default is not None and ctx.form.get("title", ctx.query.get("title")) is None:
            return default
        title = ctx.field("title", limit=TITLE_LIMIT).strip()
        if "\n" in title or "\r" in title:
            raise HttpError(400, "a title is one line")
        return title

    def _save(self, ctx: Ctx, doc: dict, title: str, body: str) -> dict:
        if title == doc["title"] and body == doc["body"]:
            return doc  # nothing changed: no new revision
        now = timestamp(ctx.now_us)
        rev = {"n": len(doc["revisions"]) + 1, "title": title, "body": body, "author": ctx.user, "at": now}
        new = {**doc, "title": title, "body": body, "updated": now, "revisions": [*doc["revisions"], rev]}
        ctx.state = assoc_in(ctx.state, ["documents", str(doc["id"])], new)
        return new

    def _edit(self, ctx: Ctx) -> dict:
        doc = self._doc(ctx, write=True)
        base = ctx.field("revision", required=False)
        if base:
            if not base.isdigit():
                raise HttpError(400, "the field 'revision' is a revision number")
            if int(base) != len(doc["revisions"]):
                raise HttpError(409, f"the document changed since revision {base} (now at revision {len(doc['revisions'])}); "
                                     "reload it and edit again")
        title = self._title(ctx, default=doc["title"])
        body = doc["body"] if ctx.form.get("body", ctx.query.get("body")) is None else ctx.field("body", required=False, limit=BODY_LIMIT)
        return self._save(ctx, doc, title, body)

    def _share(self, ctx: Ctx) -> tuple[dict, str, str]:
        doc = self._doc(ctx)
        if doc["owner"] != ctx.user:
            raise HttpError(403, "only the owner shares this document")
        user = ctx.field("user", limit=64).strip()
        role = ctx.field("role", limit=16).strip()
        if role not in (*ROLES, "none"):
            raise HttpError(400, "the role is 'viewer', 'editor' or 'none' (stop sharing)")
        if user not in ctx.state["users"]:
            raise HttpError(404, f"no account named {user!r}")
        if user == doc["owner"]:
            raise HttpError(400, "you own this document already")
        shared = {u: r for u, r in doc["shared"].items() if u != user}
        if role != "none":
            shared = {**shared, user: role}
        ctx.state = assoc_in(ctx.state, ["documents", str(doc["id"]), "shared"], shared)
        return {**doc, "shared": shared}, user, role

    def _comment(self, ctx: Ctx) -> dict:
        doc = self._doc(ctx)
        text = ctx.field("text", limit=COMMENT_LIMIT).strip()
        n, state = next_id(ctx.state, "next_comment")
        comment = {"id": n, "author": ctx.user, "text": text, "at": timestamp(ctx.now_us)}
        ctx.state = assoc_in(state, ["documents", str(doc["id"]), "comments"], [*doc["comments"], comment])
        return comment

    def _delete(self, ctx: Ctx) -> dict:
        doc = self._doc(ctx)
        if doc["owner"] != ctx.user:
            raise HttpError(403, "only the owner deletes this document")
        key = str(doc["id"])
        ctx.state = {**ctx.state, "documents": {k: d for k, d in ctx.state["documents"].items() if k != key}}
        return doc

    @staticmethod
    def _revision(ctx: Ctx, doc: dict) -> dict:
        n = ctx.params["n"]
        if not n.isdigit() or not 1 <= int(n) <= len(doc["revisions"]):
            raise HttpError(404, f"no revision {n} of this document (it has {len(doc['revisions'])})")
        return doc["revisions"][int(n) - 1]

    # -- pages -----------------------------------------------------------------------------
    @route("GET", "/")
    def home(self, ctx: Ctx) -> Any:
        if ctx.user is None:
            return self.page(ctx, "Docs", [
                Heading("Docs", id="home-title"),
                Text("Write documents together: create, edit, share and comment.", id="home-intro"),
                Link("Sign in to see your documents", "/login", id="home-sign-in"),
            ])
        mine, shared = self._visible(ctx, ctx.user)
        return self.page(ctx, "Docs", [
            Heading("Documents", id="home-title"),
            Heading("My documents", level=2, id="mine-title"),
            self._table(mine, "mine", ctx) if mine else Text("You have no documents yet.", id="mine-empty"),
            Heading("Shared with me", level=2, id="shared-title"),
            self._table(shared, "shared", ctx) if shared else Text("Nothing is shared with you.", id="shared-empty"),
            Heading("New document", level=2, id="new-title"),
            self._new_form(),
        ])

    def _table(self, docs: list[dict], prefix: str, ctx: Ctx) -> Table:
        rows = tuple((Link(d["title"], f"/d/{d['id']}", id=f"{prefix}-doc-{d['id']}"),
                      Text(ctx.state["users"][d["owner"]]["display"], id=f"{prefix}-doc-{d['id']}-owner"),
                      Text(self._role(d, ctx.user) or "", id=f"{prefix}-doc-{d['id']}-role"),
                      Text(d["updated"], id=f"{prefix}-doc-{d['id']}-updated")) for d in docs)
        return Table(("Title", "Owner", "Access", "Last edited"), rows, id=f"{prefix}-documents")

    @staticmethod
    def _new_form() -> Form:
        return Form("/new", (Input("title", label="Title", required=True, id="new-doc-title"),
                             TextArea("body", label="Text", rows=12, id="new-doc-body"),
                             Button("Create", id="new-doc-create")), id="new-doc")

    @route("GET", "/new")
    def new_page(self, ctx: Ctx) -> Any:
        ctx.require_user()
        return self.page(ctx, "New document", [Heading("New document", id="new-title"), self._new_form()])

    @route("POST", "/new")
    def new(self, ctx: Ctx) -> Any:
        doc = self._create(ctx, ctx.require_user())
        return Redirect(f"/d/{doc['id']}")

    @route("GET", "/d/{id}")
    def view(self, ctx: Ctx) -> Any:
        doc = self._doc(ctx)
        role = self._role(doc, ctx.user)
        users = ctx.state["users"]
        d = doc["id"]
        body: list = [
            Heading(doc["title"], id="doc-title"),
            Text(f"Owner: {users[doc['owner']]['display']} · your access: {role} · "
                 f"last edited {doc['updated']} (revision {len(doc['revisions'])})", id="doc-meta"),
            Text(doc["body"], id="doc-body"),
        ]
        links = [Link("Version history", f"/d/{d}/history", id="doc-history"),
                 Link("Download as plain text", f"/d/{d}/export.txt", id="doc-export")]
        if role != "viewer":
            links.insert(0, Link("Edit", f"/d/{d}/edit", id="doc-edit"))
        body.append(ListBlock(tuple(links), id="doc-actions"))
        body.append(Heading("Comments", level=2, id="comments-title"))
        if doc["comments"]:
            items = []
            for c in doc["comments"]:
                items.append(Text(f"{users[c['author']]['display']} ({c['at']}): {c['text']}", id=f"comment-{c['id']}"))
                if ctx.user in (c["author"], doc["owner"]):
                    items.append(Form(f"/d/{d}/comments/{c['id']}/delete", (Button("Delete comment", id=f"comment-{c['id']}-delete"),),
                                      id=f"comment-{c['id']}-delete-form"))
            body.append(ListBlock(tuple(items), id="comments"))
        else:
            body.append(Text("No comments yet.", id="comments-empty"))
        body.append(Form(f"/d/{d}/comments", (TextArea("text", label="Add a comment", rows=3, id="comment-text"),
                                              Button("Comment", id="comment-submit")), id="comment-form"))
        if role == "owner":
            body.append(Heading("Sharing", level=2, id="sharing-title"))
            people = tuple(Text(f"{users[u]['display']} ({u}): {r}", id=f"share-{u}") for u, r in sorted(doc["shared"].items()))
            body.append(ListBlock(people, id="shared-with") if people else Text("Only you can see this document.", id="shared-none"))
            body.append(Form(f"/d/{d}/share", (
                Input("user", label="Share with (user name)", required=True, id="share-user"),
                Select("role", (Option("viewer", "Viewer"), Option("editor", "Editor"), Option("none", "Remove access")),
                       label="Access", value="viewer", id="share-role"),
                Button("Share", id="share-submit")), id="share-form"))
            body.append(Form(f"/d/{d}/delete", (Button("Delete document", id="doc-delete"),), id="delete-form"))
        body.append(Link("All documents", "/", id="back-home"))
        return self.page(ctx, doc["title"], body)

    @route("GET", "/d/{id}/edit")
    def edit_page(self, ctx: Ctx) -> Any:
        doc = self._doc(ctx, write=True)
        return self.page(ctx, f"Edit {doc['title']}", [
            Heading(f"Editing: {doc['title']}", id="edit-heading"),
            Form(f"/d/{doc['id']}/edit", (
                Input("title", label="Title", value=doc["title"], required=True, id="edit-title"),
                TextArea("body", label="Text", value=doc["body"], rows=20, id="edit-body"),
                Input("revision", type="hidden", value=str(len(doc["revisions"])), id="edit-revision"),
                Button("Save", id="edit-save")), id="edit-form"),
            Link("Cancel", f"/d/{doc['id']}", id="edit-cancel"),
        ])

    @route("POST", "/d/{id}/edit")
    def edit(self, ctx: Ctx) -> Any:
        doc = self._edit(ctx)
        return Redirect(f"/d/{doc['id']}")

    @route("GET", "/d/{id}/history")
    def history(self, ctx: Ctx) -> Any:
        doc = self._doc(ctx)
        users = ctx.state["users"]
        rows = tuple((Link(f"Revision {r['n']}", f"/d/{doc['id']}/history/{r['n']}", id=f"revision-{r['n']}"),
                      Text(users[r["author"]]["display"] if r["author"] in users else r["author"], id=f"revision-{r['n']}-author"),
                      Text(r["at"], id=f"revision-{r['n']}-at"),
                      Text(r["title"], id=f"revision-{r['n']}-title")) for r in reversed(doc["revisions"]))
        return self.page(ctx, f"History of {doc['title']}", [
            Heading(f"Version history: {doc['title']}", id="history-title"),
            Table(("Revision", "Author", "Time", "Title"), rows, id="revisions"),
            Link("Back to the document", f"/d/{doc['id']}", id="history-back"),
        ])

    @route("GET", "/d/{id}/history/{n}")
    def revision_page(self, ctx: Ctx) -> Any:
        doc = self._doc(ctx)
        rev = self._revision(ctx, doc)
        body = [Heading(rev["title"], id="revision-title"),
                Text(f"Revision {rev['n']} of {len(doc['revisions'])}, by {rev['author']} at {rev['at']}", id="revision-meta"),
                Text(rev["body"], id="revision-body")]
        if self._role(doc, ctx.user) != "viewer" and rev["n"] != len(doc["revisions"]):
            body.append(Form(f"/d/{doc['id']}/history/{rev['n']}/restore", (Button("Restore this version", id="revision-restore"),),
                             id="restore-form"))
        body.append(Link("Version history", f"/d/{doc['id']}/history", id="revision-back"))
        return self.page(ctx, f"{doc['title']} (revision {rev['n']})", body)

    @route("POST", "/d/{id}/history/{n}/restore")
    def restore(self, ctx: Ctx) -> Any:
        doc = self._doc(ctx, write=True)
        rev = self._revision(ctx, doc)
        self._save(ctx, doc, rev["title"], rev["body"])
        return Redirect(f"/d/{doc['id']}")

    @route("POST", "/d/{id}/share")
    def share(self, ctx: Ctx) -> Any:
        doc, _, _ = self._share(ctx)
        return Redirect(f"/d/{doc['id']}")

    @route("POST", "/d/{id}/comments")
    def comment(self, ctx: Ctx) -> Any:
        self._comment(ctx)
        return Redirect(f"/d/{ctx.params['id']}")

    @route("POST", "/d/{id}/comments/{c}/delete")
    def delete_comment(self, ctx: Ctx) -> Any:
        doc = self._doc(ctx)
        c = ctx.params["c"]
        comment = next((x for x in doc["comments"] if str(x["id"]) == c), None)
        if comment is None:
            raise HttpError(404, f"no comment {c} on this document")
        if ctx.user not in (comment["author"], doc["owner"]):
            raise HttpError(403, "only the comment's author or the document's owner deletes it")
        ctx.state = assoc_in(ctx.state, ["documents", str(doc["id"]), "comments"], [x for x in doc["comments"] if x is not comment])
        return Redirect(f"/d/{doc['id']}")

    @route("POST", "/d/{id}/delete")
    def delete(self, ctx: Ctx) -> Any:
        self._delete(ctx)
        return Redirect("/")

    @route("GET", "/d/{id}/export.txt")
    def export(self, ctx: Ctx) -> Any:
        doc = self._doc(ctx)
        body = doc["body"].encode("utf-8")
        name = "".join(ch if ch.isalnum() or ch in " ._-" else "_" for ch in doc["title"]).strip() or "document"
        return Response(200, Headers((("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body))),
                                      ("Content-Disposition", f'attachment; filename="{name}.txt"'))), body)

    # -- JSON API ----------------------------------------------------------------------------
    def _summary(self, doc: dict, user: str) -> dict:
        return {"id": doc["id"], "title": doc["title"], "owner": doc["owner"], "role": self._role(doc, user),
                "updated": doc["updated"], "revision": len(doc["revisions"])}

    def _full(self, doc: dict, user: str) -> dict:
        full = {**self._summary(doc, user), "body": doc["body"], "created": doc["created"], "comments": doc["comments"]}
        if doc["owner"] == user:
            full["shared"] = doc["shared"]
        return full

    @route("GET", "/api/documents")
    def api_list(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        mine, shared = self._visible(ctx, user)
        return Json({"documents": [self._summary(d, user) for d in mine + shared]})

    @route("POST", "/api/documents")
    def api_create(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        return Json(self._full(self._create(ctx, user), user), 201)

    @route("GET", "/api/documents/{id}")
    def api_get(self, ctx: Ctx) -> Any:
        return Json(self._full(self._doc(ctx), ctx.user))

    @route("PATCH", "/api/documents/{id}")
    def api_edit(self, ctx: Ctx) -> Any:
        return Json(self._full(self._edit(ctx), ctx.user))

    @route("DELETE", "/api/documents/{id}")
    def api_delete(self, ctx: Ctx) -> Any:
        doc = self._delete(ctx)
        return Json({"deleted": doc["id"]})

    @route("GET", "/api/documents/{id}/revisions")
    def api_revisions(self, ctx: Ctx) -> Any:
        doc = self._doc(ctx)
        return Json({"revisions": [{"n": r["n"], "author": r["author"], "at": r["at"], "title": r["title"]} for r in doc["revisions"]]})

    @route("GET", "/api/documents/{id}/revisions/{n}")
    def api_revision(self, ctx: Ctx) -> Any:
        return Json(self._revision(ctx, self._doc(ctx)))

    @route("POST", "/api/documents/{id}/share")
    def api_share(self, ctx: Ctx) -> Any:
        doc, _, _ = self._share(ctx)
        return Json({"id": doc["id"], "shared": doc["shared"]})

    @route("GET", "/api/documents/{id}/comments")
    def api_comments(self, ctx: Ctx) -> Any:
        return Json({"comments": self._doc(ctx)["comments"]})

    @route("POST", "/api/documents/{id}/comments")
    def api_comment(self, ctx: Ctx) -> Any:
        return Json(self._comment(ctx), 201)


SERVICE_KINDS.register(Docs.name, Docs())
