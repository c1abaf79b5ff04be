"""The company world: three computers, a dozen services, and the BILL-42 incident told the
same way in each of them — every link one service gives to another answers from a
workstation, through that workstation's own requests."""

from __future__ import annotations

import re

import pytest

from cwgym import World
from cwgym.resources import load_world

LINK = re.compile(r'(http://[a-z.]+\.northwind\.internal/[^"<\s)]*[^"<\s).,])')


@pytest.fixture(scope="module")
def company():
    return load_world("company")


def shell(world: World, machine: str, user: str):
    env = world.environment({"actor": user, "machines": [machine], "actions": ["terminal.v1"], "observations": []})

    def run(command: str) -> str:
        out = env.step([{"family": "terminal.v1", "op": "execute", "machine": machine, "payload": {"command": command}}])
        value = out["outcomes"][0]["value"]
        assert value["exit_code"] == 0, value
        return value["stdout"]

    return run


def test_it_is_three_computers_and_at_least_ten_services(company):
    assert len(company["computers"]) == 3
    assert len({s["kind"] for s in company["services"]}) >= 10
    World(company)


PLACES = {  # where the incident is told, and what each says of it
    "http://tracker.northwind.internal/browse/BILL-42": "CSV export cuts amounts at the thousands separator",
    "http://ask.northwind.internal/t/1": "BILL-42",
    "http://chat.northwind.internal/c/billing-eng": "BILL-42",
    "http://mail.northwind.internal/": "Acme Corp: invoice totals wrong in the CSV export (BILL-42)",
    "http://git.northwind.internal/northwind/billing/pull/2": "Fixes BILL-42",
    "http://wiki.northwind.internal/wiki/Billing_export": "BILL-42",
}


def test_the_incident_is_told_in_every_place_and_every_link_between_them_answers(company):
    world = World(company)
    maya = shell(world, "maya-ws", "maya")
    maya("curl -s -c jar -d username=maya -d password=maya-nw-2026 http://chat.northwind.internal/login -o /dev/null")
    maya("curl -s -c jar -b jar -d username=maya -d password=maya-nw-2026 http://mail.northwind.internal/login -o /dev/null")
    links = set()
    for url, text in PLACES.items():
        page = maya(f"curl -s -b jar {url}")
        assert text in page.replace("&#x27;", "'"), url
        links |= {link for link in LINK.findall(page) if "BILL-42" in link or "/pull/" in link or "/t/" in link}
    assert links >= {"http://tracker.northwind.internal/browse/BILL-42",
                     "http://git.northwind.internal/northwind/billing/pull/2", "http://ask.northwind.internal/t/1"}
    for link in sorted(links):
        assert maya(f"curl -s -o /dev/null -w '%{{http_code}}' {link}") == "200", link


def test_the_fix_on_its_branch_is_what_the_pull_request_says(company):
    world = World(company)
    omar = shell(world, "omar-ws", "omar")
    main = omar("curl -s http://git.northwind.internal/northwind/billing/raw/main/billing/export.py")
    fixed = omar("curl -s http://git.northwind.internal/northwind/billing/raw/fix-csv-thousands/billing/export.py")
    assert 'amount.split(",")[0]' in main and 'amount.replace(",", "")' in fixed
    search = omar("curl -s 'http://search.northwind.internal/search?q=BILL-42'")
    assert "http://tracker.northwind.internal/browse/BILL-42" in search


def test_the_shop_and_the_bank_answer_each_person_with_their_own():
    world = World(load_world("company"))
    omar = shell(world, "omar-ws", "omar")
    orders = omar("curl -s -u omar:omar-nw-2026 http://shop.northwind.internal/api/orders")
    assert '"id": "7058"' in orders and '"id": "7053"' not in orders  # 7053 is Maya's
    maya = shell(world, "maya-ws", "maya")
    accounts = maya("curl -s -u maya:maya-nw-2026 http://bank.northwind.internal/api/accounts")
    assert "NW-ENG-0001" in accounts and "NW-OPS-0001" not in accounts


def test_both_workstations_have_a_desktop(company):
    assert company["metadata"]["desktop_themes"] == {"maya-ws": "ubuntu", "omar-ws": "ubuntu"}
    world = World(company)
    for machine in ("maya-ws", "omar-ws"):
        assert world.runtime.machine_theme(machine) is not None, machine
