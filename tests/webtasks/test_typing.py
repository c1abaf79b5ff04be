"""The typing kinds: experts that also verify on screen, and answers the verifier tells
apart (a near miss fails; test_every_kind.py checks what every kind shares)."""

from __future__ import annotations

import pytest
from webtask_kit import family_kinds, run_procedure, submit

from cwgym.protocol.page import Form, Input
from cwgym.webtasks import generate, kind_of

KINDS = ("enter-text", "enter-text-2", "enter-text-dynamic", "enter-password", "enter-date", "focus-text",
         "focus-text-2", "login-user")


def test_these_kinds_are_typing():
    assert set(KINDS) <= family_kinds("typing")


def _wrong(kind: str, task: dict) -> dict[str, str]:
    """An answer the page could send that is not the asked one."""
    if kind == "enter-text-2":
        return {"text": task["shown"]}  # the case left as shown
    if kind in ("enter-text", "enter-text-dynamic"):
        return {"text": task["answer"][:-1]}
    if kind == "enter-password":
        return {"password": task["answer"], "verify": task["answer"] + "x"}
    if kind == "enter-date":
        year, month, day = task["answer"].split("-")
        return {"date": f"{year}-{day}-{month}" if day != month else f"{int(year) + 1}-{month}-{day}"}
    if kind == "focus-text":
        return {"text1": "x"}  # a submission that does not come from the field's own form
    if kind == "focus-text-2":
        return {"text1": "", "field": str(int(task["answer"]) % 3 + 1)}
    return {"username": task["user"], "password": task["password"].swapcase()}  # login-user


@pytest.mark.parametrize("kind", KINDS)
def test_the_procedures_answer_verifies_on_screen(kind):
    demo = run_procedure(kind, "gui")
    assert demo.verification.passed, demo.failure


@pytest.mark.parametrize("kind", KINDS)
def test_a_wrong_answer_is_recorded_and_does_not_verify(kind):
    sent, recorded, passed = submit(kind, lambda task: _wrong(kind, task))
    assert recorded == sent and not passed


def test_enter_text_2_asks_both_cases():
    tasks = [generate("enter-text-2", seed) for seed in range(20)]
    assert {t["answer"] == t["answer"].upper() for t in tasks} == {True, False}
    assert all(t["answer"].lower() == t["shown"].lower() for t in tasks)


def test_enter_date_is_a_date_field_answered_as_iso():
    task = generate("enter-date", 5)
    (form,) = kind_of("enter-date").page(task, {})
    (field,) = [c for c in form.children if isinstance(c, Input)]
    assert field.type == "date" and task["answer"][4] == "-" and len(task["answer"]) == 10


def test_each_focus_field_has_its_own_form_naming_it():
    forms = kind_of("focus-text-2").page(generate("focus-text-2", 1), {})
    assert [type(f) for f in forms] == [Form] * 3
    named = [next(c.value for c in f.children if isinstance(c, Input) and c.type == "hidden") for f in forms]
    assert named == ["1", "2", "3"]
    assert {generate("focus-text-2", s)["answer"] for s in range(20)} == {"1", "2", "3"}
