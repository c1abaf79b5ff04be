"""wget and ping on the small office: GNU Wget's log and exit codes, iputils ping's lines and
statistics, both on the logical clock and the world's seeded loss.

The office's reception reaches the file server over one link of 120 us each way, so an
echo or a request (once the name is known) takes 240 us; the file server's intranet
(tests/net/test_network.py ``office``) serves ``/``, ``/notes.txt`` and a redirect ``/old``.
"""

from __future__ import annotations

import pytest
from test_network import office, shell

from cwgym import World
from cwgym.environment.replay import replay
from cwgym.machine.commands.ping import Stats, statistics, trip_time
from cwgym.machine.commands.wget import dot_progress
from cwgym.machine.machine import Machine
from cwgym.protocol.definition import load_definition

INTRANET = "http://10.20.1.5:8080"
NOW = "2026-09-17 09:00:00"  # the world's wall time at tick 0, as wget stamps its log
#: 18 bytes in 240 us: 75000 B/s, which wget shows in KiB.
DOTS_18 = "     0K" + " " * 55 + "100% 73.2K=0s"


def result(world: World, command: str, machine: str = "reception") -> tuple[int, str, str]:
    run, _ = shell(world, machine)
    out = run(command)
    return out["exit_code"], out["stdout"], out["stderr"]


def lossy(loss_per_million: int) -> dict:
    d = office()
    d["network"]["links"][0]["loss_per_million"] = loss_per_million  # reception <-> fileserver
    return d


# -- wget ---------------------------------------------------------------------------------------

def test_wget_quiet_to_stdout_prints_only_the_page():
    world = World(office(), seed=1)
    before = world.runtime.clock.now_us
    assert result(world, f"wget -q -O - {INTRANET}/") == (0, "<h1>Intranet</h1>\n", "")
    assert world.runtime.clock.now_us - before == 240


def test_wget_logs_as_wget_and_saves_under_the_urls_name():
    world = World(office(), seed=1)
    status, out, err = result(world, "wget http://intranet.office.internal:8080/ && cat index.html")
    assert (status, out) == (0, "<h1>Intranet</h1>\n")
    assert err == (
        f"--{NOW}--  http://intranet.office.internal:8080/\n"
        "Resolving intranet.office.internal (intranet.office.internal)... 10.20.1.5\n"
        "Connecting to intranet.office.internal (intranet.office.internal)|10.20.1.5|:8080... connected.\n"
        "HTTP request sent, awaiting response... 200 OK\n"
        "Length: 18 [text/html]\n"
        "Saving to: ‘index.html’\n"
        "\n"
        f"{DOTS_18}\n"
        "\n"
        f"{NOW} (73.2 KB/s) - ‘index.html’ saved [18/18]\n"
        "\n"
    )


def test_wget_never_overwrites_it_numbers_the_next_copy():
    world = World(office(), seed=1)
    status, out, err = result(world, f"wget -q {INTRANET}/notes.txt; wget -q {INTRANET}/notes.txt; "
                                     f"wget -nv {INTRANET}/notes.txt; ls; cat notes.txt.2")
    assert (status, out) == (0, "Documents\nnotes.txt\nnotes.txt.1\nnotes.txt.2\nplain\n")
    assert err == f'{NOW} URL:{INTRANET}/notes.txt [6/6] -> "notes.txt.2" [1]\n'


def test_wget_O_names_the_file_and_several_urls_share_it():
    world = World(office(), seed=1)
    status, out, err = result(world, f"wget -O both.txt {INTRANET}/notes.txt {INTRANET}/notes.txt && cat both.txt")
    assert (status, out) == (0, "plain\nplain\n")
    assert "Saving to: ‘both.txt’\n" in err and "Reusing existing connection to 10.20.1.5:8080.\n" in err
    assert err.endswith(f"FINISHED --{NOW}--\nTotal wall clock time: 0s\nDownloaded: 2 files, 12 in 0s (24.4 KB/s)\n")


