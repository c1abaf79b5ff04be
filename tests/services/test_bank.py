"""The bank kind end to end: accounts and statements with running balances, transfers between
own accounts and to other people (moving money exactly once, refusing more than the balance
or the daily limit), payees, CSV statements, strict privacy, and state that snapshots, forks
and replays."""

from __future__ import annotations

import copy
import json

import pytest
from service_client import SiteClient

from cwgym import World
from cwgym.environment.replay import replay
from cwgym.protocol.definition import DefinitionError
from cwgym.resources import load_world
from cwgym.services.bank import Bank

HOST = "http://bank.office.internal:8080"
STATE = {
    "users": [{"name": "ann", "password": "pw", "display": "Ann Lee"}, {"name": "bob", "password": "pw", "display": "Bob Ray"}],
    "daily_limit_cents": 50_000,
    "accounts": [
        {"number": "1001", "owner": "ann", "balance_cents": 100_000,
         "transactions": [{"date": "2026-09-01", "description": "Salary", "amount_cents": 150_000},
                          {"date": "2026-09-05", "description": "Rent", "amount_cents": -80_000}]},
        {"number": "1002", "owner": "ann", "kind": "savings", "balance_cents": 20_000},
        {"number": "2001", "owner": "bob", "balance_cents": 500},
    ],
}


def definition(state=STATE) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "bank", "kind": "bank", "node": "fileserver", "port": 8080,
                          "domains": ["bank.office.internal"], "initial_state": copy.deepcopy(state)})
    d["network"]["dns"].append({"name": "bank.office.internal", "address": "10.20.1.5", "resolver": "fileserver"})
    return d


class Machine(SiteClient):
    host = HOST


def state_of(world: World) -> dict:
    return world.runtime.network.services["bank"]


def balances(world: World) -> dict[str, int]:
    return {n: a["balance_cents"] for n, a in sorted(state_of(world)["accounts"].items())}


def test_an_empty_bank_welcomes_and_a_new_customer_opens_an_account():
    world = World(definition({}))
    pc = Machine(world)
    status, html = pc.http("GET", "/")
    assert status == 200 and '<h1 id="welcome-title">Welcome to online banking</h1>' in html
    pc.http("POST", "/signup", form={"username": "zoe", "password": "pw"})
    assert '<p id="accounts-empty">You have no accounts yet.</p>' in pc.http("GET", "/", "zoe")[1]
    assert pc.api("POST", "/api/accounts", "zoe", js={"kind": "savings"}) == \
        (201, {"number": "5000000001", "kind": "savings", "name": "Savings", "balance_cents": 0})
    assert pc.api("POST", "/api/accounts", "zoe", js={"kind": "gold"}) == \
        (400, {"error": "the account type is checking or savings, got 'gold'"})
    assert pc.api("GET", "/api/accounts", "zoe")[1]["accounts"] == [
        {"number": "5000000001", "kind": "savings", "name": "Savings", "balance_cents": 0}]


def test_the_overview_and_the_statement_show_running_balances():
    pc = Machine(World(definition()))
    _, html = pc.http("GET", "/", "ann")
    assert '<p id="account-1001-balance">$1,000.00</p>' in html and '<p id="account-1002-balance">$200.00</p>' in html
    assert '<p id="accounts-total"><strong>Total: $1,200.00</strong></p>' in html
    assert "2001" not in html
    _, html = pc.http("GET", "/accounts/1001", "ann")
    assert '<p id="account-balance"><strong>Available balance: $1,000.00</strong></p>' in html
    assert '<p id="txn-1-amount">$1,500.00</p></td><td><p id="txn-1-balance">$1,800.00</p>' in html  # opened at $300
    assert '<p id="txn-2-amount">-$800.00</p></td><td><p id="txn-2-balance">$1,000.00</p>' in html
    assert html.index("txn-2-description") < html.index("txn-1-description")  # newest first
    account = pc.api("GET", "/api/accounts/1001", "ann")[1]
    assert [(t["description"], t["amount_cents"], t["balance_cents"]) for t in account["transactions"]] == \
        [("Salary", 150_000, 180_000), ("Rent", -80_000, 100_000)]


