"""The form kinds: their fields, buy-ticket's search, experts that also verify on screen, and
answers the verifier tells apart (a near miss fails; test_every_kind.py checks what every
kind shares)."""

from __future__ import annotations

import pytest
from webtask_kit import family_kinds, run_procedure, submit, walk

from cwgym.protocol.page import Input, Select
from cwgym.webtasks import TaskInputError, generate, kind_of
from cwgym.webtasks.kinds.forms import LAYOUTS

KINDS = ("form-sequence", "form-sequence-2", "multi-layouts", "multi-orderings", "sign-agreement", "order-food",
         "buy-ticket")


def test_these_kinds_are_forms():
    assert set(KINDS) <= family_kinds("forms")


def _wrong(kind: str, task: dict) -> dict[str, str]:
    """An answer the page could send that is not the asked one."""
    if kind == "form-sequence":
        return {"choice": task["choice"], "text": task["text"]}  # the box left unticked
    if kind == "form-sequence-2":
        return {"choice": next(w for w in task["options"] if w != task["choice"]), "number": task["number"]}
    if kind == "multi-layouts":
        return {"first": task["last"], "last": task["first"], "email": task["email"]}
    if kind == "multi-orderings":
        return {"first": task["first"], "last": task["last"], "email": task["city"], "city": task["email"]}
    if kind == "sign-agreement":
        return {"name": task["name"]}  # not agreed
    if kind == "order-food":
        return {"dish": task["dish"], "quantity": str(int(task["quantity"]) % 6 + 1)}
    other = next(f["code"] for f in task["flights"] if f["code"] != task["flight"])  # buy-ticket
    return {"from": task["from"], "to": task["to"], "date": task["date"], "flight": other}


@pytest.mark.parametrize("kind", KINDS)
def test_the_procedures_answer_verifies_on_screen(kind):
    demo = run_procedure(kind, "gui")
    assert demo.verification.passed, demo.failure


@pytest.mark.parametrize("kind", KINDS)
def test_a_wrong_answer_is_recorded_and_does_not_verify(kind):
    sent, recorded, passed = submit(kind, lambda task: _wrong(kind, task))
    assert recorded == sent and not passed


def test_selects_open_on_a_blank_choice():
    for kind, seed in (("form-sequence-2", 1), ("order-food", 1)):
        selects = [e for e in walk(kind_of(kind).page(generate(kind, seed), {})) if isinstance(e, Select)]
        assert selects and all(s.options[0].value == "" and not s.value for s in selects)


def test_multi_layouts_uses_every_layout_and_keeps_the_field_ids():
    tasks = [generate("multi-layouts", seed) for seed in range(30)]
    assert {t["layout"] for t in tasks} == set(LAYOUTS)
    for task in tasks[:8]:
        fields = [e for e in walk(kind_of("multi-layouts").page(task, {})) if isinstance(e, Input)]
        assert [(f.id, f.name) for f in fields] == [("f1", "first"), ("f2", "last"), ("f3", "email")]


def test_multi_orderings_ids_follow_the_shuffled_order():
    task = generate("multi-orderings", 6)
    fields = [e for e in walk(kind_of("multi-orderings").page(task, {})) if isinstance(e, Input)]
    assert all(task[f"{f.name}_id"] == f.id for f in fields)
    assert len({tuple(generate("multi-orderings", s)["order"]) for s in range(20)}) > 3


def test_buy_ticket_searches_then_lists_the_flights():
    kind, task = kind_of("buy-ticket"), generate("buy-ticket", 5)
    ids = {e.id for e in walk(kind.page(task, {}))}
    assert {"from", "to", "date", "search"} <= ids and task["answer_id"] not in ids
    view = kind.act(task, {}, {"op": "search", "from": task["from"], "to": task["to"], "date": task["date"]})
    shown = {e.id: e for e in walk(kind.page(task, view))}
    assert shown[task["answer_id"]].value == task["flight"]
    assert shown["q-date"].value == task["date"]
    asked = task["instruction"]
    prices = {f["code"]: f["price"] for f in task["flights"]}
    if "cheapest" in asked:
        assert prices[task["flight"]] == min(prices.values())
    else:
        assert next(f["airline"] for f in task["flights"] if f["code"] == task["flight"]) in asked
    assert kind.act(task, view, {"op": "new"}) == {}


def test_buy_ticket_refuses_searches_the_page_never_sends_and_explains_incomplete_ones():
    kind, task = kind_of("buy-ticket"), generate("buy-ticket", 5)
    with pytest.raises(TaskInputError):
        kind.act(task, {}, {"op": "search", "from": "Atlantis", "to": task["to"], "date": task["date"]})
    with pytest.raises(TaskInputError):
        kind.act(task, {}, {"op": "fly"})
    view = kind.act(task, {}, {"op": "search", "from": task["from"], "to": task["from"], "date": task["date"]})
    assert "problem" in view and any(e.id == "problem" for e in kind.page(task, view))
    assert "problem" in kind.act(task, {}, {"op": "search", "from": task["from"], "to": task["to"], "date": ""})
