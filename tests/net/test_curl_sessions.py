"""curl's upload, credentials and cookie engine against a site with accounts: ``-T``,
``--data-binary``, ``-u``, ``-b`` and ``-c`` (a test-only kind built on the services
framework, registered for this module)."""

from __future__ import annotations

import copy

import pytest
from test_network import shell

from cwgym import World
from cwgym.net.services import SERVICE_KINDS
from cwgym.protocol.page import Text
from cwgym.resources import load_world
from cwgym.services.framework import WebService, route


class Whoami(WebService):
    name = "static"  # a schema kind name; the real static kind is put back afterwards
    title = "Who am I"

    @route("GET", "/")
    def home(self, ctx):
        return self.page(ctx, "Who am I", [Text(ctx.user or "nobody", id="who")])


@pytest.fixture
def site():
    real = SERVICE_KINDS.unregister("static")
    SERVICE_KINDS.register("static", Whoami())
    try:
        d = copy.deepcopy(load_world("small-office"))
        d["services"].append({"id": "who", "kind": "static", "node": "fileserver", "port": 8080, "domains": ["who.office.internal"],
                              "initial_state": {"users": [{"name": "grace", "password": "s3cret"}]}})
        yield World(d)
    finally:
        SERVICE_KINDS.unregister("static")
        SERVICE_KINDS.register("static", real)


def who(page: str) -> str:
    return page.split('<p id="who">', 1)[1].split("</p>", 1)[0]


def test_basic_credentials_sign_the_request_in(site):
    run, _ = shell(site)
    assert who(run("curl -s http://who.office.internal:8080/")["stdout"]) == "nobody"
    assert who(run("curl -s -u grace:s3cret http://who.office.internal:8080/")["stdout"]) == "grace"
    assert run("curl -s -o /dev/null -w '%{http_code}' -u grace:wrong http://who.office.internal:8080/")["stdout"] == "401"
    result = run("curl -s -S -u grace http://who.office.internal:8080/")
    assert result["exit_code"] == 2 and "USER:PASSWORD" in result["stderr"]


def test_the_cookie_engine_keeps_a_session_in_a_jar(site):
    run, _ = shell(site)
    login = run("curl -s -c jar.txt -d username=grace -d password=s3cret -o /dev/null -w '%{http_code}' "
                "http://who.office.internal:8080/login")
    assert login["stdout"] == "303"
    jar = run("cat jar.txt")["stdout"]
    assert jar.startswith("# Netscape HTTP Cookie File\n") and "\tsid\t" in jar
    assert who(run("curl -s -b jar.txt http://who.office.internal:8080/")["stdout"]) == "grace"
    token = jar.rsplit("\t", 1)[1].strip()
    assert who(run(f"curl -s -b 'sid={token}' http://who.office.internal:8080/")["stdout"]) == "grace"
    assert who(run("curl -s -b 'sid=forged' http://who.office.internal:8080/")["stdout"]) == "nobody"
    # -L with the engine on: the login's Set-Cookie is sent on the redirect it answers with
    followed = run("curl -s -L -b '' -d username=grace -d password=s3cret http://who.office.internal:8080/login")
    assert who(followed["stdout"]) == "grace"


def test_upload_file_and_data_binary_keep_the_bytes():
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "share", "kind": "static", "node": "fileserver", "port": 8081,
                          "domains": ["share.office.internal"], "initial_state": {"writable": True}})
    run, _ = shell(World(d))
    run("printf 'line one\\nline two\\n' > notes.txt")
    assert run("curl -s -o /dev/null -w '%{http_code}' -T notes.txt http://share.office.internal:8081/")["stdout"] == "201"
    assert run("curl -s http://share.office.internal:8081/notes.txt")["stdout"] == "line one\nline two\n"
    run("curl -s -X PUT --data-binary @notes.txt http://share.office.internal:8081/b.txt")
    assert run("curl -s http://share.office.internal:8081/b.txt")["stdout"] == "line one\nline two\n"
    run("curl -s -X PUT -d @notes.txt http://share.office.internal:8081/c.txt")
    assert run("curl -s http://share.office.internal:8081/c.txt")["stdout"] == "line oneline two"
    missing = run("curl -sS -T nope.txt http://share.office.internal:8081/")
    assert missing["exit_code"] == 26

