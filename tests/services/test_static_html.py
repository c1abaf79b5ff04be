"""A static site's HTML pages at world load: each page the world ships that is served as HTML
is held to the page model, so a world with a bad page fails to load naming the file, the
element and its line; a page a client uploads is read as a browser reads any page, in the
world and through a snapshot; and the bundled worlds still load."""

from __future__ import annotations

import copy

import pytest

from cwgym import World
from cwgym.protocol.html_reader import HtmlModelError
from cwgym.resources import load_world

BAD = "<!doctype html>\n<title>About</title>\n<h1>About us</h1>\n<p id=intro onclick=\"hello()\">Hi</p>\n"


def site_world(files: dict, writable: bool = False) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "site", "kind": "static", "node": "fileserver", "port": 8090,
                          "domains": ["site.office.internal"], "initial_state": {"files": files, "writable": writable}})
    return d


def request(world: World, method: str, path: str, body: str = "", headers: dict | None = None) -> dict:
    env = world.environment({"actor": "grace", "machines": ["reception"], "actions": ["http.v1"], "observations": []})
    out = env.step([{"family": "http.v1", "op": "request", "machine": "reception",
                     "payload": {"method": method, "url": f"http://site.office.internal:8090{path}", "body": body,
                                 "headers": headers or {}}}])
    return out["outcomes"][0]["value"]


def test_a_world_with_a_bad_page_fails_to_load_naming_the_file_the_element_and_its_line():
    d = site_world({"/": "<h1>Home</h1>", "/about.html": BAD})
    with pytest.raises(HtmlModelError) as caught:
        World(d)
    error = caught.value
    assert error.where == f"$.services[{len(d['services']) - 1}].initial_state.files['/about.html']"
    assert (error.tag, error.element_id, error.line, error.column) == ("p", "intro", 4, 1)
    assert str(error).startswith(f"{error.where}: line 4, column 1: <p id=\"intro\">: the page model has no onclick=")


PAGES = {
    # what: (path, page, held to the model)
    ".html": ("/a.html", "<script>x()</script>", True),
    ".htm": ("/a.htm", "<script>x()</script>", True),
    "a folder's page": ("/docs/", "<script>x()</script>", True),
    "a 404 page in HTML": ("/gone.html", {"body": "<video></video>", "status": 404}, True),
    "text/html by its type": ("/data", {"body": "<script>x()</script>", "content_type": "Text/HTML; charset=utf-8"}, True),
    "text": ("/notes.txt", "<script>x()</script>", False),
    ".html served as text": ("/a.html", {"body": "<script>x()</script>", "content_type": "text/plain"}, False),
    "an uploaded page": ("/a.html", {"body": "<script>x()</script>", "uploaded": True}, False),
}


@pytest.mark.parametrize(("path", "page", "checked"), PAGES.values(), ids=PAGES.keys())
def test_each_page_served_as_html_is_checked(path, page, checked):
    if checked:
        with pytest.raises(HtmlModelError, match=r"files\["):
            World(site_world({path: page}))
    else:
        World(site_world({path: page}))


def test_an_htm_page_is_served_as_html():
    world = World(site_world({"/a.htm": "<p>A</p>", "/b.txt": "B"}))
    assert dict(request(world, "GET", "/a.htm")["headers"])["Content-Type"].startswith("text/html")
    assert dict(request(world, "GET", "/b.txt")["headers"])["Content-Type"].startswith("text/plain")


@pytest.mark.parametrize(("page", "words"), [
    ({"body": "x", "content_type": 5}, "content_type: a media type"),
    ({"body": "x", "uploaded": "yes"}, "uploaded: true or false"),
    ({"body": "x", "author": "me"}, "a page is text or"),
])
def test_malformed_page_fields_are_refused(page, words):
    with pytest.raises(ValueError, match=words):
        World(site_world({"/a.html": page}))


def test_an_uploaded_page_is_read_leniently_and_survives_a_snapshot():
    world = World(site_world({}, writable=True))
    assert request(world, "PUT", "/up.html", BAD, {"Content-Type": "text/html"})["status"] == 201
    assert bytes(request(world, "GET", "/up.html")["body"]).decode() == BAD
    again = World(site_world({}, writable=True))
    again.import_snapshot(world.export_snapshot())
    assert again.state_hash() == world.state_hash()


def test_a_good_page_loads_and_is_served():
    world = World(site_world({"/about.html": BAD.replace(' onclick="hello()"', "")}))
    assert request(world, "GET", "/about.html")["status"] == 200


@pytest.mark.parametrize("name", ["company", "small-office", "ubuntu-workstation"])
def test_the_bundled_worlds_load(name):
    World(load_world(name))
