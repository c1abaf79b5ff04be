"""What every registered web-task kind promises, whatever its family: seeded generation
that varies, a page that serves with unique element ids, and a library procedure for it
whose expert answer verifies."""

from __future__ import annotations

from pathlib import Path

import pytest
from webtask_kit import element_ids, get, http_env, post, run_procedure, tasks_world

from cwgym.procedures.library import load_file
from cwgym.procedures.model import WebTaskParam
from cwgym.webtasks import FAMILIES, TASK_KINDS, generate, kind_of

KINDS = tuple(TASK_KINDS.names())
PROCEDURES = Path(__file__).resolve().parents[2] / "procedures" / "web"


@pytest.mark.parametrize("kind", KINDS)
def test_generation_is_seeded_and_varies_with_the_same_keys(kind):
    assert generate(kind, 3) == generate(kind, 3)
    tasks = [generate(kind, seed) for seed in range(20)]
    assert len({t["instruction"] for t in tasks}) >= 2
    assert all(set(t) == set(tasks[0]) for t in tasks)
    assert kind_of(kind).family in FAMILIES


@pytest.mark.parametrize("kind", KINDS)
def test_the_page_serves_with_unique_ids(kind):
    status, html = get(http_env(tasks_world(kind, 4)), "/")
    assert status == 200 and "<html" in html
    for seed in (3, 4):
        task = generate(kind, seed)
        ids = element_ids(kind_of(kind).page(task, kind_of(kind).initial_view(task)))
        assert ids and all(ids) and len(ids) == len(set(ids)), (seed, ids)


@pytest.mark.parametrize("kind", KINDS)
def test_its_library_procedure_stages_it_and_the_answer_verifies_by_tool(kind):
    path = PROCEDURES / f"web-{kind}.json"
    assert path.is_file(), f"no {path.name} in procedures/web"
    first = load_file(path).params[0]
    assert isinstance(first, WebTaskParam) and first.task == kind
    demo = run_procedure(kind, "tool")
    assert demo.verification.passed, demo.failure


def test_an_answer_posted_is_recorded_as_one_sent_in_the_url():
    world = tasks_world("enter-text", 1)
    assert post(http_env(world), "/submit", {"text": "a b&c"})[0] == 200
    assert world.service_state("tasks")["submission"]["fields"] == {"text": "a b&c"}
