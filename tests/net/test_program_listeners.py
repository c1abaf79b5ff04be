"""Programs that listen: ``python3 -m http.server PORT &`` on a machine binds (node, port)
until it is killed, and the world's network delivers requests to it after the services.

The small office (tests/net/test_network.py ``office``): reception (10.20.0.11) reaches
the file server (10.20.1.5) over one 120 us link; the file server runs the intranet
service on 8080 and the wiki on 80. Here reception and the file server have the
``python3`` package, the legal laptop does not.
"""

from __future__ import annotations

import pytest
from test_network import office, shell

from cwgym import World
from cwgym.environment.replay import replay
from cwgym.machine.commands.python3 import content_type
from cwgym.machine.filesystem import Credentials

LISTING = """<!DOCTYPE HTML>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Directory listing for /</title>
</head>
<body>
<h1>Directory listing for /</h1>
<hr>
<ul>
<li><a href="a.txt">a.txt</a></li>
<li><a href="B.json">B.json@</a></li>
<li><a href="docs/">docs/</a></li>
<li><a href="my%20page.html">my page.html</a></li>
</ul>
<hr>
</body>
</html>
"""
NOT_FOUND = """<!DOCTYPE HTML>
<html lang="en">
    <head>
        <meta charset="utf-8">
        <title>Error response</title>
    </head>
    <body>
        <h1>Error response</h1>
        <p>Error code: 404</p>
        <p>Message: File not found.</p>
        <p>Error code explanation: 404 - Nothing matches the given URI.</p>
    </body>
</html>
"""
DATE = "Thu, 17 Sep 2026 09:00:00 GMT"  # the world's wall time at tick 0
SERVED = "Serving HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ...\n"
START = "mkdir -p ~/pub/docs && cd ~/pub && echo hello > a.txt && echo '{}' > docs/data.json && ln -s docs/data.json B.json" \
        " && echo '<p>x</p>' > 'my page.html' && python3 -m http.server 8000 &"


def world_with_python(**kwargs) -> World:
    d = office()
    for computer in d["computers"]:
        if computer["id"] in ("reception", "fileserver"):
            computer["packages"] = [*computer["packages"], "python3"]
    return World(d, **kwargs)


def serving(**kwargs):
    """A world whose file server serves ``~/pub`` on 8000; its shell and reception's."""
    world = world_with_python(**kwargs)
    server, _ = shell(world, "fileserver")
    client, get = shell(world, "reception")
    assert server(START) == {"clear": False, "exit_code": 0, "pid": 2, "stderr": "", "stdout": SERVED}
    return world, server, client, get


def lines(result: dict) -> tuple[int, str, str]:
    return result["exit_code"], result["stdout"], result["stderr"]


# -- serving ----------------------------------------------------------------------------------

def test_a_second_machine_fetches_a_file_and_a_listing_as_cpython_serves_them():
    _, _, client, _ = serving()
    assert lines(client("curl -si http://fileserver:8000/a.txt")) == (0, (
        "HTTP/1.1 200 OK\r\nServer: SimpleHTTP/0.6 Python/3.12.3\r\n"
        f"Date: {DATE}\r\nContent-type: text/plain\r\nContent-Length: 6\r\n"
        f"Last-Modified: {DATE}\r\n\r\nhello\n"), "")
    assert client("curl -s http://fileserver:8000/")["stdout"] == LISTING
    assert client("curl -s http://fileserver:8000/B.json")["stdout"] == "{}\n"  # a link is followed
    assert client("curl -s 'http://fileserver:8000/my%20page.html'")["stdout"] == "<p>x</p>\n"
    assert client("curl -s -w '%{http_code}' http://fileserver:8000/docs/data.json")["stdout"] == "{}\n200"


def test_a_request_costs_what_a_services_does_and_is_journalled():
    world, _, _, get = serving()
    clock = world.runtime.clock
    before = clock.now_us
    assert get("http://10.20.1.5:8080/notes.txt")["value"]["status"] == 200  # the intranet service
    service_cost = clock.now_us - before
    before = clock.now_us
    outcome = get("http://10.20.1.5:8000/a.txt")  # the program
    assert (outcome["value"]["status"], bytes(outcome["value"]["body"])) == (200, b"hello\n")
    assert clock.now_us - before == service_cost == 240
    entries = [e for e in world.runtime.journal.entries() if e.kind.startswith("network.http")]
    assert entries[-2].data == {"method": "GET", "url": "http://10.20.1.5:8000/a.txt", "from": "reception", "to": "fileserver"}
    assert entries[-1].data == {"url": "http://10.20.1.5:8000/a.txt", "status": 200, "bytes": 6}


