"""The navigation kinds: seeded generation, pages that render, and answers the verifier
tells apart (the procedure's answer passes, another fails)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from cwgym import World
from cwgym.procedures import load_procedure, project, stage, verify
from cwgym.resources import load_world
from cwgym.webtasks import TaskInputError, generate, kind_of

KINDS = ("navigate-tree", "search-engine", "phone-book", "read-table", "read-table-2")


@pytest.mark.parametrize("kind", KINDS)
def test_generation_is_seeded_and_varies(kind):
    assert generate(kind, 3) == generate(kind, 3)
    tasks = [generate(kind, seed) for seed in range(20)]
    assert len({t["instruction"] for t in tasks}) >= 2
    assert all(set(t) == set(tasks[0]) for t in tasks)
    assert kind_of(kind).family == "navigation"


def _world(kind: str, seed: int) -> tuple[World, object]:
    world = World(load_world("web-tasks"), seed=0)
    world.set_service_state("tasks", {"task": {"kind": kind, "seed": seed}})
    env = world.environment({"actor": "agent", "machines": ["kiosk"], "actions": ["http.v1"], "observations": []})
    return world, env


def _get(env, path: str) -> tuple[int, str]:
    out = env.step([{"family": "http.v1", "op": "request", "machine": "kiosk",
                     "payload": {"method": "GET", "url": "http://tasks.web" + path, "headers": {}, "body": ""}}])
    value = out["outcomes"][0]["value"]
    return value["status"], bytes(value["body"]).decode()


@pytest.mark.parametrize("kind", KINDS)
def test_the_page_renders(kind):
    _, env = _world(kind, 4)
    status, html = _get(env, "/")
    assert status == 200 and "<html" in html


@pytest.mark.parametrize("kind", KINDS)
def test_the_procedures_answer_verifies_and_a_wrong_one_does_not(kind):
    world = World(load_world("web-tasks"), seed=0)
    instance = stage(world, load_procedure(f"web-{kind}"), seed=2)
    assert project(world, instance, {"mode": "tool"}).verification.passed
    wrong = World(load_world("web-tasks"), seed=0)
    instance = stage(wrong, load_procedure(f"web-{kind}"), seed=2)
    task = instance.params["task"]
    fields = _wrong(kind, task)
    env = wrong.environment({"actor": "agent", "machines": ["kiosk"], "actions": ["http.v1"], "observations": []})
    assert _get(env, "/submit?" + urlencode(fields))[0] == 200
    assert wrong.service_state("tasks")["submission"]["fields"] == fields
    assert not verify(wrong, instance).passed


def _wrong(kind: str, task: dict) -> dict[str, str]:
    """An answer the page could send that is not the asked one."""
    if kind == "navigate-tree":
        return {"file": next(n["name"] for n in task["nodes"] if not n["folder"] and n["name"] != task["answer"])}
    if kind == "search-engine":
        return {"result": task["results"][0]}
    if kind == "phone-book":
        return {task["field"]: next(p[task["field"]] for p in task["people"] if p[task["field"]] != task["answer"])}
    if kind == "read-table":
        return {"answer": task["answer"] + "x"}
    return {"first": task["answer2"], "second": task["answer1"]}


def test_the_tree_opens_only_folders_that_show():
    kind, task = kind_of("navigate-tree"), generate("navigate-tree", 1)
    folder, sub = task["open_ids"]
    with pytest.raises(TaskInputError):
        kind.act(task, {}, {"op": "toggle", "node": sub})
    with pytest.raises(TaskInputError):
        kind.act(task, {}, {"op": "toggle", "node": task["answer_id"]})
    view = kind.act(task, kind.act(task, {}, {"op": "toggle", "node": folder}), {"op": "toggle", "node": sub})
    ids = _ids(kind.page(task, view))
    assert task["answer_id"] in ids and task["answer_id"] not in _ids(kind.page(task, {}))
    assert kind.act(task, view, {"op": "toggle", "node": folder})["open"] == [sub]


def test_search_shows_results_only_for_the_asked_query_and_pages_them():
    kind, task = kind_of("search-engine"), generate("search-engine", 5)
    with pytest.raises(TaskInputError):
        kind.act(task, {}, {"op": "page", "p": "2"})
    wrong = kind.act(task, {}, {"op": "search", "q": "zzz"})
    assert task["answer_id"] not in _ids(kind.page(task, wrong))
    view = kind.act(task, {}, {"op": "search", "q": task["query"].upper()})
    assert task["answer_id"] not in _ids(kind.page(task, view))  # always on page 2 or 3
    view = kind.act(task, view, {"op": "page", "p": task["page_id"][1:]})
    assert task["answer_id"] in _ids(kind.page(task, view))
    with pytest.raises(TaskInputError):
        kind.act(task, view, {"op": "page", "p": "4"})


def _ids(elements) -> set[str]:
    out: set[str] = set()
    for e in elements:
        out.add(e.id)
        for child in (*getattr(e, "children", ()), *getattr(e, "items", ())):
            out |= _ids([child])
        for row in getattr(e, "rows", ()):
            out |= _ids(row)
    return out