def test_wget_S_prints_the_response_head_indented_even_when_quiet():
    world = World(office(), seed=1)
    head = "  HTTP/1.1 200 OK\n  Content-Type: text/plain; charset=utf-8\n  Content-Length: 6\n"
    assert result(world, f"wget -q -S -O - {INTRANET}/notes.txt") == (0, "plain\n", head)
    _, _, err = result(world, f"wget -S -O - {INTRANET}/notes.txt")
    assert "HTTP request sent, awaiting response... \n" + head + "Length: 6 [text/plain]\nSaving to: ‘STDOUT’\n" in err
    assert err.endswith(f"{NOW} (24.4 KB/s) - written to stdout [6/6]\n\n")


def test_wget_a_404_is_exit_8_and_saves_nothing():
    world = World(office(), seed=1)
    assert result(world, f"wget {INTRANET}/missing") == (8, "", (
        f"--{NOW}--  {INTRANET}/missing\n"
        "Connecting to 10.20.1.5:8080... connected.\n"
        "HTTP request sent, awaiting response... 404 Not Found\n"
        f"{NOW} ERROR 404: Not Found.\n"
        "\n"
    ))
    assert result(world, f"wget -q {INTRANET}/missing") == (8, "", "")
    assert result(world, "ls") == (0, "Documents\n", "")


def test_wget_an_unknown_host_is_exit_4():
    world = World(office(), seed=1)
    assert result(world, "wget http://nope.internal/") == (4, "", (
        f"--{NOW}--  http://nope.internal/\n"
        "Resolving nope.internal (nope.internal)... failed: Name or service not known.\n"
        "wget: unable to resolve host address ‘nope.internal’\n"
    ))


def test_wget_a_refused_connection_is_exit_4_after_one_round_trip():
    world = World(office(), seed=1)
    before = world.runtime.clock.now_us
    assert result(world, "wget http://10.20.1.5:9/") == (4, "", (
        f"--{NOW}--  http://10.20.1.5:9/\nConnecting to 10.20.1.5:9... failed: Connection refused.\n"
    ))
    assert world.runtime.clock.now_us - before == 240


def test_wget_follows_a_redirect_on_the_kept_connection_and_keeps_the_first_name():
    world = World(office(), seed=1)
    status, out, err = result(world, f"wget {INTRANET}/old && cat old")
    assert (status, out) == (0, "<h1>Intranet</h1>\n")
    assert err == (
        f"--{NOW}--  {INTRANET}/old\n"
        "Connecting to 10.20.1.5:8080... connected.\n"
        "HTTP request sent, awaiting response... 301 Moved Permanently\n"
        "Location: / [following]\n"
        f"--{NOW}--  {INTRANET}/\n"
        "Reusing existing connection to 10.20.1.5:8080.\n"
        "HTTP request sent, awaiting response... 200 OK\n"
        "Length: 18 [text/html]\n"
        "Saving to: ‘old’\n"
        "\n"
        f"{DOTS_18}\n"
        "\n"
        f"{NOW} (73.2 KB/s) - ‘old’ saved [18/18]\n"
        "\n"
    )
    assert result(world, f"wget -q --max-redirect=0 {INTRANET}/old") == (8, "", "")
    status, _, err = result(world, f"wget --max-redirect=0 {INTRANET}/old")
    assert status == 8 and err.endswith("Location: / [following]\n0 redirections exceeded.\n")


def test_wget_spider_asks_for_the_head_only():
    world = World(office(), seed=1)
    assert result(world, f"wget --spider {INTRANET}/notes.txt; ls") == (0, "Documents\n", (
        "Spider mode enabled. Check if remote file exists.\n"
        f"--{NOW}--  {INTRANET}/notes.txt\n"
        "Connecting to 10.20.1.5:8080... connected.\n"
        "HTTP request sent, awaiting response... 200 OK\n"
        "Length: 6 [text/plain]\n"
        "Remote file exists.\n\n"
    ))
    status, _, err = result(world, f"wget --spider {INTRANET}/missing")
    assert status == 8 and err.endswith("404 Not Found\nRemote file does not exist -- broken link!!!\n\n")


def test_wget_dots_fill_rows_of_50k():
    text = dot_progress(120000, 120000, 0.00024)
    assert text == (
        "\n     0K .......... .......... .......... .......... .......... 42%  477M 0s"
        "\n    50K .......... .......... .......... .......... .......... 85%  477M 0s"
        "\n   100K .......... .......                                    100%  477M=0s\n\n"
    )
    assert dot_progress(6, 6, 0.0) == "\n     0K" + " " * 55 + "100% 11.4M=0s\n\n"  # zero time: half a microsecond


