"""The resolver and interface commands: host, nslookup, getent and ip, with their exact
output and exit codes, the packages that decide whether they exist, /etc/hosts, and a
machine outside a world."""

from __future__ import annotations

import copy

import pytest
from test_network import office, shell

from cwgym import World

HOST_USAGE_HEAD = "Usage: host [-aCdilrTvVw] [-c class] [-N ndots] [-t type] [-W time]\n"
SERVER = "Server:\t\t127.0.0.53\nAddress:\t127.0.0.53#53\n\n"
TRY = "Try `getent --help' or `getent --usage' for more information.\n"
RECEPTION_MAC = "52:54:00:06:6a:4a"  # sha256("reception")[:3]


def run_on(machine: str = "reception", world: dict | None = None):
    run, _ = shell(World(world or office(), seed=1), machine)
    return run


def outcome(result: dict) -> tuple[int, str, str]:
    return result["exit_code"], result["stdout"], result["stderr"]


# -- host -----------------------------------------------------------------------------------

HOST = [
    ("host intranet.office.internal", 0, "intranet.office.internal has address 10.20.1.5\n", ""),
    ("host docs.office.internal", 0,
     "docs.office.internal is an alias for intranet.office.internal.\nintranet.office.internal has address 10.20.1.5\n", ""),
    ("host -t A docs.office.internal", 0,
     "docs.office.internal is an alias for intranet.office.internal.\nintranet.office.internal has address 10.20.1.5\n", ""),
    ("host fileserver", 0, "fileserver has address 10.20.1.5\n", ""),
    ("host localhost", 0, "localhost has address 127.0.0.1\n", ""),
    ("host nope.internal", 1, "Host nope.internal not found: 3(NXDOMAIN)\n", ""),
    ("host 10.20.1.5", 1, "Host 5.1.20.10.in-addr.arpa. not found: 3(NXDOMAIN)\n", ""),
    ("host -t MX office.internal", 1, "", "host: query type 'MX' is not supported here; supported: A\n"),
    ("host -v fileserver", 1, "", "host: verbose output (-v) is not supported here; only plain A lookups are\n"),
    ("host -a fileserver", 1, "", "host: verbose output (-a) is not supported here; only plain A lookups are\n"),
    ("host fileserver 10.20.1.5", 1, "", "host: asking a named server is not supported here; the machine's resolver answers\n"),
    ("host -V", 0, "", "host 9.18.30-0ubuntu0.24.04.2\n"),
]


@pytest.mark.parametrize(("command", "status", "stdout", "stderr"), HOST, ids=[c[0] for c in HOST])
def test_host(command, status, stdout, stderr):
    assert outcome(run_on()(command)) == (status, stdout, stderr)


def test_host_usage_and_bad_options_print_bind9s_usage_on_stderr():
    run = run_on()
    bare = run("host")
    assert (bare["exit_code"], bare["stdout"]) == (1, "")
    assert bare["stderr"].startswith(HOST_USAGE_HEAD) and bare["stderr"].endswith("-6 use IPv6 query transport only\n")
    assert bare["stderr"].count("\n") == 23
    bad = run("host -z fileserver")
    assert bad["exit_code"] == 1 and bad["stderr"] == "host: illegal option -- z\n" + bare["stderr"]
    missing = run("host -t")
    assert missing["stderr"] == "host: option requires an argument -- t\n" + bare["stderr"]


# -- nslookup -------------------------------------------------------------------------------

