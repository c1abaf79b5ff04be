"""The drive kind end to end: folder listings, new folders, uploads from a machine with
``curl -T`` / ``--data-binary`` and from the web form, downloads with their content type,
binary files, rename and move, the trash and restore, read-only sharing and "Shared with me",
the quota (507), privacy, malformed requests and initial states, two machines, snapshots,
forks and replay."""

from __future__ import annotations

import base64
import copy
import json

import pytest

from cwgym import World
from cwgym.environment.replay import replay
from cwgym.net.http import Headers, Request, parse_url
from cwgym.protocol.definition import DefinitionError
from cwgym.resources import load_world
from cwgym.services.drive import Drive, content_type

URL = "http://drive.office.internal:8090"
USERS = [{"name": "alice", "password": "pw-a"}, {"name": "bob", "password": "pw-b"}, {"name": "carol", "password": "pw-c"}]
PASSWORDS = {u["name"]: u["password"] for u in USERS}
FILES = {"alice": {"reports/q3.txt": "revenue 10\n", "reports/2026/": "", "todo.md": "- call bob\n"}}


def definition(initial_state=None) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "drive", "kind": "drive", "node": "fileserver", "port": 8090,
                          "domains": ["drive.office.internal"], "initial_state": initial_state})
    d["network"]["dns"].append({"name": "drive.office.internal", "address": "10.20.1.5", "resolver": "fileserver"})
    return d


def full(**extra) -> dict:
    return definition({"users": USERS, "files": FILES, **extra})


def auth(user: str) -> dict:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{PASSWORDS[user]}".encode()).decode()}


def machine(world: World, name: str = "reception"):
    computer = next(c for c in world.definition()["computers"] if c["id"] == name)
    env = world.environment({"actor": computer["user"], "machines": [name], "actions": ["terminal.v1", "http.v1"],
                             "observations": []})

    def sh(command: str) -> dict:
        out = env.step([{"family": "terminal.v1", "op": "execute", "machine": name, "payload": {"command": command}}])
        return out["outcomes"][0]["value"]

    def http(method: str, path: str, user: str | None = None, body: str | list = "", headers: dict | None = None,
             json_body=None) -> tuple[int, dict, bytes]:
        h = {**(auth(user) if user else {}), **(headers or {})}
        if json_body is not None:
            body, h = json.dumps(json_body), {**h, "Content-Type": "application/json"}
        elif body and method == "POST":
            h = {"Content-Type": "application/x-www-form-urlencoded", **h}
        out = env.step([{"family": "http.v1", "op": "request", "machine": name,
                         "payload": {"method": method, "url": URL + path, "body": body, "headers": h}}])
        value = out["outcomes"][0]["value"]
        return value["status"], {k.lower(): v for k, v in value["headers"]}, bytes(value["body"])

    return sh, http


def state(world: World) -> dict:
    return world.runtime.network.services["drive"]


def api(http, method: str, path: str, user: str = "alice", **kw):
    status, _, body = http(method, path, user, **kw)
    return status, json.loads(body)


# -- reading -------------------------------------------------------------------------------------

@pytest.mark.parametrize("empty", [None, {}])
def test_an_empty_service_has_a_home_page_and_an_empty_drive_after_sign_up(empty):
    world = World(definition(empty))
    sh, http = machine(world)
    home = sh(f"curl -s {URL}/")["stdout"]
    assert "<title>Drive</title>" in home and '<a id="home-sign-in" href="/login">Sign in to open your drive</a>' in home
    _, headers, _ = http("POST", "/signup", body="username=zed&password=pw")
    cookie = headers["set-cookie"].split(";")[0]
    mine = sh(f"curl -s -b '{cookie}' {URL}/files/")["stdout"]
    assert '<p id="listing-empty">This folder is empty.</p>' in mine
    assert '<p id="quota">Storage: 0 bytes of 15 GB used</p>' in mine
    assert '<form id="upload" action="/upload" method="post">' in mine


