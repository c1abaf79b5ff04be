"""The network as each machine sees it: /etc/hosts and resolv.conf, names of computers,
packages deciding which network commands exist, a writable static share that carries a
change from one machine to another only through requests, and the topology changing
under add_computer / remove_computer / reset."""

from __future__ import annotations

import copy

import pytest
from test_network import office, shell

from cwgym import World


def writable_office() -> dict:
    d = office()
    d["services"].append({"id": "share", "kind": "static", "node": "fileserver", "port": 8081,
                          "domains": ["share.office.internal"], "initial_state": {"files": {}, "writable": True}})
    return d


# -- /etc ------------------------------------------------------------------------------------

def test_each_machine_has_hosts_and_resolv_conf_naming_itself():
    world = World(office())
    run, _ = shell(world)
    hosts = run("cat /etc/hosts")["stdout"]
    assert hosts.startswith("127.0.0.1\tlocalhost\n127.0.1.1\treception\n")
    assert "nameserver 127.0.0.53\n" in run("cat /etc/resolv.conf")["stdout"]


def test_etc_hosts_is_honoured_by_curl_and_http_v1_on_that_machine_only():
    d = office()
    reception = next(c for c in d["computers"] if c["id"] == "reception")
    reception["initial_files"]["/etc/hosts"] = "127.0.0.1 localhost\n10.20.1.5  files  # the file server\n"
    world = World(d)
    run, get = shell(world)
    assert run("cat /etc/hosts")["stdout"].endswith("files  # the file server\n")  # the world's own, kept
    assert run("curl -s http://files:8080/notes.txt")["stdout"] == "plain\n"
    assert get("http://files:8080/notes.txt")["value"]["status"] == 200
    other, _ = shell(world, "legal-laptop")
    assert other("curl -s http://files:8080/notes.txt")["exit_code"] == 6


def test_localhost_is_the_machine_itself():
    world = World(office())
    on_server, _ = shell(world, "fileserver")
    assert on_server("curl -s http://localhost:8080/notes.txt")["stdout"] == "plain\n"
    run, _ = shell(world)
    result = run("curl -sS http://localhost:8080/")
    assert (result["exit_code"], result["stderr"]) == (7, "curl: (7) Failed to connect to localhost port 8080 after 0 ms: Connection refused\n")


def test_a_computer_is_known_on_the_network_by_its_id():
    world = World(office())
    run, _ = shell(world)
    assert run("curl -s http://fileserver:8080/notes.txt")["stdout"] == "plain\n"


def test_machines_and_their_processes_stay_isolated():
    world = World(office())
    alice, _ = shell(world, "reception")
    bob, _ = shell(world, "legal-laptop")
    alice("echo secret > /tmp/mine; sleep 5 &")
    assert bob("cat /tmp/mine")["exit_code"] == 1
    assert "sleep" not in bob("ps -e")["stdout"]
    assert "sleep" in alice("ps -e")["stdout"]


# -- packages --------------------------------------------------------------------------------

def test_a_network_command_exists_only_where_its_package_is_installed():
    d = office()
    reception = next(c for c in d["computers"] if c["id"] == "reception")
    reception["packages"] = ["coreutils"]
    world = World(d)
    run, _ = shell(world)
    result = run("curl -s http://intranet.office.internal:8080/")
    assert (result["exit_code"], result["stderr"]) == (127, "curl: command not found\n")
    assert run("which curl")["exit_code"] == 1
    assert run("/usr/bin/curl x")["exit_code"] == 127
    assert run("type curl")["exit_code"] == 1
    other, _ = shell(world, "legal-laptop")
    assert other("which curl")["stdout"] == "/usr/bin/curl\n"


# -- a change travels only as a request ------------------------------------------------------