def test_a_transfer_between_own_accounts_through_the_form():
    world = World(definition())
    pc = Machine(world)
    _, form = pc.http("GET", "/transfer", "ann")
    assert '<option value="1002" selected>Savings 1002 ($200.00)</option>' in form  # "to" starts at another account
    status, _ = pc.http("POST", "/transfer", "ann", form={"from": "1001", "to": "1002", "amount": "250.5", "memo": "save"})
    assert status == 303
    assert balances(world) == {"1001": 74_950, "1002": 45_050, "2001": 500}
    _, html = pc.http("GET", "/accounts/1002", "ann")
    assert '<p id="txn-4-description">Transfer from Checking 1001: save</p>' in html
    assert '<p id="txn-4-balance">$450.50</p>' in html


def test_a_payment_to_another_user_moves_the_money_exactly_once_and_is_seen_from_their_machine():
    world = World(definition())
    ann, bob = Machine(world, "reception"), Machine(world, "legal-laptop")
    total = sum(balances(world).values())
    result = ann.run(f"curl -s -u ann:pw -H 'Content-Type: application/json' "
                     f"-d '{{\"from\": \"1001\", \"to\": \"2001\", \"amount\": \"120.00\", \"memo\": \"lunch\"}}' {HOST}/api/transfers")
    assert json.loads(result["stdout"])["transaction"] == {
        "id": 3, "date": "2026-09-17 09:00", "description": "Transfer to Bob Ray (2001): lunch", "amount_cents": -12_000,
        "balance_cents": 88_000, "counterparty": "2001", "external": True}
    assert balances(world) == {"1001": 88_000, "1002": 20_000, "2001": 12_500}
    assert sum(balances(world).values()) == total
    status, account = bob.api("GET", "/api/accounts/2001", "bob")
    assert status == 200 and account["balance_cents"] == 12_500
    assert [(t["description"], t["amount_cents"]) for t in account["transactions"]] == [("Transfer from Ann Lee (1001): lunch", 12_000)]
    assert [t["description"] for t in ann.api("GET", "/api/accounts/1001", "ann")[1]["transactions"]].count(
        "Transfer to Bob Ray (2001): lunch") == 1


def test_insufficient_funds_and_the_daily_limit_refuse_and_change_nothing():
    world = World(definition())
    pc = Machine(world)
    before = state_of(world)
    assert pc.api("POST", "/api/transfers", "bob", js={"from": "2001", "to": "1001", "amount_cents": 501}) == \
        (400, {"error": "insufficient funds: 2001 has $5.00, the transfer is $5.01"})
    status, html = pc.http("POST", "/transfer", "ann", form={"from": "1001", "to_number": "2001", "amount": "600"})
    assert status == 400 and "over the daily limit: $500.00 left today of $500.00" in html
    assert state_of(world) is before
    assert pc.api("POST", "/api/transfers", "ann", js={"from": "1001", "to": "2001", "amount": "400"})[0] == 201
    assert pc.api("POST", "/api/transfers", "ann", js={"from": "1001", "to": "2001", "amount": "100.01"}) == \
        (400, {"error": "over the daily limit: $100.00 left today of $500.00"})
    assert pc.api("POST", "/api/transfers", "ann", js={"from": "1001", "to": "1002", "amount": "200"})[0] == 201  # own: no limit
    pc.run("sleep 86400")  # the next day
    assert pc.api("POST", "/api/transfers", "ann", js={"from": "1001", "to": "2001", "amount": "400"})[0] == 201
    assert balances(world) == {"1001": 0, "1002": 40_000, "2001": 80_500}