NSLOOKUP = [
    ("nslookup docs.office.internal", 0,
     SERVER + "Non-authoritative answer:\ndocs.office.internal\tcanonical name = intranet.office.internal.\n"
     "Name:\tintranet.office.internal\nAddress: 10.20.1.5\n\n", ""),
    ("nslookup -type=A fileserver", 0, SERVER + "Non-authoritative answer:\nName:\tfileserver\nAddress: 10.20.1.5\n\n", ""),
    ("nslookup nope.internal", 1, SERVER + "** server can't find nope.internal: NXDOMAIN\n\n", ""),
    ("nslookup 10.20.1.5", 1, "** server can't find 5.1.20.10.in-addr.arpa: NXDOMAIN\n\n", ""),
    ("nslookup", 1, "", "nslookup: interactive mode is not supported here; give the name to look up: nslookup NAME\n"),
    ("nslookup -", 1, "", "nslookup: interactive mode is not supported here; give the name to look up: nslookup NAME\n"),
    ("nslookup -query=MX office.internal", 1, "", "nslookup: query type 'MX' is not supported here; supported: A\n"),
    ("nslookup -debug fileserver", 1, "", "nslookup: option -debug is not supported here\n"),
    ("nslookup fileserver 8.8.8.8", 1, "",
     "nslookup: asking a named server is not supported here; the machine's resolver answers\n"),
    ("nslookup -bogus fileserver", 0,
     "*** Invalid option: bogus\n" + SERVER + "Non-authoritative answer:\nName:\tfileserver\nAddress: 10.20.1.5\n\n", ""),
]


@pytest.mark.parametrize(("command", "status", "stdout", "stderr"), NSLOOKUP, ids=[c[0] for c in NSLOOKUP])
def test_nslookup(command, status, stdout, stderr):
    assert outcome(run_on()(command)) == (status, stdout, stderr)


def test_nslookup_names_the_nameserver_of_resolv_conf():
    d = office()
    reception = next(c for c in d["computers"] if c["id"] == "reception")
    reception["initial_files"]["/etc/resolv.conf"] = "nameserver 10.20.1.5\n"
    result = run_on(world=d)("nslookup fileserver")
    assert result["stdout"].startswith("Server:\t\t10.20.1.5\nAddress:\t10.20.1.5#53\n\n")


# -- getent ---------------------------------------------------------------------------------

GETENT = [
    ("getent hosts localhost", 0, "127.0.0.1       localhost\n", ""),
    ("getent hosts fileserver", 0, "10.20.1.5       fileserver\n", ""),
    ("getent hosts reception", 0, "127.0.1.1       reception\n", ""),
    ("getent hosts docs.office.internal", 0, "10.20.1.5       intranet.office.internal docs.office.internal\n", ""),
    ("getent hosts ip6-loopback", 0, "::1             ip6-localhost ip6-loopback\n", ""),
    ("getent hosts 127.0.0.1", 0, "127.0.0.1       localhost\n", ""),
    ("getent hosts fileserver nope.internal", 2, "10.20.1.5       fileserver\n", ""),
    ("getent hosts 10.20.1.5", 2, "", ""),
    ("getent hosts", 0, "127.0.0.1       localhost\n127.0.1.1       reception\n127.0.0.1       ip6-localhost ip6-loopback\n", ""),
    ("getent ahosts docs.office.internal", 0,
     "10.20.1.5       STREAM intranet.office.internal\n10.20.1.5       DGRAM  \n10.20.1.5       RAW    \n", ""),
    ("getent passwd grace", 0, "grace:x:1000:1000::/home/grace:/bin/bash\n", ""),
    ("getent passwd 0 1000", 0, "root:x:0:0::/root:/bin/bash\ngrace:x:1000:1000::/home/grace:/bin/bash\n", ""),
    ("getent passwd nobody linus", 2, "nobody:x:65534:65534::/nonexistent:/usr/sbin/nologin\n", ""),
    ("getent group", 0, "root:x:0:\ndaemon:x:1:\nnogroup:x:65534:\ngrace:x:1000:\n", ""),
    ("getent group 65534", 0, "nogroup:x:65534:\n", ""),
    ("getent", 1, TRY, "getent: wrong number of arguments\n"),
    ("getent frobs", 1, TRY, "Unknown database: frobs\n"),
    ("getent services http", 1, "",
     "getent: the services database is not supported here; supported: ahosts ahostsv4 group hosts passwd\n"),
    ("getent -x hosts", 64, "", "getent: invalid option -- 'x'\n" + TRY),
]