def test_files_are_read_when_asked_as_the_user_who_started_the_server():
    _, server, client, _ = serving()
    server("echo changed > ~/pub/a.txt; printf '<h1>home</h1>' > ~/pub/docs/index.html")
    assert client("curl -s http://fileserver:8000/a.txt")["stdout"] == "changed\n"
    assert client("curl -s http://fileserver:8000/docs/")["stdout"] == "<h1>home</h1>"
    head = client("curl -sI http://fileserver:8000/docs")["stdout"]  # a folder without its slash
    assert head.startswith("HTTP/1.1 301 Moved Permanently\r\n") and "Location: /docs/\r\n" in head
    server("chmod 000 ~/pub/a.txt; mkdir ~/pub/closed; chmod 300 ~/pub/closed")
    assert client("curl -s http://fileserver:8000/a.txt")["stdout"] == NOT_FOUND  # CPython: 404, not 403
    assert "<p>Message: No permission to list directory.</p>" in client("curl -s http://fileserver:8000/closed/")["stdout"]


def test_a_missing_path_is_cpythons_404_page_and_other_methods_its_501():
    _, _, client, _ = serving()
    status, out, _ = lines(client("curl -si http://fileserver:8000/nope"))
    assert status == 0 and out.startswith("HTTP/1.1 404 Not Found\r\n")
    assert "Connection: close\r\nContent-Type: text/html;charset=utf-8\r\nContent-Length: 335\r\n\r\n" in out
    assert out.endswith("\r\n\r\n" + NOT_FOUND)
    assert client("curl -s http://fileserver:8000/a.txt/")["stdout"] == NOT_FOUND  # a file is no folder
    posted = client("curl -s -o /dev/null -w '%{http_code}' -d x=1 http://fileserver:8000/a.txt")
    assert posted["stdout"] == "501"
    assert "<p>Message: Unsupported method ('DELETE').</p>" in client("curl -s -X DELETE http://fileserver:8000/")["stdout"]


def test_head_sends_the_headers_alone_and_a_fresh_copy_is_not_modified():
    _, _, client, _ = serving()
    head = client("curl -sI http://fileserver:8000/a.txt")["stdout"]
    assert head == ("HTTP/1.1 200 OK\r\nServer: SimpleHTTP/0.6 Python/3.12.3\r\n"
                    f"Date: {DATE}\r\nContent-type: text/plain\r\nContent-Length: 6\r\n"
                    f"Last-Modified: {DATE}\r\n\r\n")
    missing = client("curl -sI http://fileserver:8000/nope")["stdout"]
    assert missing.startswith("HTTP/1.1 404") and missing.endswith("Content-Length: 335\r\n\r\n")
    cached = client(f"curl -si -H 'If-Modified-Since: {DATE}' http://fileserver:8000/a.txt")["stdout"]
    assert cached == f"HTTP/1.1 304 Not Modified\r\nServer: SimpleHTTP/0.6 Python/3.12.3\r\nDate: {DATE}\r\n\r\n"
    stale = client("curl -s -H 'If-Modified-Since: Wed, 16 Sep 2026 09:00:00 GMT' http://fileserver:8000/a.txt")
    assert stale["stdout"] == "hello\n"


@pytest.mark.parametrize(("name", "expected"), [
    ("index.html", "text/html"), ("a.HTM", "text/html"), ("notes.txt", "text/plain"), ("d.json", "application/json"),
    ("s.css", "text/css"), ("app.js", "text/javascript"), ("logo.png", "image/png"), ("p.jpg", "image/jpeg"),
    ("i.svg", "image/svg+xml"), ("x.tar.gz", "application/gzip"), ("README", "application/octet-stream"),
    ("notes.md", "application/octet-stream")])
def test_the_content_type_comes_from_the_suffix(name, expected):
    assert content_type("/srv/" + name) == expected


# -- its life as a process ---------------------------------------------------------------------

def test_ps_lists_it_as_typed_and_dollar_bang_is_its_pid():
    world = world_with_python()
    run, _ = shell(world, "fileserver")
    out = run("python3 -m http.server 8000 > /dev/null & echo $!; ps -o pid,stat,args")["stdout"]
    assert out == ("3\n    PID STAT COMMAND\n      1 Ss   bash\n      2 R+   ps -o pid,stat,args\n"
                   "      3 S    python3 -m http.server 8000\n")
    assert "python3 -m http.server 8000" in run("ps aux")["stdout"]  # a later line sees it too