@pytest.mark.parametrize(("form", "message"), [
    ({"from": "1001", "to": "1002", "amount": "abc"}, "the amount is a number like 12.50, got 'abc'"),
    ({"from": "1001", "to": "1002", "amount": "-5"}, "the amount is a number like 12.50, got '-5'"),
    ({"from": "1001", "to": "1002", "amount": "0.00"}, "the amount must be more than zero"),
    ({"from": "1001", "to": "1002", "amount": "1.234"}, "the amount is a number like 12.50, got '1.234'"),
    ({"from": "1001", "to": "1001", "amount": "1"}, "the two accounts are the same"),
    ({"from": "1001", "to": "9999", "amount": "1"}, "no account with the number '9999'"),
    ({"from": "1001", "amount": "1"}, "the field 'to' is required"),
    ({"to": "1002", "amount": "1"}, "the field 'from' is required"),
])
def test_malformed_transfers_are_400_with_a_message_and_change_nothing(form, message):
    world = World(definition())
    pc = Machine(world)
    before = state_of(world)
    assert pc.api("POST", "/api/transfers", "ann", form=form) == (400, {"error": message})
    assert state_of(world) is before


def test_another_users_accounts_are_not_there():
    world = World(definition())
    pc = Machine(world)
    for path in ("/accounts/1001", "/accounts/1001/statement.csv", "/api/accounts/1001", "/accounts/7777"):
        status, _ = pc.http("GET", path, "bob")
        assert status == 404, path
    assert pc.api("GET", "/api/accounts/1001", "bob") == (404, {"error": "no account 1001 in your accounts"})
    before = state_of(world)
    assert pc.api("POST", "/api/transfers", "bob", js={"from": "1001", "to": "2001", "amount": "10"})[0] == 404
    assert state_of(world) is before
    assert pc.http("GET", "/accounts/1001")[0] == 303  # signed out: to the sign-in page
    assert pc.api("GET", "/api/accounts") == (401, {"error": "sign in first"})
    assert [a["number"] for a in pc.api("GET", "/api/accounts", "bob")[1]["accounts"]] == ["2001"]


def test_the_statement_downloads_as_csv():
    world = World(definition())
    pc = Machine(world)
    pc.api("POST", "/api/transfers", "ann", js={"from": "1001", "to": "2001", "amount": "12.5", "memo": "pizza, drinks"})
    result = pc.run(f"curl -s -u ann:pw -o statement.csv {HOST}/accounts/1001/statement.csv && cat statement.csv")
    assert result["stdout"] == ("date,description,amount,balance\r\n"
                                "2026-09-01,Salary,1500.00,1800.00\r\n"
                                "2026-09-05,Rent,-800.00,1000.00\r\n"
                                '2026-09-17 09:00,"Transfer to Bob Ray (2001): pizza, drinks",-12.50,987.50\r\n')
    assert "Content-Type: text/csv; charset=utf-8\r\n" in pc.run(f"curl -s -I -u ann:pw {HOST}/accounts/1001/statement.csv")["stdout"]


def test_payees_are_added_used_and_deleted():
    world = World(definition())
    pc = Machine(world)
    assert pc.api("POST", "/api/payees", "ann", js={"name": "Bob", "number": "2001"}) == (201, {"id": 1, "name": "Bob", "number": "2001"})
    assert pc.api("POST", "/api/payees", "ann", js={"name": "Bob", "number": "2001"}) == (409, {"error": "2001 is already a payee"})
    assert pc.api("POST", "/api/payees", "ann", js={"name": "Me", "number": "1002"})[0] == 400
    assert pc.api("POST", "/api/payees", "ann", js={"name": "X", "number": "404404"}) == \
        (400, {"error": "no account with the number '404404'"})
    assert pc.api("POST", "/api/payees", "ann", js={"number": "2001"}) == (400, {"error": "the field 'name' is required"})
    _, html = pc.http("GET", "/transfer", "ann")
    assert '<option value="2001">Bob 2001</option>' in html
    assert pc.api("GET", "/api/payees", "bob") == (200, {"payees": []})
    assert pc.http("POST", "/payees/1/delete", "bob")[0] == 404  # not bob's
    assert pc.http("POST", "/payees/1/delete", "ann")[0] == 303
    assert pc.api("GET", "/api/payees", "ann") == (200, {"payees": []})