@pytest.mark.parametrize(("command", "status", "stdout", "stderr"), GETENT, ids=[c[0] for c in GETENT])
def test_getent(command, status, stdout, stderr):
    assert outcome(run_on()(command)) == (status, stdout, stderr)


def test_getent_passwd_lists_every_user_and_each_machine_its_own():
    assert run_on()("getent passwd")["stdout"] == (
        "root:x:0:0::/root:/bin/bash\n"
        "daemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n"
        "nobody:x:65534:65534::/nonexistent:/usr/sbin/nologin\n"
        "grace:x:1000:1000::/home/grace:/bin/bash\n"
    )
    assert run_on("fileserver")("getent passwd admin")["stdout"] == "admin:x:1000:1000::/home/admin:/bin/bash\n"


def test_etc_hosts_answers_getent_and_host_first():
    d = office()
    reception = next(c for c in d["computers"] if c["id"] == "reception")
    reception["initial_files"]["/etc/hosts"] = "127.0.0.1 localhost\n10.20.1.5  files share  # the file server\n"
    run = run_on(world=d)
    assert outcome(run("getent hosts share")) == (0, "10.20.1.5       files share\n", "")
    assert outcome(run("host files")) == (0, "files has address 10.20.1.5\n", "")
    assert outcome(run("getent hosts reception")) == (0, "10.20.0.11      reception\n", "")  # now from DNS


# -- ip -------------------------------------------------------------------------------------

ADDR_LO = (
    "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000\n"
    "    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n"
    "    inet 127.0.0.1/8 scope host lo\n"
    "       valid_lft forever preferred_lft forever\n"
    "    inet6 ::1/128 scope host noprefixroute \n"
    "       valid_lft forever preferred_lft forever\n"
)
ADDR_ETH0 = (
    "2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc fq_codel state UP group default qlen 1000\n"
    f"    link/ether {RECEPTION_MAC} brd ff:ff:ff:ff:ff:ff\n"
    "    inet 10.20.0.11/24 brd 10.20.0.255 scope global dynamic noprefixroute eth0\n"
    "       valid_lft 86400sec preferred_lft 86400sec\n"
)
BRIEF = "lo               UNKNOWN        127.0.0.1/8 ::1/128 \neth0             UP             10.20.0.11/24 \n"
ROUTES = ("default via 10.20.0.1 dev eth0 proto dhcp src 10.20.0.11 metric 100 \n"
          "10.20.0.0/24 dev eth0 proto kernel scope link src 10.20.0.11 metric 100 \n")
DENIED = "RTNETLINK answers: Operation not permitted\n"

IP = [
    ("ip -brief addr", 0, BRIEF, ""),
    ("ip -br a", 0, BRIEF, ""),
    ("ip -br addr show", 0, BRIEF, ""),
    ("ip -4 -br a", 0, "lo               UNKNOWN        127.0.0.1/8 \neth0             UP             10.20.0.11/24 \n", ""),
    ("ip -6 -br a", 0, "lo               UNKNOWN        ::1/128 \n", ""),
    ("ip addr", 0, ADDR_LO + ADDR_ETH0, ""),
    ("ip a show dev eth0", 0, ADDR_ETH0, ""),
    ("ip a show wlan0", 1, "", 'Device "wlan0" does not exist.\n'),
    ("ip -br link", 0, "lo               UNKNOWN        00:00:00:00:00:00 <LOOPBACK,UP,LOWER_UP> \n"
     f"eth0             UP             {RECEPTION_MAC} <BROADCAST,MULTICAST,UP,LOWER_UP> \n", ""),
    ("ip link show lo", 0,
     "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000\n"
     "    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n", ""),
    ("ip route", 0, ROUTES, ""),
    ("ip r show", 0, ROUTES, ""),
    ("ip route get 10.20.1.5", 0, "10.20.1.5 via 10.20.0.1 dev eth0 src 10.20.0.11 uid 1000 \n    cache \n", ""),
    ("ip route get 10.20.0.12", 0, "10.20.0.12 dev eth0 src 10.20.0.11 uid 1000 \n    cache \n", ""),
    ("ip foo", 1, "", 'Object "foo" is unknown, try "ip help".\n'),
    ("ip -x addr", 255, "", 'Option "-x" is unknown, try "ip -help".\n'),
    ("ip addr frob", 255, "", 'Command "frob" is unknown, try "ip address help".\n'),
    ("ip neigh", 1, "", 'ip: object "neighbor" is not supported here; supported: address, link, route\n'),
    ("ip -j addr", 1, "", 'ip: option "-j" is not supported here\n'),
    ("ip addr add 10.20.0.99/24 dev eth0", 2, "", DENIED),
    ("ip link set eth0 down", 2, "", DENIED),
    ("ip route del default", 2, "", DENIED),
]


