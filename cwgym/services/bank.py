"""``bank``: online banking — accounts with statements, transfers between your own accounts
and to other people's, saved payees, a daily limit, and statements as CSV.

Every page but the welcome page needs a signed-in user, who sees only their own accounts:
another user's account answers ``404``, exactly as a number that does not exist.

====== ==================================== ============================================================
GET    ``/``                                your accounts and balances (a welcome page when signed out)
POST   ``/accounts``                        open an account (``kind``: ``checking`` or ``savings``)
GET    ``/accounts/{number}``               the statement: date, description, amount, running balance
GET    ``/accounts/{number}/statement.csv`` the same statement as CSV
GET    ``/transfer``                        the transfer form
POST   ``/transfer``                        ``from``, ``to`` (own account or payee's number) or ``to_number``,
                                            ``amount`` (``12.50``), ``memo``
GET    ``/payees``                          saved payees and the form to add one
POST   ``/payees``                          ``name``, ``number``
POST   ``/payees/{id}/delete``              forget a payee
====== ==================================== ============================================================

JSON API: ``GET /api/accounts``, ``GET /api/accounts/{number}`` (with its transactions),
``POST /api/transfers`` (``{from, to, amount_cents | amount, memo?}``), ``GET /api/payees``,
``POST /api/payees`` (``{name, number}``), ``DELETE /api/payees/{id}``.

Money is integer cents, shown as ``$1,234.50``. A transfer moves the amount out of one
account and into the other in one step, or not at all: more than the balance is ``400
insufficient funds``; payments to other people's accounts count towards the daily limit
(per calendar day of the logical clock; transfers between your own accounts do not).

``initial_state``::

    {"users": [...], "currency"?: "USD", "daily_limit_cents"?: 1000000,
     "accounts"?: [{"number", "owner", "kind"?: "checking", "name"?, "balance_cents"?,
                    "transactions"?: [{"date"?, "description", "amount_cents"}]}],
     "payees"?: {user: [{"name", "number"}]}}

An account's ``balance_cents`` is its balance now; its ``transactions`` (oldest first) end at
it, so the opening balance is the balance minus their sum. Without a balance, the
transactions sum to it. The service adds ``next_txn``, ``next_payee`` and ``next_account``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from cwgym.net.http import Headers, Response
from cwgym.net.services import SERVICE_KINDS
from cwgym.protocol.page import Button, Form, Heading, Input, Link, Option, Select, Table, Text
from cwgym.services.framework import (
    Ctx,
    HttpError,
    Json,
    Redirect,
    WebService,
    assoc,
    assoc_in,
    check_fields,
    route,
    timestamp,
)

NUMBER = re.compile(r"^[0-9A-Za-z-]{4,34}$")
CURRENCY = re.compile(r"^[A-Z]{3}$")
AMOUNT = re.compile(r"^\$?([0-9]{1,12})(?:\.([0-9]{1,2}))?$")
SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "CAD": "CA$", "AUD": "A$"}
KINDS = {"checking": "Checking", "savings": "Savings"}
DEFAULT_LIMIT = 1_000_000
ACCOUNT_FIELDS = {"number": str, "owner": str, "kind": str, "name": str, "balance_cents": int,
                  "transactions": list, "opening_cents": int}
TXN_FIELDS = {"id": int, "date": str, "description": str, "amount_cents": int, "balance_cents": int,
              "counterparty": str, "external": bool}


def money(cents: int, currency: str) -> str:
    """``$12.50``, ``-€1,200.00``; a currency without a symbol: ``12.50 CHF``."""
    whole, frac = divmod(abs(cents), 100)
    sign, amount, symbol = "-" if cents < 0 else "", f"{whole:,}.{frac:02d}", SYMBOLS.get(currency)
    return f"{sign}{symbol}{amount}" if symbol else f"{sign}{amount} {currency}"


def _csv(cells: list[Any]) -> str:
    out = []
    for cell in cells:
        text = str(cell)
        out.append('"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n\r') else text)
    return ",".join(out) + "\r\n"


def _cents(cents: int) -> str:
    whole, frac = divmod(abs(cents), 100)
    return f"{'-' if cents < 0 else ''}{whole}.{frac:02d}"


class Bank(WebService):
    name = "bank"
    title = "Bank"
    fields: ClassVar[dict[str, type | tuple[type, ...]]] = {
        "currency": str, "daily_limit_cents": int, "accounts": (list, dict), "payees": dict,
        "next_txn": int, "next_payee": int, "next_account": int}

    # -- state -------------------------------------------------------------------------
    def validate(self, state: dict, where: str, users: dict[str, dict], definition: Any = None) -> dict:
        currency = state.get("currency", "USD")
        if not CURRENCY.match(currency):
            raise ValueError(f"{where}.currency: a three-letter code like USD, got {currency!r}")
        limit = state.get("daily_limit_cents", DEFAULT_LIMIT)
        if limit < 0:
            raise ValueError(f"{where}.daily_limit_cents: 0 or more, got {limit}")
        raw = state.get("accounts", [])
        entries = [(f"{where}.accounts[{k!r}]", v) for k, v in raw.items()] if isinstance(raw, dict) else \
            [(f"{where}.accounts[{i}]", v) for i, v in enumerate(raw)]
        accounts: dict[str, dict] = {}
        next_txn = state.get("next_txn", 1)
        for at, account in entries:
            check_fields(account, at, ACCOUNT_FIELDS, ("number", "owner"))
            number = account["number"]
            if not NUMBER.match(number):
                raise ValueError(f"{at}.number: 4 to 34 letters, digits or '-', got {number!r}")
            if number in accounts:
                raise ValueError(f"{at}.number: {number!r} is listed twice")
            if account["owner"] not in users:
                raise ValueError(f"{at}.owner: no such user {account['owner']!r}")
            kind = account.get("kind", "checking")
            if kind not in KINDS:
                raise ValueError(f"{at}.kind: checking or savings, got {kind!r}")
            txns = []
            for t, txn in enumerate(account.get("transactions", [])):
                tat = f"{at}.transactions[{t}]"
                check_fields(txn, tat, TXN_FIELDS, ("description", "amount_cents"))
                date = txn.get("date", timestamp(0))
                if not re.fullmatch(r"\d{4}-\d{2}-\d{2}( \d{2}:\d{2})?", date):
                    raise ValueError(f"{tat}.date: YYYY-MM-DD or YYYY-MM-DD HH:MM, got {date!r}")
                if "id" not in txn:
                    txn_id, next_txn = next_txn, next_txn + 1
                else:
                    txn_id, next_txn = txn["id"], max(next_txn, txn["id"] + 1)
                txns.append({"id": txn_id, "date": date, "description": txn["description"], "amount_cents": txn["amount_cents"],
                             "counterparty": txn.get("counterparty", ""), "external": txn.get("external", False)})
            moved = sum(t["amount_cents"] for t in txns)
            if "opening_cents" in account:
                opening = account["opening_cents"]
            else:
                opening = account.get("balance_cents", moved) - moved
            running, statement = opening, []
            for txn in txns:
                running += txn["amount_cents"]
                statement.append({**txn, "balance_cents": running})
            if "balance_cents" in account and account["balance_cents"] != running:
                raise ValueError(f"{at}.balance_cents: {account['balance_cents']} is not the opening {opening} plus the transactions")
            if running < 0:
                raise ValueError(f"{at}.balance_cents: never negative, got {running}")
            accounts[number] = {"number": number, "owner": account["owner"], "kind": kind,
                                "name": account.get("name", KINDS[kind]), "opening_cents": opening,
                                "balance_cents": running, "transactions": statement}
        payees: dict[str, list] = {}
        next_payee = state.get("next_payee", 1)
        for user, listed in state.get("payees", {}).items():
            if user not in users or not isinstance(listed, list):
                raise ValueError(f"{where}.payees.{user}: a list of payees of an existing user")
            mine = []
            for p, payee in enumerate(listed):
                pat = f"{where}.payees.{user}[{p}]"
                check_fields(payee, pat, {"id": int, "name": str, "number": str}, ("name", "number"))
                if payee["number"] not in accounts:
                    raise ValueError(f"{pat}.number: no account {payee['number']!r}")
                if "id" not in payee:
                    pid, next_payee = next_payee, next_payee + 1
                else:
                    pid, next_payee = payee["id"], max(next_payee, payee["id"] + 1)
                mine.append({"id": pid, "name": payee["name"], "number": payee["number"]})
            payees[user] = mine
        return {"currency": currency, "daily_limit_cents": limit, "accounts": accounts, "payees": payees,
                "next_txn": next_txn, "next_payee": next_payee, "next_account": state.get("next_account", 1)}

    # -- helpers -----------------------------------------------------------------------
    def _money(self, ctx: Ctx, cents: int) -> str:
        return money(cents, ctx.state["currency"])

    @staticmethod
    def _mine(ctx: Ctx) -> list[dict]:
        user = ctx.require_user()
        return sorted((a for a in ctx.state["accounts"].values() if a["owner"] == user), key=lambda a: a["number"])

    @staticmethod
    def _account(ctx: Ctx, number: str) -> dict:
        user = ctx.require_user()
        account = ctx.state["accounts"].get(number)
        if account is None or account["owner"] != user:  # another's account is not there for you
            raise HttpError(404, f"no account {number} in your accounts")
        return account

    @staticmethod
    def _summary(a: dict) -> dict:
        return {k: a[k] for k in ("number", "kind", "name", "balance_cents")}

    def _display(self, ctx: Ctx, user: str) -> str:
        return ctx.state["users"][user]["display"]

    @staticmethod
    def _amount(ctx: Ctx) -> int:
        if "amount_cents" in ctx.form:
            text = ctx.field("amount_cents", limit=15).strip()
            if not text.isdigit():
                raise HttpError(400, f"amount_cents is a whole number of cents, got {text!r}")
            cents = int(text)
        else:
            text = ctx.field("amount", limit=20).strip().replace(",", "")
            match = AMOUNT.fullmatch(text)
            if match is None:
                raise HttpError(400, f"the amount is a number like 12.50, got {text!r}")
            cents = int(match[1]) * 100 + int((match[2] or "0").ljust(2, "0"))
        if cents <= 0:
            raise HttpError(400, "the amount must be more than zero")
        return cents

    def _sent_today(self, ctx: Ctx, user: str) -> int:
        today = timestamp(ctx.now_us)[:10]
        return sum(-t["amount_cents"] for a in ctx.state["accounts"].values() if a["owner"] == user
                   for t in a["transactions"] if t["external"] and t["amount_cents"] < 0 and t["date"][:10] == today)

    # -- pages ---------------------------------------------------------------------------
    @route("GET", "/")
    def home(self, ctx: Ctx) -> Any:
        if ctx.user is None:
            return self.page(ctx, "Bank", [Heading("Welcome to online banking", id="welcome-title"),
                                           Text("Sign in to see your accounts, move money and download statements.", id="welcome-text"),
                                           Link("Sign in", "/login", id="welcome-sign-in")])
        mine = self._mine(ctx)
        rows = tuple((Link(f"{a['name']} {a['number']}", f"/accounts/{a['number']}", id=f"account-{a['number']}"),
                      Text(KINDS[a["kind"]]), Text(self._money(ctx, a["balance_cents"]), id=f"account-{a['number']}-balance"))
                     for a in mine)
        body = [Heading("Your accounts", id="accounts-title")]
        body.append(Table(("Account", "Type", "Balance"), rows, id="accounts") if rows
                    else Text("You have no accounts yet.", id="accounts-empty"))
        body += [Text(f"Total: {self._money(ctx, sum(a['balance_cents'] for a in mine))}", emphasis=True, id="accounts-total"),
                 Link("Transfer money", "/transfer", id="transfer-link"), Link("Payees", "/payees", id="payees-link"),
                 Form("/accounts", (Select("kind", tuple(Option(k, v) for k, v in KINDS.items()), label="Account type",
                                           value="checking", id="open-kind"),
                                    Button("Open an account", id="open-account")), id="open-form")]
        return self.page(ctx, "Your accounts", body)

    @route("POST", "/accounts")
    def open_account(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        kind = ctx.field("kind", required=False, default="checking", limit=20) or "checking"
        if kind not in KINDS:
            raise HttpError(400, f"the account type is checking or savings, got {kind!r}")
        n, accounts = ctx.state["next_account"], ctx.state["accounts"]
        while f"5000{n:06d}" in accounts:
            n += 1
        number = f"5000{n:06d}"
        account = {"number": number, "owner": user, "kind": kind, "name": KINDS[kind], "opening_cents": 0,
                   "balance_cents": 0, "transactions": []}
        ctx.state = {**ctx.state, "next_account": n + 1, "accounts": assoc(accounts, number, account)}
        return Json(self._summary(account), 201) if ctx.wants_json else Redirect(f"/accounts/{number}")

    @route("GET", "/accounts/{number}")
    def statement(self, ctx: Ctx) -> Any:
        a = self._account(ctx, ctx.params["number"])
        rows = tuple((Text(t["date"]), Text(t["description"], id=f"txn-{t['id']}-description"),
                      Text(self._money(ctx, t["amount_cents"]), id=f"txn-{t['id']}-amount"),
                      Text(self._money(ctx, t["balance_cents"]), id=f"txn-{t['id']}-balance"))
                     for t in reversed(a["transactions"]))
        body = [Heading(f"{a['name']} {a['number']}", id="account-title"),
                Text(f"Available balance: {self._money(ctx, a['balance_cents'])}", emphasis=True, id="account-balance"),
                Heading("Statement", level=2, id="statement-title")]
        body.append(Table(("Date", "Description", "Amount", "Balance"), rows, id="statement") if rows
                    else Text("No transactions yet.", id="statement-empty"))
        body += [Link("Download statement (CSV)", f"/accounts/{a['number']}/statement.csv", id="statement-csv"),
                 Link("Transfer money", f"/transfer?from={a['number']}", id="transfer-link"), Link("All accounts", "/", id="accounts-link")]
        return self.page(ctx, f"Account {a['number']}", body)

    @route("GET", "/accounts/{number}/statement.csv")
    def statement_csv(self, ctx: Ctx) -> Response:
        a = self._account(ctx, ctx.params["number"])
        text = _csv(["date", "description", "amount", "balance"])
        text += "".join(_csv([t["date"], t["description"], _cents(t["amount_cents"]), _cents(t["balance_cents"])])
                        for t in a["transactions"])
        body = text.encode("utf-8")
        return Response(200, Headers((("Content-Type", "text/csv; charset=utf-8"), ("Content-Length", str(len(body))),
                                      ("Content-Disposition", f'attachment; filename="statement-{a["number"]}.csv"'))), body)

    # -- transfers -------------------------------------------------------------------------
    @route("GET", "/transfer")
    def transfer_form(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        mine = self._mine(ctx)
        if not mine:
            return self.page(ctx, "Transfer", [Heading("Transfer money", id="transfer-title"),
                                               Text("Open an account first.", id="accounts-empty"), Link("Your accounts", "/", id="accounts-link")])
        own = tuple(Option(a["number"], f"{a['name']} {a['number']} ({self._money(ctx, a['balance_cents'])})") for a in mine)
        payees = tuple(Option(p["number"], f"{p['name']} {p['number']}") for p in ctx.state["payees"].get(user, []))
        start = ctx.query.get("from", mine[0]["number"])
        target = next((o.value for o in (*own, *payees) if o.value != start), "")
        limit = ctx.state["daily_limit_cents"]
        left = max(0, limit - self._sent_today(ctx, user))
        return self.page(ctx, "Transfer", [
            Heading("Transfer money", id="transfer-title"),
            Text(f"Daily limit for payments to others: {self._money(ctx, limit)} ({self._money(ctx, left)} left today)", id="transfer-limit"),
            Form("/transfer", (Select("from", own, label="From", value=start, id="transfer-from"),
                               Select("to", (*own, *payees), label="To", value=target, id="transfer-to"),
                               Input("to_number", label="Or another account number", id="transfer-to-number"),
                               Input("amount", label="Amount", placeholder="0.00", id="transfer-amount"),
                               Input("memo", label="Memo", id="transfer-memo"),
                               Button("Transfer", id="transfer-submit")), id="transfer-form")])

    @route("POST", "/transfer")
    def transfer(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        source = self._account(ctx, ctx.field("from", limit=34).strip())
        to = ctx.field("to_number", required=False, limit=34).strip() or ctx.field("to", limit=34).strip()
        target = ctx.state["accounts"].get(to)
        if target is None:
            raise HttpError(400, f"no account with the number {to!r}")
        if target["number"] == source["number"]:
            raise HttpError(400, "the two accounts are the same")
        amount = self._amount(ctx)
        memo = ctx.field("memo", required=False, limit=140).strip()
        if amount > source["balance_cents"]:
            raise HttpError(400, f"insufficient funds: {source['number']} has {self._money(ctx, source['balance_cents'])}, "
                                 f"the transfer is {self._money(ctx, amount)}")
        external = target["owner"] != user
        if external:
            left = ctx.state["daily_limit_cents"] - self._sent_today(ctx, user)
            if amount > left:
                raise HttpError(400, f"over the daily limit: {self._money(ctx, max(0, left))} left today "
                                     f"of {self._money(ctx, ctx.state['daily_limit_cents'])}")
        date, first = timestamp(ctx.now_us), ctx.state["next_txn"]
        suffix = f": {memo}" if memo else ""
        to_name = f"{self._display(ctx, target['owner'])} ({target['number']})" if external else f"{target['name']} {target['number']}"
        from_name = f"{self._display(ctx, user)} ({source['number']})" if external else f"{source['name']} {source['number']}"
        out = {"id": first, "date": date, "description": f"Transfer to {to_name}{suffix}", "amount_cents": -amount,
               "balance_cents": source["balance_cents"] - amount, "counterparty": target["number"], "external": external}
        into = {"id": first + 1, "date": date, "description": f"Transfer from {from_name}{suffix}", "amount_cents": amount,
                "balance_cents": target["balance_cents"] + amount, "counterparty": source["number"], "external": external}
        accounts = ctx.state["accounts"]
        accounts = assoc(accounts, source["number"], {**source, "balance_cents": out["balance_cents"],
                                                      "transactions": [*source["transactions"], out]})
        accounts = assoc(accounts, target["number"], {**target, "balance_cents": into["balance_cents"],
                                                      "transactions": [*target["transactions"], into]})
        ctx.state = {**ctx.state, "accounts": accounts, "next_txn": first + 2}
        if ctx.wants_json:
            return Json({"transaction": out, "from": self._summary(accounts[source["number"]])}, 201)
        return Redirect(f"/accounts/{source['number']}")

    # -- payees ----------------------------------------------------------------------------
    @route("GET", "/payees")
    def payees(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        rows = tuple((Text(p["name"], id=f"payee-{p['id']}-name"), Text(p["number"], id=f"payee-{p['id']}-number"),
                      Form(f"/payees/{p['id']}/delete", (Button("Delete", id=f"payee-{p['id']}-delete"),), id=f"payee-{p['id']}-delete-form"))
                     for p in ctx.state["payees"].get(user, []))
        body = [Heading("Payees", id="payees-title")]
        body.append(Table(("Name", "Account number", ""), rows, id="payees") if rows else Text("No payees yet.", id="payees-empty"))
        body += [Heading("Add a payee", level=2, id="add-payee-title"),
                 Form("/payees", (Input("name", label="Name", id="payee-name"), Input("number", label="Account number", id="payee-number"),
                                  Button("Add payee", id="payee-submit")), id="payee-form")]
        return self.page(ctx, "Payees", body)

    @route("POST", "/payees")
    def add_payee(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        name = ctx.field("name", limit=100).strip()
        number = ctx.field("number", limit=34).strip()
        account = ctx.state["accounts"].get(number)
        if account is None:
            raise HttpError(400, f"no account with the number {number!r}")
        if account["owner"] == user:
            raise HttpError(400, f"{number} is your own account; transfer to it directly")
        mine = ctx.state["payees"].get(user, [])
        if any(p["number"] == number for p in mine):
            raise HttpError(409, f"{number} is already a payee")
        payee = {"id": ctx.state["next_payee"], "name": name, "number": number}
        ctx.state = {**ctx.state, "next_payee": payee["id"] + 1, "payees": assoc(ctx.state["payees"], user, [*mine, payee])}
        return Json(payee, 201) if ctx.wants_json else Redirect("/payees")

    @route("POST", "/payees/{id}/delete")
    def delete_payee(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        mine = ctx.state["payees"].get(user, [])
        kept = [p for p in mine if str(p["id"]) != ctx.params["id"]]
        if len(kept) == len(mine):
            raise HttpError(404, f"no payee {ctx.params['id']}")
        ctx.state = assoc_in(ctx.state, ["payees", user], kept)
        return Json({"deleted": int(ctx.params["id"])}) if ctx.wants_json else Redirect("/payees")

    # -- JSON API --------------------------------------------------------------------------
    @route("GET", "/api/accounts")
    def api_accounts(self, ctx: Ctx) -> Json:
        return Json({"accounts": [self._summary(a) for a in self._mine(ctx)], "currency": ctx.state["currency"]})

    @route("POST", "/api/accounts")
    def api_open(self, ctx: Ctx) -> Any:
        return self.open_account(ctx)

    @route("GET", "/api/accounts/{number}")
    def api_account(self, ctx: Ctx) -> Json:
        a = self._account(ctx, ctx.params["number"])
        return Json({**self._summary(a), "transactions": a["transactions"], "currency": ctx.state["currency"]})

    @route("POST", "/api/transfers")
    def api_transfer(self, ctx: Ctx) -> Any:
        return self.transfer(ctx)

    @route("GET", "/api/payees")
    def api_payees(self, ctx: Ctx) -> Json:
        return Json({"payees": ctx.state["payees"].get(ctx.require_user(), [])})

    @route("POST", "/api/payees")
    def api_add_payee(self, ctx: Ctx) -> Any:
        return self.add_payee(ctx)

    @route("DELETE", "/api/payees/{id}")
    def api_delete_payee(self, ctx: Ctx) -> Any:
        return self.delete_payee(ctx)


SERVICE_KINDS.register(Bank.name, Bank())