def test_a_folder_lists_folders_first_then_files_with_sizes_and_the_quota():
    world = World(full(quota_bytes=2_000))
    sh, _ = machine(world)
    root = sh(f"curl -s -u alice:pw-a {URL}/")["stdout"]
    assert root.index('id="item-reports"') < root.index('id="item-todo.md"')
    assert '<a id="item-todo.md" href="/files/todo.md">todo.md</a>' in root
    assert '<p id="item-todo.md-size">11 bytes</p>' in root
    assert '<p id="quota">Storage: 22 bytes of 2 KB used</p>' in root
    reports = sh(f"curl -s -u alice:pw-a {URL}/files/reports")["stdout"]
    assert '<a id="item-reports/2026" href="/files/reports/2026">2026/</a>' in reports
    assert '<p id="breadcrumbs">My Drive / reports</p>' in reports
    page = sh(f"curl -s -u alice:pw-a {URL}/files/reports/q3.txt")["stdout"]
    assert '<p id="file-preview">revenue 10<br></p>' in page
    assert '<a id="file-download" href="/download/reports/q3.txt">Download</a>' in page
    status, listing = api(machine(world)[1], "GET", "/api/files/reports")
    assert status == 200 and [(i["name"], i["type"]) for i in listing["items"]] == [("2026", "folder"), ("q3.txt", "file")]


def test_downloads_carry_the_content_type_of_the_extension():
    assert content_type("a/b.csv") == "text/csv; charset=utf-8"
    assert content_type("x.PNG") == "image/png"
    assert content_type("Makefile") == "application/octet-stream"
    world = World(full())
    sh, _ = machine(world)
    out = sh(f"curl -s -i -u alice:pw-a {URL}/download/todo.md")["stdout"]
    assert "Content-Type: text/markdown; charset=utf-8\r\n" in out
    assert 'Content-Disposition: attachment; filename="todo.md"\r\n' in out
    assert out.endswith("\r\n\r\n- call bob\n")


# -- uploads -------------------------------------------------------------------------------------

def test_a_file_uploaded_with_curl_T_on_one_machine_is_downloaded_by_its_owner_on_another_and_no_one_else():
    world = World(full())
    alice_a, _ = machine(world, "reception")
    alice_b, _ = machine(world, "legal-laptop")
    alice_a("echo 'meet at 10' > f")
    put = alice_a(f"curl -s -w ' %{{http_code}}' -u alice:pw-a -T f {URL}/api/files/f")["stdout"]
    assert put.endswith(" 201") and json.loads(put[:-4])["size"] == 11
    assert alice_b(f"curl -s -u alice:pw-a {URL}/download/f")["stdout"] == "meet at 10\n"
    assert alice_b(f"curl -s -u alice:pw-a -o got.txt {URL}/download/f")["exit_code"] == 0
    assert alice_b("cat got.txt")["stdout"] == "meet at 10\n"
    other = alice_b(f"curl -s -w ' %{{http_code}}' -u bob:pw-b {URL}/download/f")["stdout"]
    assert other.endswith(" 404")
    assert alice_b(f"curl -s -o /dev/null -w '%{{http_code}}' -u bob:pw-b '{URL}/download/f?owner=alice'")["stdout"] == "404"
    assert alice_b(f"curl -s -o /dev/null -w '%{{http_code}}' {URL}/download/f")["stdout"] == "303"  # signed out: to sign-in
    assert alice_b(f"curl -s -o /dev/null -w '%{{http_code}}' -u alice:wrong {URL}/download/f")["stdout"] == "401"


def test_a_curl_T_to_a_folder_url_keeps_the_name_and_a_replacement_is_200():
    world = World(full())
    sh, _ = machine(world)
    sh("printf 'a,b\\n1,2\\n' > data.csv")
    assert sh(f"curl -s -o /dev/null -w '%{{http_code}}' -u alice:pw-a -T data.csv {URL}/api/files/reports/")["stdout"] == "201"
    sh("printf 'a,b\\n3,4\\n' > data.csv")
    assert sh(f"curl -s -o /dev/null -w '%{{http_code}}' -u alice:pw-a --data-binary @data.csv -X PUT "
              f"{URL}/api/files/reports/data.csv")["stdout"] == "200"
    entry = state(world)["files"]["alice"]["reports/data.csv"]
    assert (entry["content"], entry["encoding"], entry["size"]) == ("a,b\n3,4\n", "utf-8", 8)


def test_binary_bytes_are_stored_base64_and_come_back_as_they_were():
    world = World(full())
    _, http = machine(world)
    data = [0, 255, 137, 80, 78, 71, 13, 10]
    assert api(http, "PUT", "/api/files/logo.png", body=data)[0] == 201
    entry = state(world)["files"]["alice"]["logo.png"]
    assert (entry["encoding"], entry["content"], entry["size"]) == ("base64", base64.b64encode(bytes(data)).decode(), 8)
    status, headers, body = http("GET", "/download/logo.png", "alice")
    assert (status, headers["content-type"], list(body)) == (200, "image/png", data)
    assert list(http("GET", "/api/files/logo.png", "alice")[2]) == data  # GET on a file is its bytes, like WebDAV
    # a client may send base64 itself
    status, info = api(http, "PUT", "/api/files/two.bin", body="AAE=", headers={"Content-Transfer-Encoding": "base64"})
    assert (status, info["size"], list(http("GET", "/download/two.bin", "alice")[2])) == (201, 2, [0, 1])
    assert "No preview for a binary file." in http("GET", "/files/logo.png", "alice")[2].decode()