def test_kill_stops_it_and_the_port_refuses_again():
    _, server, client, _ = serving()
    assert lines(server("kill 3")) == (0, "", "")
    assert "python3" not in server("ps -e")["stdout"]
    assert lines(client("curl -sS http://fileserver:8000/")) == (
        7, "", "curl: (7) Failed to connect to fileserver port 8000 after 0 ms: Connection refused\n")
    assert server("python3 -m http.server 8000 &")["stdout"] == SERVED  # the port is free again


def test_a_server_is_the_end_of_its_job():
    world = world_with_python()
    run, _ = shell(world, "fileserver")
    out = run("(cd /srv/share && python3 -m http.server 8001; echo after) & echo started")
    assert out["stdout"] == "Serving HTTP on 0.0.0.0 port 8001 (http://0.0.0.0:8001/) ...\nstarted\n"
    assert run("python3 -m http.server 8002 > /tmp/log 2>&1 & cat /tmp/log")["stdout"].startswith("Serving HTTP on 0.0.0.0 port 8002")
    client, _ = shell(world, "reception")
    assert client("curl -s http://fileserver:8001/handbook.md")["stdout"].startswith("# Office handbook")


def test_a_snapshot_taken_while_it_runs_brings_it_back_after_a_kill():
    world, server, client, _ = serving()
    running = world.state_hash()
    snapshot = world.snapshot()
    text = world.export_snapshot()
    server("kill 3")
    assert client("curl -s http://fileserver:8000/a.txt")["exit_code"] == 7
    assert world.state_hash() != running
    world.restore(snapshot)
    assert world.state_hash() == running
    assert client("curl -s http://fileserver:8000/a.txt")["stdout"] == "hello\n"
    imported = world_with_python()
    imported.import_snapshot(text)
    again, _ = shell(imported, "reception")
    assert again("curl -s http://fileserver:8000/a.txt")["stdout"] == "hello\n"
    fork = world.fork()
    forked, _ = shell(fork, "fileserver")
    forked("kill 3")
    assert client("curl -s http://fileserver:8000/a.txt")["stdout"] == "hello\n"  # the fork's kill stays there


def test_a_run_with_a_server_replays_to_the_same_state():
    world, _, client, _ = serving(seed=3)
    client("curl -s http://fileserver:8000/a.txt")
    again = replay(world.definition(), 3, world.trajectory())
    assert again.state_hash() == world.state_hash()


# -- refusals ---------------------------------------------------------------------------------

def test_in_the_foreground_it_would_never_return_so_it_is_refused():
    world = world_with_python()
    run, _ = shell(world, "fileserver")
    assert lines(run("python3 -m http.server 8000 --bind 127.0.0.1")) == (2, "", (
        "python3 -m http.server runs until it is stopped; start it in the background: "
        "python3 -m http.server 8000 --bind 127.0.0.1 &\n"))
    assert "python3" not in run("ps -e")["stdout"]


def test_a_taken_port_is_refused_whether_a_service_or_a_program_holds_it():
    _, server, _, _ = serving()
    in_use = "OSError: [Errno 98] Address already in use\n"
    assert lines(server("python3 -m http.server 8080")) == (1, "", in_use)  # the intranet service
    assert lines(server("python3 -m http.server 8000")) == (1, "", in_use)  # the server already there
    assert lines(server("python3 -m http.server 8000 -b 127.0.0.1 &")) == (0, "", in_use)  # a job's status is not $?
    assert server("ps -e")["stdout"].count("python3") == 1


def test_a_privileged_port_needs_root():
    world = world_with_python()
    run, _ = shell(world, "reception")
    assert lines(run("python3 -m http.server 80")) == (1, "", "PermissionError: [Errno 13] Permission denied\n")
    machine = world.machine("reception")
    machine.cred = Credentials(0, 0)  # no world action makes a user root; the owner may
    machine.fs.viewer = machine.cred
    assert run("cd /etc && python3 -m http.server 80 &")["stdout"] == "Serving HTTP on 0.0.0.0 port 80 (http://0.0.0.0:80/) ...\n"
    other, _ = shell(world, "legal-laptop")
    assert other("curl -s -o /dev/null -w '%{http_code}' http://reception/")["stdout"] == "200"