def test_an_upload_on_one_machine_is_seen_by_another_only_through_its_own_request():
    world = World(writable_office())
    alice, _ = shell(world, "reception")
    bob, _ = shell(world, "legal-laptop")
    url = "http://share.office.internal:8081/plan.txt"
    assert bob(f"curl -s -o /dev/null -w '%{{http_code}}' {url}")["stdout"] == "404"
    alice("echo 'meet at 10' > plan.txt")
    assert alice(f"curl -s -w '%{{http_code}}' -X PUT -d @plan.txt {url}")["stdout"].endswith("201")
    before = world.state_hash()
    assert bob(f"curl -s {url}")["stdout"] == "meet at 10"  # curl -d drops the newline, as real curl does
    assert alice(f"curl -s -w '%{{http_code}}' -X DELETE {url}")["stdout"] == "204"
    assert bob(f"curl -s -o /dev/null -w '%{{http_code}}' {url}")["stdout"] == "404"
    assert world.state_hash() != before


def test_a_read_only_share_refuses_uploads_and_an_import_must_hold_a_valid_state():
    world = World(office())
    run, _ = shell(world)
    result = run("curl -s -i -X PUT -d x http://intranet.office.internal:8080/new.txt")
    assert result["stdout"].startswith("HTTP/1.1 405 Method Not Allowed\r\n")
    assert "Allow: GET, HEAD\r\n" in result["stdout"]
    text = world.export_snapshot().replace('"writable":false', '"writable":"yes"')
    with pytest.raises(ValueError, match="writable"):
        World(office()).import_snapshot(text)


def test_uploads_are_in_snapshots_and_forks_and_replay():
    from cwgym.environment.replay import replay

    world = World(writable_office())
    world.enable_replay_verification(True)
    alice, _ = shell(world)
    url = "http://share.office.internal:8081/a.txt"
    alice(f"curl -s -X PUT -d one {url}")
    snap = world.snapshot()
    alice(f"curl -s -X PUT -d two {url}")
    fork = world.fork(snap)
    fork_run, _ = shell(fork)
    assert fork_run(f"curl -s {url}")["stdout"] == "one"
    assert alice(f"curl -s {url}")["stdout"] == "two"
    again = replay(writable_office(), 0, world.trajectory())
    assert again.state_hash() == world.state_hash()


# -- the topology changes --------------------------------------------------------------------

LAPTOP = {"id": "new-laptop", "profile": "ubuntu", "address": "10.20.0.30", "user": "nia", "packages": ["curl"]}
NODE = {"id": "new-laptop", "address": "10.20.0.30"}
LINK = {"from": "new-laptop", "to": "fileserver", "latency_us": 40}


def test_an_added_computer_is_routed_named_and_in_the_definition_and_reset_returns_to_the_blueprint():
    d = office()
    world = World(d)
    profile = d["computers"][0]["profile"]
    world.add_computer({**LAPTOP, "profile": profile}, NODE, [LINK])
    run, _ = shell(world, "new-laptop")
    t0 = world.runtime.clock.now_us
    assert run("curl -s http://intranet.office.internal:8080/notes.txt")["stdout"] == "plain\n"
    assert world.runtime.clock.now_us - t0 >= 2 * 40
    server, _ = shell(world, "fileserver")
    assert server("getent hosts new-laptop")["stdout"].split() == ["10.20.0.30", "new-laptop"]
    now = world.definition()
    assert [c["id"] for c in now["computers"]][-1] == "new-laptop"
    assert now["network"]["links"][-1]["from"] == "new-laptop"
    assert World(now).state_hash()  # what it reports is a definition a world loads
    world.remove_computer("new-laptop")
    assert "new-laptop" not in [c["id"] for c in world.definition()["computers"]]
    assert server("getent hosts new-laptop")["exit_code"] == 2
    world.add_computer({**LAPTOP, "profile": profile}, NODE, [LINK])
    world.reset()
    assert world.definition() == World(d).definition()
    assert "new-laptop" not in world.runtime.machines
    assert server("getent hosts new-laptop")["exit_code"] == 2


def test_a_definition_unchanged_is_the_blueprint():
    d = copy.deepcopy(office())
    world = World(d)
    assert world.definition() is not world.definition()  # a copy each time
    assert world.definition() == world.runtime.definition_plain