def test_wget_cannot_write_is_exit_3():
    world = World(office(), seed=1)
    status, _, err = result(world, f"cd / && wget {INTRANET}/")
    assert status == 3
    assert err.endswith("Length: 18 [text/html]\nindex.html: Permission denied\n\nCannot write to ‘index.html’ (Permission denied).\n")
    assert result(world, f"wget -q -O /nope.html {INTRANET}/") == (1, "", "/nope.html: Permission denied\n")


def test_wget_usage_and_refused_options():
    world = World(office(), seed=1)
    hint = "Usage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n"
    assert result(world, "wget") == (1, "", "wget: missing URL\n" + hint)
    assert result(world, "wget --bogus x") == (2, "", "wget: unrecognized option '--bogus'\n" + hint)
    assert result(world, "wget -r http://x/") == (2, "", "wget: unsupported option '-r' (not modelled by this simulation)\n")
    assert result(world, "wget --post-data=a http://x/")[0] == 2
    assert result(world, "wget -t 0 http://x/")[0] == 2
    assert result(world, "wget -t x http://x/") == (2, "", "wget: --tries: Invalid number ‘x’.\n")
    assert result(world, "wget -q ftp://x/") == (1, "", "")
    assert result(world, "wget ftp://x/") == (1, "", "ftp://x/: Unsupported scheme ‘ftp’.\n")


def test_wget_retries_a_lost_connection_then_gives_up():
    world = World(lossy(1_000_000), seed=1)
    before = world.runtime.clock.now_us
    # each try: SYNs at 0, 1 and 3 s, the connect gives up at -T 5 s; 1 s between tries
    assert result(world, f"wget -t 2 -T 5 {INTRANET}/") == (4, "", (
        f"--{NOW}--  {INTRANET}/\n"
        "Connecting to 10.20.1.5:8080... failed: Connection timed out.\n"
        "Retrying.\n\n"
        f"--2026-09-17 09:00:06--  (try: 2)  {INTRANET}/\n"
        "Connecting to 10.20.1.5:8080... failed: Connection timed out.\n"
        "Giving up.\n\n"
    ))
    assert world.runtime.clock.now_us - before == 11_000_000
    requests = [e for e in world.runtime.journal.entries() if e.kind == "network.http_request"]
    assert len(requests) == 6


def test_wget_needs_its_package():
    d = office()
    reception = next(c for c in d["computers"] if c["id"] == "reception")
    reception["packages"] = [p for p in reception["packages"] if p not in ("wget", "iputils-ping")]
    world = World(d, seed=1)
    assert result(world, f"wget {INTRANET}/") == (127, "", "wget: command not found\n")
    assert result(world, "ping -c 1 10.20.1.5") == (127, "", "ping: command not found\n")
    assert result(world, f"wget -q -O - {INTRANET}/notes.txt", "fileserver") == (0, "plain\n", "")


def test_a_machine_outside_a_world_has_only_its_loopback():
    d = load_definition(office())
    machine = Machine(d.computers[0], d.profile(d.computers[0].profile), World(office()).runtime.clock)
    fetched = machine.execute("wget http://intranet.office.internal:8080/")
    assert fetched.exit_code == 4 and fetched.stderr.endswith(
        "failed: Temporary failure in name resolution.\nwget: unable to resolve host address ‘intranet.office.internal’\n")
    assert machine.execute(f"wget -q {INTRANET}/").exit_code == 4
    pinged = machine.execute("ping -c 1 10.20.1.5")
    assert (pinged.exit_code, pinged.stdout, pinged.stderr) == (2, "", "ping: connect: Network is unreachable\n")
    assert machine.execute("ping -c 1 localhost").exit_code == 0


# -- ping ---------------------------------------------------------------------------------------

