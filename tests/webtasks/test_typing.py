"""The typing kinds: seeded generation, pages that render, and answers the verifier tells
apart (the procedure's passes in both modes, a near miss fails)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from cwgym import World
from cwgym.procedures import load_procedure, project, stage, verify
from cwgym.protocol.page import Form, Input
from cwgym.resources import load_world
from cwgym.webtasks import generate, kind_of

KINDS = ("enter-text", "enter-text-2", "enter-text-dynamic", "enter-password", "enter-date", "focus-text",
         "focus-text-2", "login-user")


@pytest.mark.parametrize("kind", KINDS)
def test_generation_is_seeded_and_varies(kind):
    assert generate(kind, 3) == generate(kind, 3)
    tasks = [generate(kind, seed) for seed in range(20)]
    assert len({t["instruction"] for t in tasks}) >= 2
    assert all(set(t) == set(tasks[0]) for t in tasks)
    assert kind_of(kind).family == "typing"


def _env(world: World):
    return world.environment({"actor": "agent", "machines": ["kiosk"], "actions": ["http.v1"], "observations": []})


def _get(env, path: str) -> tuple[int, str]:
    out = env.step([{"family": "http.v1", "op": "request", "machine": "kiosk",
                     "payload": {"method": "GET", "url": "http://tasks.web" + path, "headers": {}, "body": ""}}])
    value = out["outcomes"][0]["value"]
    return value["status"], bytes(value["body"]).decode()


def _ids(elements) -> list[str]:
    out = []
    for element in elements:
        out.append(element.id)
        out += _ids(getattr(element, "children", ()))
    return out


@pytest.mark.parametrize("kind", KINDS)
def test_the_page_renders_with_unique_ids(kind):
    world = World(load_world("web-tasks"), seed=0)
    world.set_service_state("tasks", {"task": {"kind": kind, "seed": 4}})
    status, html = _get(_env(world), "/")
    assert status == 200 and "<html" in html
    ids = _ids(kind_of(kind).page(generate(kind, 4), {}))
    assert len(ids) == len(set(ids)) and all(ids)


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
@pytest.mark.parametrize("mode", ("gui", "tool"))
def test_the_procedures_answer_verifies(kind, mode):
    world = World(load_world("web-tasks"), seed=0)
    instance = stage(world, load_procedure(f"web-{kind}"), seed=2)
    assert project(world, instance, {"mode": mode}).verification.passed


@pytest.mark.parametrize("kind", KINDS)
def test_a_wrong_answer_does_not_verify(kind):
    world = World(load_world("web-tasks"), seed=0)
    instance = stage(world, load_procedure(f"web-{kind}"), seed=2)
    fields = _wrong(kind, instance.params["task"])
    assert _get(_env(world), "/submit?" + urlencode(fields))[0] == 200
    assert world.service_state("tasks")["submission"]["fields"] == fields
    assert not verify(world, instance).passed


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
