"""``tasks``: one seeded web task page at a time — the MiniWoB++-style tier's server.

``initial_state`` is ``{"task": {"kind", "seed"} | null}``; a procedure's setup sets it for
each episode (``{"service": "tasks", "state": {"task": {...}}}``). The service draws the
task with :func:`cwgym.webtasks.generate` (a pure function of kind and seed, so the state
holds two values, not the page) and serves:

* ``GET /``: the task's page (with no task: a page saying so);
* ``GET|POST /act``: a change of the page's view (the open tab, a page of results), handled
  by the kind; the browser is sent back to ``/``;
* ``GET|POST /submit``: the page's answer. The first one is recorded in the state as
  ``submission``: ``{"fields": {name: value}}``, a name sent more than once (checkboxes)
  holding its values joined by ``,`` in the order sent. A task takes one answer, as a
  MiniWoB++ episode ends at its first; a later one is ``409``.

Procedures verify ``submission`` through ``{"state": {"service": "tasks", ...}}`` checks:
what the page sent, never what the screen showed.
"""

from __future__ import annotations

from typing import Any, ClassVar
from urllib.parse import parse_qsl

from cwgym.net.services import SERVICE_KINDS
from cwgym.protocol.page import Heading, Link, Page, Text
from cwgym.services.framework import Ctx, HttpError, Redirect, WebService, check_fields, route
from cwgym.webtasks import TaskInputError, generate, kind_of

#: Most fields one answer may carry.
MAX_FIELDS = 64


class Tasks(WebService):
    name = "tasks"
    title = "Tasks"
    fields: ClassVar[dict[str, Any]] = {"task": (dict, type(None)), "view": dict, "submission": (dict, type(None))}

    def validate(self, state: dict, where: str, users: dict[str, dict], definition: Any = None) -> dict:
        task = state.get("task")
        if task is not None:
            check_fields(task, f"{where}.task", {"kind": str, "seed": int}, ("kind", "seed"))
            if task["seed"] < 0 or isinstance(task["seed"], bool):
                raise ValueError(f"{where}.task.seed: a non-negative integer")
            try:
                full = generate(task["kind"], task["seed"])
            except ValueError as exc:
                raise ValueError(f"{where}.task.kind: {exc}") from None
            view = state.get("view")
            if view is None:
                view = kind_of(task["kind"]).initial_view(full)
        else:
            view = state.get("view", {})
        submission = state.get("submission")
        if submission is not None:
            check_fields(submission, f"{where}.submission", {"fields": dict}, ("fields",))
            if not all(isinstance(k, str) and isinstance(v, str) for k, v in submission["fields"].items()):
                raise ValueError(f"{where}.submission.fields: names and values are text")
        return {"task": None if task is None else {"kind": task["kind"], "seed": task["seed"]},
                "view": view, "submission": submission}

    # -- pages -------------------------------------------------------------------------
    def page(self, ctx: Ctx, title: str, body: Any) -> Page:
        """A task page is the task alone: no brand bar, no sign-in link (the kiosk shows
        160 x 210 pixels of it)."""
        return Page(title, tuple(body))

    def _task(self, ctx: Ctx) -> tuple[Any, dict[str, Any]]:
        task = ctx.state.get("task")
        if task is None:
            raise HttpError(404, "no task is staged")
        return kind_of(task["kind"]), generate(task["kind"], task["seed"])

    @route("GET", "/")
    def home(self, ctx: Ctx) -> Page:
        if ctx.state.get("task") is None:
            brand = ctx.state.get("brand", self.title)
            return self.page(ctx, brand, [Heading(brand, id="brand"),
                                          Text("No task is staged on this server.", id="no-task")])
        kind, task = self._task(ctx)
        if ctx.state.get("submission") is not None:
            return self._done(kind)
        return self.page(ctx, kind.title, kind.page(task, ctx.state.get("view", {})))

    def _done(self, kind: Any) -> Page:
        return self.page(None, kind.title, [Heading("Done", id="done"),
                                            Text("Your answer was recorded.", id="done-text"),
                                            Link("Back", "/", id="done-back")])

    @route("GET", "/act")
    def act_get(self, ctx: Ctx) -> Any:
        return self._act(ctx, dict(ctx.query))

    @route("POST", "/act")
    def act_post(self, ctx: Ctx) -> Any:
        return self._act(ctx, {**ctx.query, **ctx.form})

    def _act(self, ctx: Ctx, form: dict[str, str]) -> Any:
        kind, task = self._task(ctx)
        if ctx.state.get("submission") is not None:
            raise HttpError(409, "this task already has its answer")
        try:
            view = kind.act(task, ctx.state.get("view", {}), form)
        except TaskInputError as exc:
            raise HttpError(400, str(exc)) from None
        ctx.state = {**ctx.state, "view": view}
        return Redirect("/")

    @route("GET", "/submit")
    def submit_get(self, ctx: Ctx) -> Any:
        return self._submit(ctx, parse_qsl(ctx.request.url.path.partition("?")[2], keep_blank_values=True))

    @route("POST", "/submit")
    def submit_post(self, ctx: Ctx) -> Any:
        body = ctx.request.body.decode("utf-8", "replace") if ctx.request.body else ""
        pairs = parse_qsl(ctx.request.url.path.partition("?")[2], keep_blank_values=True)
        if ctx.json is not None:
            pairs += list(ctx.form.items())
        else:
            pairs += parse_qsl(body, keep_blank_values=True)
        return self._submit(ctx, pairs)

    def _submit(self, ctx: Ctx, pairs: list[tuple[str, str]]) -> Any:
        kind, _ = self._task(ctx)
        if ctx.state.get("submission") is not None:
            raise HttpError(409, "this task already has its answer")
        fields: dict[str, str] = {}
        for name, value in pairs:
            fields[name] = f"{fields[name]},{value}" if name in fields else value
        if len(fields) > MAX_FIELDS:
            raise HttpError(400, f"an answer has at most {MAX_FIELDS} fields")
        ctx.state = {**ctx.state, "submission": {"fields": fields}}
        return self._done(kind)


SERVICE_KINDS.register(Tasks.name, Tasks())