def test_ping_three_probes_over_the_link():
    world = World(office(), seed=1)
    before = world.runtime.clock.now_us
    assert result(world, "ping -c 3 10.20.1.5") == (0, (
        "PING 10.20.1.5 (10.20.1.5) 56(84) bytes of data.\n"
        "64 bytes from 10.20.1.5: icmp_seq=1 ttl=64 time=0.240 ms\n"
        "64 bytes from 10.20.1.5: icmp_seq=2 ttl=64 time=0.240 ms\n"
        "64 bytes from 10.20.1.5: icmp_seq=3 ttl=64 time=0.240 ms\n"
        "\n"
        "--- 10.20.1.5 ping statistics ---\n"
        "3 packets transmitted, 3 received, 0% packet loss, time 2000ms\n"
        "rtt min/avg/max/mdev = 0.240/0.240/0.240/0.000 ms\n"
    ), "")
    # probes leave at 0, 1 and 2 s; the run ends with the third reply
    assert world.runtime.clock.now_us - before == 2_000_240
    assert [e.kind for e in world.runtime.journal.entries()].count("network.echo") == 3


def test_ping_by_name_shows_the_name_and_interval_and_quiet_change_the_run():
    world = World(office(), seed=1)
    status, out, _ = result(world, "ping -c 2 wiki.office.internal")
    assert status == 0 and out.splitlines()[:3] == [
        "PING wiki.office.internal (10.20.1.5) 56(84) bytes of data.",
        "64 bytes from wiki.office.internal (10.20.1.5): icmp_seq=1 ttl=64 time=0.240 ms",
        "64 bytes from wiki.office.internal (10.20.1.5): icmp_seq=2 ttl=64 time=0.240 ms",
    ]
    before = world.runtime.clock.now_us
    assert result(world, "ping -q -c 3 -i 0.5 10.20.0.12") == (0, (  # via the file server: 270 us each way
        "PING 10.20.0.12 (10.20.0.12) 56(84) bytes of data.\n"
        "\n"
        "--- 10.20.0.12 ping statistics ---\n"
        "3 packets transmitted, 3 received, 0% packet loss, time 1000ms\n"
        "rtt min/avg/max/mdev = 0.540/0.540/0.540/0.000 ms\n"
    ), "")
    assert world.runtime.clock.now_us - before == 1_000_540


def test_ping_without_a_count_is_refused():
    world = World(office(), seed=1)
    assert result(world, "ping 10.20.1.5") == (2, "", (
        "ping: pass -c COUNT (or -w DEADLINE): without either ping runs until interrupted, "
        "and a simulated command cannot run forever\n"))
    assert [e for e in world.runtime.journal.entries() if e.kind == "network.echo"] == []


def test_ping_errors_as_iputils_words_them():
    world = World(office(), seed=1)
    assert result(world, "ping -c 1 nope.internal") == (2, "", "ping: nope.internal: Name or service not known\n")
    assert result(world, "ping") == (2, "", "ping: usage error: Destination address required\n")
    assert result(world, "ping -c 0 10.20.1.5") == (
        1, "", "ping: invalid argument: '0': out of range: 1 <= value <= 9223372036854775807\n")
    assert result(world, "ping -c 1 -W -1 10.20.1.5") == (2, "", "ping: bad linger time: -1\n")
    assert result(world, "ping -c 1 -i 0.001 10.20.1.5") == (2, "PING 10.20.1.5 (10.20.1.5) 56(84) bytes of data.\n",
                                                           "ping: cannot flood, minimal interval for user must be >= 2 ms, "
                                                           "use -i 0.002 (or higher)\n")
    assert result(world, "ping -c 1 -s 100 10.20.1.5") == (2, "", "ping: unsupported option '-s' (not modelled by this simulation)\n")
    assert result(world, "ping -c 1 8.8.8.8") == (2, "", "ping: connect: Network is unreachable\n")


def test_ping_loopback_answers_at_once():
    world = World(office(), seed=1)
    before = world.runtime.clock.now_us
    assert result(world, "ping -c 2 localhost") == (0, (
        "PING localhost (127.0.0.1) 56(84) bytes of data.\n"
        "64 bytes from localhost (127.0.0.1): icmp_seq=1 ttl=64 time=0.000 ms\n"
        "64 bytes from localhost (127.0.0.1): icmp_seq=2 ttl=64 time=0.000 ms\n"
        "\n"
        "--- localhost ping statistics ---\n"
        "2 packets transmitted, 2 received, 0% packet loss, time 1000ms\n"
        "rtt min/avg/max/mdev = 0.000/0.000/0.000/0.000 ms\n"
    ), "")
    assert world.runtime.clock.now_us - before == 1_000_000
    assert result(world, "ping -c 1 -n 127.0.0.1")[1].splitlines()[1] == "64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.000 ms"


