"""Shared helpers for the web-task tests: a world with a staged task, HTTP through the
kiosk, a walk over a page's elements, and running or answering a kind's procedure.

The test files beside this one import it as ``from webtask_kit import ...`` (pytest puts a
test file's folder on ``sys.path``, as tests/services does for ``service_client``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple
from urllib.parse import urlencode

from cwgym import World
from cwgym.procedures import load_procedure, project, stage, verify
from cwgym.protocol.page import Details, Dialog, Form, ListBlock, Table
from cwgym.resources import load_world
from cwgym.webtasks import TASK_KINDS

HOST = "http://tasks.web"
Fields = Mapping[str, str] | Sequence[tuple[str, str]]


class Submission(NamedTuple):
    """An answer sent to a staged task: what was sent, what the service recorded, and
    whether the verifier passed it."""

    sent: Fields
    recorded: dict[str, str]
    passed: bool


def tasks_world(kind: str | None = None, seed: int = 4) -> World:
    """The web-tasks world; with ``kind``, its tasks service shows that kind's ``seed`` task."""
    world = World(load_world("web-tasks"), seed=0)
    if kind is not None:
        world.set_service_state("tasks", {"task": {"kind": kind, "seed": seed}})
    return world


def http_env(world: World) -> Any:
    """An environment that can only send http.v1 requests from the kiosk."""
    return world.environment({"actor": "agent", "machines": ["kiosk"], "actions": ["http.v1"], "observations": []})


def request(env: Any, method: str, path: str, body: str = "") -> tuple[int, str]:
    """Send ``method path`` to the tasks host; the status and the body as text."""
    headers = {"Content-Type": "application/x-www-form-urlencoded"} if body else {}
    out = env.step([{"family": "http.v1", "op": "request", "machine": "kiosk",
                     "payload": {"method": method, "url": HOST + path, "headers": headers, "body": body}}])
    value = out["outcomes"][0]["value"]
    return value["status"], bytes(value["body"]).decode()


def get(env: Any, path: str) -> tuple[int, str]:
    """``GET path`` on the tasks host."""
    return request(env, "GET", path)


def post(env: Any, path: str, fields: Fields) -> tuple[int, str]:
    """``POST path`` on the tasks host with ``fields`` form-encoded."""
    return request(env, "POST", path, urlencode(fields))


def walk(elements: Iterable[Any]) -> Iterator[Any]:
    """Every element of a page, depth first: forms', details' and dialogs' children, lists'
    items and tables' rows (a sort list's items are text, not elements)."""
    for element in elements:
        yield element
        if isinstance(element, (Form, Details, Dialog)):
            yield from walk(element.children)
        elif isinstance(element, ListBlock):
            yield from walk(element.items)
        elif isinstance(element, Table):
            for row in element.rows:
                yield from walk(row)


def element_ids(elements: Iterable[Any]) -> list[str]:
    """The ids of every element :func:`walk` reaches, in page order."""
    return [e.id for e in walk(elements)]


def run_procedure(kind: str, mode: str, seed: int = 2) -> Any:
    """Stage ``web-<kind>`` in a fresh world and play its expert in ``mode`` (gui or tool)."""
    world = tasks_world()
    return project(world, stage(world, load_procedure(f"web-{kind}"), seed=seed), {"mode": mode})


def submit(kind: str, fields: Fields | Callable[[dict[str, Any]], Fields], seed: int = 2) -> Submission:
    """Stage ``web-<kind>``, send ``fields`` (or ``fields(task)`` for the staged task) to
    /submit, which must answer 200, and verify."""
    world = tasks_world()
    instance = stage(world, load_procedure(f"web-{kind}"), seed=seed)
    sent = fields(instance.params["task"]) if callable(fields) else fields
    status, body = get(http_env(world), "/submit?" + urlencode(sent))
    assert status == 200, (kind, sent, status, body[:200])
    recorded = world.service_state("tasks")["submission"]["fields"]
    return Submission(sent, recorded, verify(world, instance).passed)


def family_kinds(family: str) -> set[str]:
    """The names of the registered kinds in ``family``."""
    return {name for name, kind in TASK_KINDS.items() if kind.family == family}


def staged_task(kind: str, seed: int = 2) -> dict[str, Any]:
    """The task ``web-<kind>`` stages for ``seed`` (as :func:`submit` stages it)."""
    return stage(tasks_world(), load_procedure(f"web-{kind}"), seed=seed).params["task"]
