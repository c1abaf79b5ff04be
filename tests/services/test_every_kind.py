"""Every registered service kind, the same way: an empty service builds and answers its home
page in HTML through the network; HEAD, an unknown page, a wrong method and a malformed
body get answers, not tracebacks; a malformed ``initial_state`` is refused naming its path;
and a built state passes its own check again (snapshots are loaded with it)."""

from __future__ import annotations

import copy

import pytest

from cwgym import World
from cwgym.net.http import Headers, Request, parse_url
from cwgym.net.services import SERVICE_KINDS
from cwgym.protocol.definition import SERVICE_KINDS as SCHEMA_KINDS
from cwgym.protocol.definition import DefinitionError
from cwgym.resources import load_world

KINDS = SERVICE_KINDS.names()
URL = "http://site.office.internal/"


def world_with(kind: str, initial_state=None) -> World:
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "site", "kind": kind, "node": "fileserver", "port": 8090,
                          "domains": ["site.office.internal"], "initial_state": initial_state})
    return World(d)


def get(world: World, path: str, method: str = "GET", body: str | list = "", headers=None) -> dict:
    env = world.environment({"actor": "grace", "machines": ["reception"], "actions": ["http.v1"], "observations": []})
    out = env.step([{"family": "http.v1", "op": "request", "machine": "reception",
                     "payload": {"method": method, "url": f"http://site.office.internal:8090{path}", "body": body,
                                 "headers": headers or {}}}])
    outcome = out["outcomes"][0]
    assert outcome["success"], outcome
    value = outcome["value"]
    return {"status": value["status"], "headers": dict((k.lower(), v) for k, v in value["headers"]),
            "body": bytes(value["body"])}


def test_every_kind_the_schema_names_is_served():
    assert sorted(SCHEMA_KINDS) == KINDS


@pytest.mark.parametrize("kind", KINDS)
def test_an_empty_service_answers_its_home_page(kind):
    for empty in (None, {}):
        world = world_with(kind, empty)
        home = get(world, "/")
        assert home["status"] == 200, home["body"][:300]
        assert home["headers"]["content-type"].startswith("text/html")
        assert home["body"].startswith(b"<!DOCTYPE html>")
        assert int(home["headers"]["content-length"]) == len(home["body"])
        head = get(world, "/", "HEAD")
        assert (head["status"], head["body"]) == (200, b"")


@pytest.mark.parametrize("kind", KINDS)
def test_unknown_pages_wrong_methods_and_bad_bodies_get_answers(kind):
    world = world_with(kind, {})
    before = world.state_hash()
    assert get(world, "/no/such/page/anywhere")["status"] == 404
    assert get(world, "/", "DELETE")["status"] in (404, 405)
    bad = get(world, "/", "POST", body=[0xFF, 0xFE], headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert 400 <= bad["status"] < 500
    assert world.runtime.network.services["site"] == world_with(kind, {}).runtime.network.services["site"]
    assert world.state_hash() != before  # the clock moved; the service did not change (above)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("bad", [[], "text", 7, {"no_such_field_anywhere": 1}, {"users": {"ada": 1}}])
def test_a_malformed_initial_state_is_refused_naming_its_path(kind, bad):
    with pytest.raises((DefinitionError, ValueError), match=r"services\[1\]\.initial_state"):
        world_with(kind, bad)


@pytest.mark.parametrize("kind", KINDS)
def test_a_built_state_passes_its_own_check_and_survives_export(kind):
    world = world_with(kind, {})
    get(world, "/")
    state = world.runtime.network.services["site"]
    assert SERVICE_KINDS[kind].initial(copy.deepcopy(state), "x", world.runtime.definition) == state
    again = world_with(kind, {})
    again.import_snapshot(world.export_snapshot())
    assert again.state_hash() == world.state_hash()


@pytest.mark.parametrize("kind", KINDS)
def test_a_request_never_mutates_the_state_it_was_given(kind):
    service = SERVICE_KINDS[kind]
    state = service.initial({}, "x")
    frozen = copy.deepcopy(state)
    for method, path, body in (("GET", "/", b""), ("POST", "/signup", b"username=zed&password=pw"),
                               ("POST", "/login", b"username=zed&password=pw")):
        request = Request(method, parse_url(URL.rstrip("/") + path),
                          Headers((("Content-Type", "application/x-www-form-urlencoded"),)), body)
        _, after = service.handle(state, request, "reception", 0)
        assert state == frozen
        state, frozen = after, copy.deepcopy(after)


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "static"])
def test_every_site_takes_a_brand_as_worlds_written_for_the_reference_engine_give_it(kind):
    world = world_with(kind, {"brand": "Acme Intranet"})
    home = get(world, "/")
    assert home["status"] == 200 and b"Acme Intranet" in home["body"]
    with pytest.raises((DefinitionError, ValueError), match=r"services\[1\]\.initial_state\.brand"):
        world_with(kind, {"brand": 7})


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "static"])
def test_a_browser_that_asks_for_the_page_model_gets_the_same_page(kind):
    from cwgym.protocol.page import page_from_json, to_html
    from cwgym.services.framework import PAGE_TYPE

    world = world_with(kind, {})
    model = get(world, "/", headers={"Accept": f"{PAGE_TYPE}, text/html;q=0.9"})
    assert model["headers"]["content-type"] == PAGE_TYPE
    html = get(world, "/")["body"].decode()
    assert to_html(page_from_json(model["body"])) == html


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "static"])
def test_accounts_given_by_name_alone_load_and_cannot_sign_in_with_a_password(kind):
    world = world_with(kind, {"users": ["ada"]})
    assert get(world, "/")["status"] == 200
    login = get(world, "/login", "POST", body="username=ada&password=", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert login["status"] in (400, 403)
    login = get(world, "/login", "POST", body="username=ada&password=x", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert login["status"] == 403