def test_the_web_form_creates_folders_and_uploads_text_files():
    world = World(full())
    sh, http = machine(world)
    assert http("POST", "/folders", "alice", "parent=reports&name=drafts")[:2] == (
        303, {"location": "/files/reports/drafts", "content-length": "0"})
    status, headers, _ = http("POST", "/upload", "alice", "folder=reports/drafts&name=memo.txt&content=Dear all,%0Ahello")
    assert (status, headers["location"]) == (303, "/files/reports/drafts/memo.txt")
    assert sh(f"curl -s -u alice:pw-a {URL}/download/reports/drafts/memo.txt")["stdout"] == "Dear all,\nhello"
    assert http("POST", "/folders", "alice", "parent=reports&name=drafts")[0] == 409
    assert http("POST", "/upload", "alice", "folder=missing&name=x.txt&content=x")[0] == 409
    assert api(http, "PUT", "/api/files/nowhere/x.txt", body="x") == (409, {"error": "the folder 'nowhere' does not exist; create it first"})
    assert api(http, "POST", "/api/folders", json_body={"path": "nowhere"})[0] == 201
    assert api(http, "PUT", "/api/files/nowhere/x.txt", body="x")[0] == 201


def test_over_the_quota_an_upload_is_507_and_changes_nothing():
    world = World(full(quota_bytes=30))
    _, http = machine(world)
    before = state(world)
    assert api(http, "PUT", "/api/files/big.txt", body="x" * 9) == (
        507, {"error": "not enough storage: the file is 9 bytes and 8 of your 30 bytes are free"})
    assert state(world) is before
    assert api(http, "PUT", "/api/files/ok.txt", body="x" * 8)[0] == 201
    assert api(http, "GET", "/api/quota") == (200, {"quota": 30, "used": 30})
    assert api(http, "PUT", "/api/files/todo.md", body="short")[0] == 200  # replacing frees the old size first
    assert api(http, "GET", "/api/quota")[1]["used"] == 24
    assert http("DELETE", "/api/files/todo.md", "alice")[0] == 200
    assert api(http, "GET", "/api/quota")[1]["used"] == 24  # the trash counts until it is emptied
    assert http("POST", "/trash/empty", "alice")[0] == 303
    assert api(http, "GET", "/api/quota")[1]["used"] == 19


# -- changes -------------------------------------------------------------------------------------

def test_rename_and_move_carry_everything_under_a_folder():
    world = World(full())
    _, http = machine(world)
    assert http("POST", "/rename", "alice", "path=reports&name=archive")[1]["location"] == "/files/archive"
    assert sorted(state(world)["files"]["alice"]) == ["archive", "archive/2026", "archive/q3.txt", "todo.md"]
    assert api(http, "POST", "/api/move", json_body={"from": "todo.md", "to": "archive/2026/todo.md"})[1]["path"] == "archive/2026/todo.md"
    assert http("POST", "/move", "alice", "path=archive&to=archive/2026/x")[0] == 409
    assert http("POST", "/move", "alice", "path=archive/q3.txt&to=archive/2026")[0] == 409
    assert http("POST", "/move", "alice", "path=nope&to=x")[0] == 404
    assert http("POST", "/rename", "alice", "path=archive&name=a/b")[0] == 400


def test_delete_goes_to_the_trash_and_restore_brings_it_back():
    world = World(full())
    sh, http = machine(world)
    assert http("POST", "/delete", "alice", "path=reports")[1]["location"] == "/"
    assert sorted(state(world)["files"]["alice"]) == ["todo.md"]
    trash = sh(f"curl -s -u alice:pw-a {URL}/trash")["stdout"]
    assert '<p id="trash-1-path">reports</p>' in trash
    assert '<form id="trash-1-restore-form" action="/trash/1/restore" method="post">' in trash
    assert api(http, "GET", "/api/trash") == (200, {"items": [{"deleted": "2026-09-17 09:00", "id": "1", "path": "reports"}]})
    assert http("POST", "/trash/1/restore", "bob")[0] == 404  # bob's trash has no 1
    assert http("POST", "/trash/1/restore", "alice")[1]["location"] == "/files/reports"
    assert sorted(state(world)["files"]["alice"]) == ["reports", "reports/2026", "reports/q3.txt", "todo.md"]
    assert state(world)["trash"]["alice"] == {}
    http("POST", "/delete", "alice", "path=todo.md")
    api(http, "PUT", "/api/files/todo.md", body="new")
    assert api(http, "POST", "/api/trash/2/restore")[0] == 409  # the name is taken again
    assert http("POST", "/trash/2/delete", "alice")[0] == 303
    assert state(world)["trash"]["alice"] == {}