@pytest.mark.parametrize(("command", "status", "stdout", "stderr"), IP, ids=[c[0] for c in IP])
def test_ip(command, status, stdout, stderr):
    assert outcome(run_on()(command)) == (status, stdout, stderr)


def test_ip_without_an_object_prints_the_usage_and_exits_255():
    result = run_on()("ip")
    assert (result["exit_code"], result["stdout"]) == (255, "")
    assert result["stderr"].startswith("Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }\n")
    assert result["stderr"].endswith("-c[olor]}\n")


def test_ip_describes_each_machine_and_its_lease_counts_down_on_the_world_clock():
    on_server = run_on("fileserver")
    assert on_server("ip route")["stdout"] == (
        "default via 10.20.1.1 dev eth0 proto dhcp src 10.20.1.5 metric 100 \n"
        "10.20.1.0/24 dev eth0 proto kernel scope link src 10.20.1.5 metric 100 \n"
    )
    server_mac = on_server("ip -br link show eth0")["stdout"].split()[2]
    assert server_mac.startswith("52:54:00:") and server_mac != RECEPTION_MAC
    assert on_server("ip -br link show eth0")["stdout"].split()[2] == server_mac  # stable
    run = run_on()
    assert "valid_lft 86300sec preferred_lft 86300sec\n" in run("sleep 100; ip -4 addr show eth0")["stdout"]


# -- packages and machines outside a world --------------------------------------------------

def test_a_machine_without_the_packages_has_no_such_commands():
    d = copy.deepcopy(office())
    reception = next(c for c in d["computers"] if c["id"] == "reception")
    reception["packages"] = [p for p in reception["packages"] if p not in ("bind9-host", "bind9-dnsutils", "iproute2")]
    run = run_on(world=d)
    for name in ("host", "nslookup", "ip"):
        assert outcome(run(f"{name} fileserver")) == (127, "", f"{name}: command not found\n")
    assert outcome(run("getent hosts fileserver")) == (0, "10.20.1.5       fileserver\n", "")  # libc's, always there


def test_a_machine_outside_a_world_has_files_but_no_resolver():
    from cwgym.machine.machine import Machine
    from cwgym.protocol.definition import load_definition

    d = load_definition(office())
    machine = Machine(d.computers[0], d.profile(d.computers[0].profile), World(office()).runtime.clock)
    no_servers = ";; connection timed out; no servers could be reached\n"
    host = machine.execute("host fileserver")
    assert (host.exit_code, host.stdout) == (1, no_servers)
    nslookup = machine.execute("nslookup fileserver")
    assert (nslookup.exit_code, nslookup.stdout) == (1, no_servers + "\n")
    assert machine.execute("getent hosts localhost").stdout == "127.0.0.1       localhost\n"
    assert machine.execute("getent hosts fileserver").exit_code == 2
    assert machine.execute("ip -br a").stdout == BRIEF


def test_host_refuses_ipv6_transport_there_is_none():
    world = World(office())
    run, _ = shell(world)
    result = run("host -6 intranet.office.internal")
    assert result["exit_code"] == 1 and "IPv6 query transport (-6): this world's network has no IPv6" in result["stderr"]