def test_a_loopback_server_answers_only_its_own_machine():
    world = world_with_python()
    run, _ = shell(world, "reception")
    assert run("python3 -m http.server 8000 --bind 127.0.0.1 &")["stdout"] == (
        "Serving HTTP on 127.0.0.1 port 8000 (http://127.0.0.1:8000/) ...\n")
    assert run("curl -s -o /dev/null -w '%{http_code}' http://localhost:8000/")["stdout"] == "200"
    assert run("curl -s http://10.20.0.11:8000/")["exit_code"] == 7  # its own address is not loopback
    server, _ = shell(world, "fileserver")
    assert server("curl -s http://reception:8000/")["exit_code"] == 7
    assert run("python3 -m http.server 8001 -b 10.20.0.11 &")["exit_code"] == 0  # its own address
    assert server("curl -s -o /dev/null -w '%{http_code}' http://reception:8001/")["stdout"] == "200"
    assert run("curl -s http://localhost:8001/")["exit_code"] == 7
    assert lines(run("python3 -m http.server 8002 --bind 10.9.9.9")) == (1, "", "OSError: [Errno 99] Cannot assign requested address\n")


@pytest.mark.parametrize(("command", "status", "stderr"), [
    ("python3 -m http.server 70000", 1, "OverflowError: bind(): port must be 0-65535.\n"),
    ("python3 -m http.server -- -1", 1, "OverflowError: bind(): port must be 0-65535.\n"),
    ("python3 -m http.server 0", 2, "python3: http.server on port 0 (any free port) is not modelled in this world; name a port from 1 to 65535\n"),
    ("python3 -m http.server -d /nope", 1, "FileNotFoundError: [Errno 2] No such file or directory: '/nope'\n"),
    ("python3 -m http.server --directory=/etc/hosts", 1, "NotADirectoryError: [Errno 20] Not a directory: '/etc/hosts'\n"),
    ("python3 -m http.server -d /root", 1, "PermissionError: [Errno 13] Permission denied: '/root'\n"),
    ("python3 -m http.server --cgi", 2, "python3: http.server --cgi is not modelled in this world\n"),
    ("python3 -m http.server -b fileserver", 2, "python3: http.server --bind takes an address in this world (0.0.0.0, 127.0.0.1, localhost or 10.20.0.11), not the name 'fileserver'\n"),
    ("python3 -m http.server abc", 2, "usage: server.py [-h] [--cgi] [-b ADDRESS] [-d DIRECTORY] [-p VERSION] [port]\n"
                                      "server.py: error: argument port: invalid int value: 'abc'\n"),
    ("python3 -m http.server 8000 9000", 2, "usage: server.py [-h] [--cgi] [-b ADDRESS] [-d DIRECTORY] [-p VERSION] [port]\n"
                                            "server.py: error: unrecognized arguments: 9000\n"),
    ("python3 -m http.server -b", 2, "usage: server.py [-h] [--cgi] [-b ADDRESS] [-d DIRECTORY] [-p VERSION] [port]\n"
                                     "server.py: error: argument -b/--bind: expected one argument\n"),
])
def test_bad_lines_are_refused_as_cpython_refuses_them(command, status, stderr):
    world = world_with_python()
    run, _ = shell(world)
    assert lines(run(command)) == (status, "", stderr)
    assert lines(run(command + " &"))[2] == stderr  # in the background too, and nothing stays
    assert "python3" not in run("ps -e")["stdout"]


def test_only_http_server_is_there_and_help_is_cpythons():
    world = world_with_python()
    run, _ = shell(world)
    only = "python3: only 'python3 -m http.server' is available in this world\n"
    for command in ("python3", "python3 script.py", "python3 -c 'print(1)'", "python3 -m venv env", "python3 -m"):
        assert lines(run(command)) == (2, "", only), command
    assert lines(run("python3 --version")) == (0, "Python 3.12.3\n", "")
    status, out, _ = lines(run("python3 -u -m http.server -h"))
    assert status == 0 and out.startswith("usage: server.py [-h]") and "  -b ADDRESS, --bind ADDRESS\n" in out


def test_a_machine_without_the_python3_package_has_no_python3():
    world = world_with_python()
    run, _ = shell(world, "legal-laptop")
    assert lines(run("python3 -m http.server 8000")) == (127, "", "python3: command not found\n")
    assert lines(run("python3 -m http.server 8000 &")) == (0, "", "python3: command not found\n")
    assert "python3" not in run("ps -e")["stdout"]