@pytest.mark.parametrize(("bad", "where"), [
    ({"currency": "usd"}, r"currency: a three-letter code"),
    ({"daily_limit_cents": "lots"}, r"daily_limit_cents: expected int"),
    ({"accounts": [{"number": "1001"}]}, r"accounts\[0\]\.owner: required"),
    ({"accounts": [{"number": "1001", "owner": "zed"}]}, r"accounts\[0\]\.owner: no such user 'zed'"),
    ({"accounts": [{"number": "1", "owner": "ann"}]}, r"accounts\[0\]\.number: 4 to 34"),
    ({"accounts": [{"number": "1001", "owner": "ann", "kind": "gold"}]}, r"accounts\[0\]\.kind: checking or savings"),
    ({"accounts": [{"number": "1001", "owner": "ann"}, {"number": "1001", "owner": "ann"}]}, r"accounts\[1\]\.number: '1001' is listed twice"),
    ({"accounts": [{"number": "1001", "owner": "ann", "transactions": [{"description": "x"}]}]},
     r"accounts\[0\]\.transactions\[0\]\.amount_cents: required"),
    ({"accounts": [{"number": "1001", "owner": "ann", "transactions": [{"description": "x", "amount_cents": 1, "date": "soon"}]}]},
     r"accounts\[0\]\.transactions\[0\]\.date"),
    ({"accounts": [{"number": "1001", "owner": "ann", "balance_cents": -1}]}, r"accounts\[0\]\.balance_cents: never negative"),
    ({"payees": {"ann": [{"name": "x", "number": "9"}]}}, r"payees\.ann\[0\]\.number: no account '9'"),
])
def test_a_malformed_initial_state_names_the_path(bad, where):
    with pytest.raises((DefinitionError, ValueError), match=rf"\$\.services\[\d+\]\.initial_state\.{where}"):
        World(definition({"users": [{"name": "ann", "password": "pw"}], **bad}))


def test_a_built_state_passes_its_own_check_unchanged():
    world = World(definition({**STATE, "payees": {"bob": [{"name": "Ann", "number": "1001"}]}}))
    pc = Machine(world)
    pc.api("POST", "/api/transfers", "bob", js={"from": "2001", "to": "1001", "amount": "1"})
    pc.api("POST", "/api/accounts", "ann")
    state = copy.deepcopy(state_of(world))
    rest = {k: v for k, v in state.items() if k not in ("users", "sessions", "next_session")}
    assert Bank().validate(rest, "x", state["users"]) == rest
    assert state["payees"] == {"bob": [{"id": 1, "name": "Ann", "number": "1001"}]} and state["next_payee"] == 2


def test_a_snapshot_keeps_the_balances_and_a_fork_goes_its_own_way():
    world = World(definition())
    pc = Machine(world)
    snap = world.snapshot()
    pc.api("POST", "/api/transfers", "ann", js={"from": "1001", "to": "2001", "amount": "100"})
    fork = world.fork(snap)
    other = Machine(fork, "legal-laptop")
    assert other.api("GET", "/api/accounts", "bob")[1]["accounts"][0]["balance_cents"] == 500
    other.api("POST", "/api/transfers", "ann", js={"from": "1001", "to": "1002", "amount": "1"})
    assert balances(fork) == {"1001": 99_900, "1002": 20_100, "2001": 500}
    assert balances(world) == {"1001": 90_000, "1002": 20_000, "2001": 10_500}
    loaded = World(definition())
    loaded.import_snapshot(world.export_snapshot())
    assert loaded.state_hash() == world.state_hash() and loaded.runtime.network.services["bank"] == state_of(world)


def test_replaying_the_same_steps_gives_the_same_state_hash():
    d = definition()
    world = World(d, seed=5)
    pc = Machine(world)
    pc.run(f"curl -s -u ann:pw -d 'from=1001&to=1002&amount=5' {HOST}/transfer")
    pc.api("POST", "/api/payees", "ann", js={"name": "Bob", "number": "2001"})
    pc.api("POST", "/api/transfers", "ann", js={"from": "1001", "to": "2001", "amount": "7.25"})
    again = replay(d, 5, world.trajectory())
    assert again.state_hash() == world.state_hash()
    assert balances(again) == {"1001": 98_775, "1002": 20_500, "2001": 1_225}