def test_ping_a_neighbour_nobody_holds_is_host_unreachable():
    world = World(office(), seed=1)
    assert result(world, "ping -c 2 10.20.0.99") == (1, (
        "PING 10.20.0.99 (10.20.0.99) 56(84) bytes of data.\n"
        "From 10.20.0.11 icmp_seq=1 Destination Host Unreachable\n"
        "From 10.20.0.11 icmp_seq=2 Destination Host Unreachable\n"
        "\n"
        "--- 10.20.0.99 ping statistics ---\n"
        "2 packets transmitted, 0 received, +2 errors, 100% packet loss, time 1000ms\n"
        "\n"
    ), "")


def test_ping_all_lost_waits_the_timeout_and_exits_1():
    world = World(lossy(1_000_000), seed=1)
    before = world.runtime.clock.now_us
    assert result(world, "ping -c 2 -W 3 10.20.1.5") == (1, (
        "PING 10.20.1.5 (10.20.1.5) 56(84) bytes of data.\n"
        "\n"
        "--- 10.20.1.5 ping statistics ---\n"
        "2 packets transmitted, 0 received, 100% packet loss, time 1000ms\n"
        "\n"
    ), "")
    assert world.runtime.clock.now_us - before == 4_000_000  # the last probe at 1 s, then -W 3


def test_ping_loss_is_drawn_from_the_seed_and_replays():
    runs = []
    for _ in range(2):
        world = World(lossy(300_000), seed=7)
        runs.append((result(world, "ping -c 20 10.20.1.5"), world.state_hash(), world))
    (first, hash_one, world), (second, hash_two, _) = runs
    assert first == second and hash_one == hash_two
    status, out, _ = first
    echoes = [e for e in world.runtime.journal.entries() if e.kind == "network.echo"]
    replies = out.count("64 bytes from")
    assert len(echoes) == 20 and replies == sum(not e.data["lost"] for e in echoes)
    assert 0 < replies < 20 and status == 0
    assert f"20 packets transmitted, {replies} received, {(20 - replies) * 5}% packet loss, time 19000ms\n" in out
    again = replay(lossy(300_000), 7, world.trajectory())
    assert again.state_hash() == hash_one


def test_ping_formats_times_as_iputils():
    assert [trip_time(us) for us in (0, 240, 999, 1000, 1234, 9994, 9995, 12345, 99949, 99950, 123456)] == [
        "0.000", "0.240", "0.999", "1.00", "1.23", "9.99", "10.0", "12.3", "99.9", "100", "123"]
    stats = Stats()
    stats.sent = 3
    for rtt in (100, 200, 600):
        stats.reply(rtt)
    stats.last_us = 2_000_000
    assert statistics("x", stats, 1000) == (
        "\n--- x ping statistics ---\n"
        "3 packets transmitted, 3 received, 0% packet loss, time 2000ms\n"
        "rtt min/avg/max/mdev = 0.100/0.300/0.600/0.216 ms\n"
    )
    stats.sent = 4
    assert "4 packets transmitted, 3 received, 25% packet loss" in statistics("x", stats, 1000)
    stats.sent = 3
    stats = Stats()
    stats.sent = 3
    for rtt in (100, 200):
        stats.reply(rtt)
    stats.last_us = 2_000_000
    assert ", 33.3333% packet loss" in statistics("x", stats, 1000)
    # -i 0 (root only) adds the mean gap between sends and the smoothed round trip
    assert statistics("x", stats, 0).endswith("0.100/0.150/0.200/0.050 ms, ipg/ewma 1000.000/0.112 ms\n")


@pytest.mark.parametrize("command", ["wget -q -O - http://10.20.1.5:8080/", "ping -c 3 -q 10.20.1.5"])
def test_network_commands_replay_to_the_same_state(command):
    world = World(lossy(250_000), seed=11)
    result(world, command)
    assert replay(lossy(250_000), 11, world.trajectory()).state_hash() == world.state_hash()
