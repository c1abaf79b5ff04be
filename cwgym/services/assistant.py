"""``assistant``: a deterministic question-answering assistant (no language model).

It answers from the world's own search index: the ``search_entries`` of every service of
the world definition, the ``initial_state.entries`` of every ``search`` service, then its own
``initial_state.entries`` (see :mod:`cwgym.services._search_index`, whose ranking the
``search`` kind uses too). A question is cut to its terms without common words ("what",
"is", "the"...); the best matching entries make a templated answer quoting the top entry's
snippet, with up to three sources::

    I found 2 pages about "wifi password". The best match is "Guest Wi-Fi": The guest
    network is OfficeGuest, password sunflower42.

or ``I couldn't find anything about "x" in this world.``

Conversations: a signed-in user's questions and answers are kept, visible to that user only
(``GET /``, ``GET /messages/{n}``; another user's message is ``403``). An anonymous question
is answered on the spot and not kept (no conversation is shared between anonymous users).

Routes:

- ``GET /``: the chat: the conversation so far (signed in) and the question form.
- ``POST /ask`` (``question``): signed in, stored and back to ``/`` (``303``); anonymous,
  the answer page itself.
- ``GET /messages/{n}``: one question and its answer, with sources.
- ``POST /clear``: forget the signed-in user's conversation.
- ``POST /api/ask`` (JSON ``{question}`` or a form): ``{question, answer, sources: [{title,
  url, snippet}], id}`` (``id`` is null when not stored).
- ``GET /api/history``: the signed-in user's messages.

``initial_state``: ``{brand?: str, entries?: [{title, url, snippet?, keywords?}], users?}``;
a built state adds ``index``, ``conversations`` (``{user: [message id]}``), ``messages``
(``{"n": {id, user, question, answer, sources, at_us}}``) and ``next_id``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from cwgym.net.services import SERVICE_KINDS
from cwgym.protocol.page import Button, Form, Heading, Link, ListBlock, Text, TextArea
from cwgym.services._search_index import index_for, rank, terms
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

QUESTION_LIMIT = 1000
_WORDS = re.compile(r"[^\W_]+")
SOURCES = 3
#: words a question carries that say nothing about its subject
STOP_WORDS = frozenset(["a", "about", "an", "and", "are", "at", "be", "can", "could", "do", "does", "did", "for", "from", "has", "have", "how", "i", "in", "is", "it", "its", "me", "my", "of", "on", "or", "our", "please", "should", "tell", "the", "there", "this", "to", "was", "we", "what", "when", "where", "which", "who", "whom", "why", "will", "with", "would", "you", "your"])


def subject_terms(question: str) -> list[str]:
    """The question's terms without stop words (all of them when nothing else is left)."""
    every = terms(question)
    kept = [t for t in every if t not in STOP_WORDS]
    return kept or every


def answer(index: list[dict], question: str) -> tuple[str, list[dict]]:
    """``(answer text, sources)`` for ``question`` over ``index``: a pure function."""
    wanted = subject_terms(question)
    words = [w for w in _WORDS.findall(question.lower()) if w not in STOP_WORDS]
    topic = " ".join(dict.fromkeys(words)) or question.strip()
    found = rank(index, wanted)
    if not found:
        return f'I couldn\'t find anything about "{topic}" in this world.', []
    best = found[0][1]
    n = len(found)
    text = f'I found {n} {"page" if n == 1 else "pages"} about "{topic}". The best match is "{best["title"]}"'
    text += f": {best['snippet']}" if best["snippet"] else f" ({best['url']})."
    sources = [{"title": e["title"], "url": e["url"], "snippet": e["snippet"]} for _, e in found[:SOURCES]]
    return text, sources