def test_sharing_is_read_only_follows_renames_and_is_suspended_in_the_trash():
    world = World(full())
    _, alice = machine(world, "reception")
    bob_sh, bob = machine(world, "legal-laptop")
    assert alice("POST", "/share", "alice", "path=reports&user=bob")[0] == 303
    shared = bob_sh(f"curl -s -u bob:pw-b {URL}/shared")["stdout"]
    assert '<a id="shared-alice:reports" href="/files/reports?owner=alice">reports/</a>' in shared
    assert bob_sh(f"curl -s -u bob:pw-b '{URL}/download/reports/q3.txt?owner=alice'")["stdout"] == "revenue 10\n"
    assert bob("GET", "/download/todo.md?owner=alice", "bob")[0] == 404  # not shared
    assert bob("GET", "/files/reports?owner=alice", "carol")[0] == 404
    listing = bob("GET", "/files/reports?owner=alice", "bob")[2].decode()
    assert '<a id="item-reports/q3.txt" href="/files/reports/q3.txt?owner=alice">q3.txt</a>' in listing
    assert 'id="upload"' not in listing and 'id="delete"' not in bob("GET", "/files/reports/q3.txt?owner=alice", "bob")[2].decode()
    # read-only: bob's writes land in his own drive, never in alice's
    assert bob("POST", "/delete", "bob", "path=reports")[0] == 404
    assert bob("PUT", "/api/files/reports/q3.txt", "bob", "hacked")[0] == 409
    assert state(world)["files"]["alice"]["reports/q3.txt"]["content"] == "revenue 10\n"
    alice("POST", "/rename", "alice", "path=reports&name=finance")
    assert api(bob, "GET", "/api/shared", "bob")[1]["items"][0]["path"] == "finance"
    status, _, trashed = alice("DELETE", "/api/files/finance", "alice")
    assert status == 200
    assert api(bob, "GET", "/api/shared", "bob") == (200, {"items": []})
    alice("POST", f"/trash/{json.loads(trashed)['trash_id']}/restore", "alice")
    assert bob("GET", "/download/finance/q3.txt?owner=alice", "bob")[2] == b"revenue 10\n"
    assert alice("POST", "/unshare", "alice", "path=finance&user=bob")[0] == 303
    assert bob("GET", "/download/finance/q3.txt?owner=alice", "bob")[0] == 404
    assert alice("POST", "/share", "alice", "path=finance&user=nobody")[0] == 404
    assert alice("POST", "/share", "alice", "path=finance&user=alice")[0] == 400


# -- malformed -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("method", "path", "body", "message"), [
    ("POST", "/folders", "parent=&name=", "the field 'name' is required"),
    ("POST", "/folders", "parent=&name=..", "'..' is not a file name (1-255 characters, no '/', no control characters, not '.' or '..')"),
    ("POST", "/upload", "folder=&name=a/b&content=x", "a file name has no '/'"),
    ("POST", "/move", "path=todo.md", "the field 'to' is required"),
    ("POST", "/delete", "path=/", "a path names a file or folder (the root cannot be changed)"),
    ("GET", "/download/reports", "", "'reports' is a folder; download its files one by one"),
])
def test_malformed_requests_are_400_with_a_message_and_change_nothing(method, path, body, message):
    world = World(full())
    _, http = machine(world)
    before = state(world)
    status, _, page = http(method, path, "alice", body)
    assert status == 400 and f'<p id="error-message">{message}</p>'.replace("'", "&#x27;") in page.decode()
    assert state(world) is before


def test_a_malformed_upload_is_400_in_json():
    world = World(full())
    _, http = machine(world)
    assert api(http, "PUT", "/api/files/x.bin", body="!!", headers={"Content-Transfer-Encoding": "base64"}) == (
        400, {"error": "the body is not base64 (Content-Transfer-Encoding: base64)"})
    assert api(http, "PUT", "/api/files/a/../b", body="x")[0] == 400
    assert api(http, "GET", "/api/info/none.txt") == (404, {"error": "no file or folder 'none.txt'"})


