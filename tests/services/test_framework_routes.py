"""A service kind answers each path by its routes in order, whether it has seen the path
before or not: the captured segments, ``405`` naming the methods a path allows, ``404``."""

from __future__ import annotations

from cwgym.net.http import Headers, Request, parse_url
from cwgym.services import framework
from cwgym.services.framework import Json, WebService, route


class Routes(WebService):
    title = "Routes"

    @route("GET", "/items/new")
    def new_form(self, ctx):
        return Json({"page": "new", "params": ctx.params})

    @route("GET", "/items/{name}")
    def item(self, ctx):
        ctx.params["seen"] = "yes"  # a handler may change its own params
        return Json({"page": "item", "params": dict(ctx.params)})

    @route("POST", "/items/{name}")
    def save(self, ctx):
        return Json({"saved": ctx.params["name"]})


def _ask(kind: WebService, state, method: str, path: str) -> tuple[int, bytes]:
    request = Request(method, parse_url("http://routes.test" + path), Headers((("Accept", "application/json"),)))
    response, _ = kind.handle(state, request, "node", 0)
    return response.status, response.body


def test_paths_answer_the_same_the_first_time_and_after(monkeypatch):
    kind = Routes()
    state = kind.initial({}, "$")
    asks = [("GET", "/items/new"), ("GET", "/items/apple"), ("POST", "/items/apple"), ("DELETE", "/items/apple"),
            ("GET", "/nothing"), ("GET", "/items/pear")]
    first = [_ask(kind, state, m, p) for m, p in asks]
    assert [status for status, _ in first] == [200, 200, 200, 405, 404, 200]
    assert b'"params": {"name": "apple", "seen": "yes"}' in first[1][1]
    assert b"allowed: GET, POST" in first[3][1]
    assert [_ask(kind, state, m, p) for m, p in asks] == first
    monkeypatch.setattr(framework, "MATCHED_KEPT", 2)  # forgetting paths changes no answer
    assert [_ask(kind, state, m, p) for m, p in asks] == first