class Assistant(WebService):
    name = "assistant"
    title = "Assistant"
    fields: ClassVar[dict] = {"brand": str, "entries": list, "index": list, "conversations": dict, "messages": dict, "next_id": int}

    def validate(self, state: dict, where: str, users: dict[str, dict], definition: Any = None) -> dict:
        own, index = index_for(state, where, definition, search_kinds_too=True)
        messages = {}
        for key, message in state.get("messages", {}).items():
            at = f"{where}.messages.{key}"
            check_fields(message, at, {"id": int, "user": str, "question": str, "answer": str, "sources": list, "at_us": int},
                         ("id", "user", "question", "answer", "sources", "at_us"))
            if key != str(message["id"]):
                raise ValueError(f"{at}.id: {message['id']} is not its key")
            if message["user"] not in users:
                raise ValueError(f"{at}.user: no such account {message['user']!r}")
            for k, source in enumerate(message["sources"]):
                check_fields(source, f"{at}.sources[{k}]", {"title": str, "url": str, "snippet": str}, ("title", "url", "snippet"))
            messages[key] = {**message, "sources": [dict(s) for s in message["sources"]]}
        conversations = {}
        for user, ids in state.get("conversations", {}).items():
            at = f"{where}.conversations.{user}"
            if not isinstance(ids, list) or not all(isinstance(i, int) and messages.get(str(i), {}).get("user") == user
                                                    for i in ids):
                raise ValueError(f"{at}: a list of ids of this user's messages")
            conversations[user] = list(ids)
        top = max((m["id"] for m in messages.values()), default=0)
        n = state.get("next_id", top + 1)
        if n <= top:
            raise ValueError(f"{where}.next_id: {n} is not above the last message id {top}")
        brand = state.get("brand", "Assistant")
        if not brand.strip():
            raise ValueError(f"{where}.brand: empty")
        return {"brand": brand, "entries": own, "index": index, "conversations": conversations, "messages": messages,
                "next_id": n}

    def page(self, ctx: Ctx, title: str, body: Any) -> Any:
        page = super().page(ctx, title, body)
        brand = ctx.state["brand"]
        return type(page)(title if title == brand else f"{title} — {brand}", (Link(brand, "/", id="brand"), *page.elements[1:]))

    # -- pages -------------------------------------------------------------------------
    @staticmethod
    def _form() -> Form:
        return Form("/ask", (TextArea("question", label="Ask a question", rows=2, id="question"),
                             Button("Ask", id="ask-submit")), id="ask-form")

    @staticmethod
    def _exchange(message: dict, key: str) -> list:
        out: list = [Text(f"You: {message['question']}", emphasis=True, id=f"{key}-question"),
                     Text(f"Assistant: {message['answer']}", id=f"{key}-answer")]
        if message["sources"]:
            out.append(ListBlock(tuple(Link(s["title"], s["url"], id=f"{key}-source-{k}")
                                       for k, s in enumerate(message["sources"], 1)), ordered=True, id=f"{key}-sources"))
        return out

    @route("GET", "/")
    def home(self, ctx: Ctx) -> Any:
        brand = ctx.state["brand"]
        body: list = [Heading(brand, id="chat-title")]
        if ctx.user is None:
            body.append(Text("Ask anything about this world. Sign in to keep your conversation.", id="chat-intro"))
        else:
            ids = ctx.state["conversations"].get(ctx.user, [])
            if not ids:
                body.append(Text("Ask anything about this world.", id="chat-intro"))
            for i in ids:
                message = ctx.state["messages"][str(i)]
                body += [*self._exchange(message, f"message-{i}"),
                         Link(timestamp(message["at_us"]), f"/messages/{i}", id=f"message-{i}-link")]
            if ids:
                body.append(Form("/clear", (Button("Clear conversation", id="clear-submit"),), id="clear-form"))
        body.append(self._form())
        return self.page(ctx, brand, body)

    def _ask(self, ctx: Ctx) -> dict:
        question = ctx.field("question", limit=QUESTION_LIMIT).strip()
        text, sources = answer(ctx.state["index"], question)
        message = {"id": None, "user": ctx.user, "question": question, "answer": text, "sources": sources,
                   "at_us": ctx.now_us}
        if ctx.user is not None:
            n, state = next_id(ctx.state)
            message = {**message, "id": n}
            state = assoc_in(state, ["messages", str(n)], message)
            ctx.state = assoc_in(state, ["conversations", ctx.user], [*state["conversations"].get(ctx.user, []), n])
        return message

    @route("POST", "/ask")
    def ask(self, ctx: Ctx) -> Any:
        message = self._ask(ctx)
        if message["id"] is not None:
            return Redirect("/")
        return self.page(ctx, "Answer", [*self._exchange(message, "reply"),
                                         Text("Sign in to keep your conversation.", id="not-kept"), self._form()])

    @route("GET", "/messages/{n}")
    def message(self, ctx: Ctx) -> Any:
        message = self._own(ctx, ctx.params["n"])
        return self.page(ctx, f"Message {message['id']}", [
            Heading(f"Asked {timestamp(message['at_us'])}", id="message-title"),
            *self._exchange(message, f"message-{message['id']}"),
            Link("Back to the conversation", "/", id="back")])

    def _own(self, ctx: Ctx, raw: str) -> dict:
        user = ctx.require_user()
        if not raw.isdigit():
            raise HttpError(400, f"a message id is a number, got {raw!r}")
        message = ctx.state["messages"].get(str(int(raw)))
        if message is None:
            raise HttpError(404, f"no message {raw}")
        if message["user"] != user:
            raise HttpError(403, "this message belongs to another user")
        return message

    @route("POST", "/clear")
    def clear(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        ids = {str(i) for i in ctx.state["conversations"].get(user, [])}
        if ids:
            ctx.state = {**ctx.state, "conversations": {u: v for u, v in ctx.state["conversations"].items() if u != user},
                         "messages": {k: m for k, m in ctx.state["messages"].items() if k not in ids}}
        return Json({"cleared": len(ids)}) if ctx.wants_json else Redirect("/")

    # -- API ---------------------------------------------------------------------------
    @route("POST", "/api/ask")
    def api_ask(self, ctx: Ctx) -> Json:
        if ctx.json is not None and not isinstance(ctx.json, dict):
            raise HttpError(400, "the body is a JSON object {\"question\": ...}")
        if ctx.json is not None and "question" in ctx.json and not isinstance(ctx.json["question"], str):
            raise HttpError(400, "question: a string")
        message = self._ask(ctx)
        return Json({"id": message["id"], "question": message["question"], "answer": message["answer"],
                     "sources": message["sources"]})

    @route("GET", "/api/history")
    def api_history(self, ctx: Ctx) -> Json:
        user = ctx.require_user()
        messages = [ctx.state["messages"][str(i)] for i in ctx.state["conversations"].get(user, [])]
        return Json({"user": user, "messages": [{"id": m["id"], "question": m["question"], "answer": m["answer"],
                                                  "sources": m["sources"], "at": timestamp(m["at_us"])} for m in messages]})

    @route("GET", "/api/messages/{n}")
    def api_message(self, ctx: Ctx) -> Json:
        m = self._own(ctx, ctx.params["n"])
        return Json({"id": m["id"], "question": m["question"], "answer": m["answer"], "sources": m["sources"],
                     "at": timestamp(m["at_us"])})


SERVICE_KINDS.register(Assistant.name, Assistant())
