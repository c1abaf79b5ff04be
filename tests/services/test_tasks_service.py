"""The ``tasks`` service, the ``webtask`` parameter, service setup entries and checks that
read a service: the machinery every web task stands on."""

from __future__ import annotations

import pytest
from service_client import SiteClient

from cwgym import World
from cwgym.procedures import ProcedureError, parse_procedure, stage, verify
from cwgym.resources import load_world
from cwgym.webtasks import TASK_KINDS, TaskRandom, generate


class Tasks(SiteClient):
    host = "http://tasks.web"


def _world() -> World:
    return World(load_world("web-tasks"), seed=0)


def _staged(kind: str = "click-button", seed: int = 4) -> tuple[World, Tasks, dict]:
    world = _world()
    world.set_service_state("tasks", {"task": {"kind": kind, "seed": seed}})
    return world, Tasks(world, "kiosk"), generate(kind, seed)


def test_with_no_task_the_page_says_so():
    status, body = Tasks(_world(), "kiosk").http("GET", "/")
    assert status == 200 and "No task is staged" in body


def test_the_staged_task_is_served_and_its_first_answer_recorded_once():
    world, site, task = _staged()
    status, body = site.http("GET", "/")
    assert status == 200 and all(f">{word}</button>" in body for word in task["buttons"])
    assert site.http("POST", "/submit", form={"button": task["answer"]})[0] == 200
    assert world.service_state("tasks")["submission"] == {"fields": {"button": task["answer"]}}
    status, body = site.http("POST", "/submit", form={"button": "other"})
    assert status == 409 and "already has its answer" in body
    assert world.service_state("tasks")["submission"] == {"fields": {"button": task["answer"]}}
    assert "Your answer was recorded" in site.http("GET", "/")[1]


def test_a_name_sent_twice_keeps_both_values_in_order():
    world, site, _ = _staged("click-checkboxes")
    site.http("GET", "/submit?pick=b&pick=a&other=1")
    assert world.service_state("tasks")["submission"]["fields"] == {"pick": "b,a", "other": "1"}


def test_a_page_with_one_state_refuses_a_change_of_view():
    world, site, _ = _staged()
    status, body = site.http("POST", "/act", form={"op": "next"})
    assert status == 400 and "nothing to change" in body
    assert world.service_state("tasks")["view"] == {}


def test_a_bad_task_state_is_refused_naming_the_path_and_nothing_changes():
    world = _world()
    before = world.service_state("tasks")
    with pytest.raises(ValueError, match=r"services\.tasks\.state\.task\.kind: no web task kind 'nope'"):
        world.set_service_state("tasks", {"task": {"kind": "nope", "seed": 1}})
    with pytest.raises(ValueError, match=r"task\.seed"):
        world.set_service_state("tasks", {"task": {"kind": "click-button", "seed": -1}})
    with pytest.raises(ValueError, match=r"task"):
        world.set_service_state("tasks", {"task": {"kind": "click-button"}})
    assert world.service_state("tasks") == before
    with pytest.raises(KeyError, match="no service 'mail'"):
        world.set_service_state("mail", {})


def test_a_task_is_a_pure_function_of_kind_and_seed():
    for name in TASK_KINDS.names():
        assert generate(name, 11) == generate(name, 11)
        draws = {generate(name, seed)["instruction"] for seed in range(12)}
        assert len(draws) >= 2, f"{name}: the instruction does not vary with the seed"
    first = generate("click-button", 3)
    first["buttons"].append("mutated")
    assert "mutated" not in generate("click-button", 3)["buttons"]  # callers get a copy


def test_task_random_is_uniform_enough_and_platform_free():
    r = TaskRandom("click-button", 0)
    counts = [0] * 6
    for _ in range(6000):
        counts[r.below(6)] += 1
    assert all(800 < c < 1200 for c in counts)
    assert TaskRandom("k", 5).u64() == TaskRandom("k", 5).u64() != TaskRandom("k", 6).u64()
    with pytest.raises(ValueError):
        TaskRandom("k", 0).sample([1, 2], 3)


PROCEDURE = {
    "id": "web-demo", "domain": "web", "instruction": "{{task.instruction}}", "world": "web-tasks", "machine": "kiosk",
    "params": [{"name": "task", "kind": "webtask", "task": "click-button"}],
    "setup": [{"service": "tasks", "state": {"task": {"kind": "click-button", "seed": "{{#task.seed}}"}}}],
    "phases": [{"label": "Click", "tool": [{"family": "browser.v1", "op": "click", "payload": {"id": "{{task.answer_id}}"}}]}],
    "verify": [{"state": {"service": "tasks", "pointer": "/submission/fields/button", "equals": "{{task.answer}}"}}],
}


def _with(**changes) -> dict:
    return {**PROCEDURE, **changes}


@pytest.mark.parametrize(("changes", "path", "problem"), [
    ({"params": [{"name": "task", "kind": "webtask", "task": "nope"}]}, "$.params[0].task", "no web task kind 'nope'"),
    ({"instruction": "{{task.nothing}}"}, "$.instruction", "a click-button task has no field 'nothing'"),
    ({"setup": [{"service": "tasks", "path": "a.txt", "state": {}}]}, "$.setup[0]", "no file fields"),
    ({"setup": [{"path": "a.txt", "content": "x", "state": {}}]}, "$.setup[0].state", "name the service"),
    ({"verify": [{"state": {"service": "tasks", "file": "a.json", "pointer": "", "equals": 1}}]}, "$.verify[0].state.service",
     "a service or a file"),
])
def test_a_malformed_web_procedure_is_refused_where_it_is_wrong(changes, path, problem):
    with pytest.raises(ProcedureError) as caught:
        parse_procedure(_with(**changes))
    assert caught.value.path == path and problem in caught.value.problem


def test_staging_names_a_service_the_world_lacks():
    procedure = _with(setup=[{"service": "mail", "state": {}}])
    with pytest.raises(ValueError, match=r"\$\.setup\[0\]\.service: world 'web-tasks' has no service 'mail'"):
        stage(_world(), procedure, 0)


def test_the_webtask_parameter_stages_the_same_task_the_service_serves():
    world = _world()
    instance = stage(world, PROCEDURE, 9)
    task = instance.params["task"]
    assert instance.instruction == task["instruction"]
    assert world.service_state("tasks")["task"] == {"kind": "click-button", "seed": task["seed"]}
    assert generate("click-button", task["seed"]) == task
    result = verify(world, instance).checks[0]
    assert not result.passed and result.reason
    Tasks(world, "kiosk").http("POST", "/submit", form={"button": task["answer"]})
    assert verify(world, instance).passed