@pytest.mark.parametrize(("initial", "where"), [
    ({"quota_bytes": 0}, r"initial_state\.quota_bytes: a positive number"),
    ({"quota_bytes": "1GB"}, r"initial_state\.quota_bytes: expected int"),
    ({"users": USERS, "files": {"zoe": {}}}, r"initial_state\.files\.zoe: 'zoe' is not an account"),
    ({"users": USERS, "files": {"alice": {"a/../b": "x"}}}, r"initial_state\.files\.alice\['a/\.\./b'\]: '\.\.' is not a file name"),
    ({"users": USERS, "files": {"alice": {"a": 3}}}, r"initial_state\.files\.alice\['a'\]: a file's text, got int"),
    ({"users": USERS, "files": {"alice": {"a": "x", "a/b": "y"}}}, r"initial_state\.files\.alice\['a/b'\]: 'a' is a file"),
    ({"users": USERS, "files": {"alice": {"d/": "text"}}}, r"initial_state\.files\.alice\['d/'\]: a path ending in '/' is a folder"),
    ({"users": USERS, "shares": [{"owner": "alice", "path": "x", "user": "bob"}]}, r"initial_state\.shares\[0\]\.path: alice has no 'x'"),
])
def test_a_malformed_initial_state_is_refused_naming_the_path(initial, where):
    with pytest.raises((DefinitionError, ValueError), match=r"\$\.services\[1\]\." + where):
        World(definition(initial))


def test_a_built_state_passes_validate_again_unchanged():
    world = World(full())
    _, http = machine(world)
    http("PUT", "/api/files/b.bin", "alice", [0, 200])
    http("POST", "/share", "alice", "path=reports&user=bob")
    http("POST", "/delete", "alice", "path=todo.md")
    built = state(world)
    rest = {k: v for k, v in built.items() if k not in ("users", "sessions", "next_session")}
    assert Drive().validate(copy.deepcopy(rest), "x", built["users"]) == rest


def test_a_request_never_mutates_the_state_it_was_given():
    service = Drive()
    start = service.initial({"users": USERS, "files": FILES}, "x")
    frozen = copy.deepcopy(start)
    form = Headers((("Content-Type", "application/x-www-form-urlencoded"), ("Authorization", auth("alice")["Authorization"])))
    s = start
    for method, path, body in (("PUT", "/api/files/reports/n.txt", b"n"), ("POST", "/share", b"path=reports&user=bob"),
                               ("POST", "/rename", b"path=reports&name=r"), ("POST", "/delete", b"path=r"),
                               ("POST", "/trash/1/restore", b""), ("POST", "/upload", b"folder=&name=u.txt&content=u")):
        response, after = service.handle(s, Request(method, parse_url(URL + path), form, body), "reception", 0)
        assert response.status in (201, 303), (path, response.body)
        s = after
    assert start == frozen
    assert sorted(s["files"]["alice"]) == ["r", "r/2026", "r/n.txt", "r/q3.txt", "todo.md", "u.txt"]
    assert s["shares"] == [{"owner": "alice", "path": "r", "user": "bob"}]


# -- snapshots, replay ---------------------------------------------------------------------------

def test_a_snapshot_and_a_fork_keep_the_files_as_they_were():
    world = World(full())
    _, http = machine(world)
    snap = world.snapshot()
    http("PUT", "/api/files/todo.md", "alice", "changed")
    fork = world.fork(snap)
    _, fork_http = machine(fork)
    assert fork_http("GET", "/download/todo.md", "alice")[2] == b"- call bob\n"
    fork_http("DELETE", "/api/files/todo.md", "alice")
    assert http("GET", "/download/todo.md", "alice")[2] == b"changed"
    exported = World(full())
    exported.import_snapshot(world.export_snapshot())  # the built state passes the kind's check again
    assert exported.state_hash() == world.state_hash() and state(exported) == state(world)
    world.restore(snap)
    assert state(world)["files"]["alice"]["todo.md"]["content"] == "- call bob\n"


def test_replaying_the_same_steps_reaches_the_same_state_hash():
    world = World(full(), seed=4)
    sh, http = machine(world)
    sh("echo hi > hi.txt")
    sh(f"curl -s -u alice:pw-a -T hi.txt {URL}/api/files/reports/")
    http("POST", "/share", "alice", "path=reports/hi.txt&user=bob")
    http("POST", "/delete", "alice", "path=todo.md")
    again = replay(full(), 4, world.trajectory())
    assert again.state_hash() == world.state_hash()
    assert state(again)["files"]["alice"]["reports/hi.txt"]["content"] == "hi\n"
