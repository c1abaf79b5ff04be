"""The messaging kinds (the email inbox): seeded generation, pages that render, and answers
the verifier tells apart (the procedure's answer passes, another fails)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from cwgym import World
from cwgym.procedures import load_procedure, project, stage, verify
from cwgym.resources import load_world
from cwgym.webtasks import TaskInputError, generate, kind_of

KINDS = ("email-inbox-delete", "email-inbox-star", "email-inbox-reply", "email-inbox-forward")


@pytest.mark.parametrize("kind", KINDS)
def test_generation_is_seeded_and_varies(kind):
    assert generate(kind, 3) == generate(kind, 3)
    tasks = [generate(kind, seed) for seed in range(20)]
    assert len({t["instruction"] for t in tasks}) >= 2
    assert all(set(t) == set(tasks[0]) for t in tasks)
    assert {len(t["mails"]) for t in tasks} <= {3, 4, 5}
    for t in tasks:  # the sender names the mail: one mail each, and the recipient is someone else
        senders = [m["from"] for m in t["mails"]]
        assert len(set(senders)) == len(senders) and t["to"] not in senders and t["sender"] in senders
    assert kind_of(kind).family == "messaging"


def _env(world: World):
    return world.environment({"actor": "agent", "machines": ["kiosk"], "actions": ["http.v1"], "observations": []})


def _get(env, path: str) -> tuple[int, str]:
    out = env.step([{"family": "http.v1", "op": "request", "machine": "kiosk",
                     "payload": {"method": "GET", "url": "http://tasks.web" + path, "headers": {}, "body": ""}}])
    value = out["outcomes"][0]["value"]
    return value["status"], bytes(value["body"]).decode()


@pytest.mark.parametrize("kind", KINDS)
def test_the_inbox_and_an_open_mail_render(kind):
    world = World(load_world("web-tasks"), seed=0)
    world.set_service_state("tasks", {"task": {"kind": kind, "seed": 4}})
    env = _env(world)
    task = generate(kind, 4)
    status, html = _get(env, "/")
    assert status == 200 and all(m["from"] in html for m in task["mails"])
    assert _get(env, f"/act?op=open&mail={task['mail_id']}")[0] in (200, 302, 303)
    status, html = _get(env, "/")
    assert status == 200 and f"From {task['sender']}" in html and 'id="a-del"' in html


@pytest.mark.parametrize("kind", KINDS)
def test_the_procedures_answer_verifies_and_a_wrong_one_does_not(kind):
    world = World(load_world("web-tasks"), seed=0)
    instance = stage(world, load_procedure(f"web-{kind}"), seed=2)
    assert project(world, instance, {"mode": "tool"}).verification.passed
    for wrong in _wrong_answers(instance.params["task"]):
        other = World(load_world("web-tasks"), seed=0)
        instance = stage(other, load_procedure(f"web-{kind}"), seed=2)
        assert _get(_env(other), "/submit?" + urlencode(wrong))[0] == 200
        assert not verify(other, instance).passed, wrong


def _wrong_answers(task: dict) -> list[dict[str, str]]:
    """Answers the inbox could send that are not the asked one: another mail, another action,
    and for a reply or forward another text or recipient."""
    right = {"mail": task["sender"], "action": task["action"]}
    if task["action"] == "reply":
        right["text"] = task["text"]
    if task["action"] == "forward":
        right["to"] = task["to"]
    other_mail = next(m["from"] for m in task["mails"] if m["from"] != task["sender"])
    out = [{**right, "mail": other_mail}, {**right, "action": "delete" if task["action"] != "delete" else "star"}]
    if task["action"] == "reply":
        out.append({**right, "text": task["text"] + " now"})
    if task["action"] == "forward":
        out.append({**right, "to": other_mail})
    return out


def test_the_inbox_refuses_what_its_pages_never_send():
    kind, task = kind_of("email-inbox-reply"), generate("email-inbox-reply", 1)
    for form in ({"op": "open", "mail": "m9"}, {"op": "reply"}, {"op": "shred"}):
        with pytest.raises(TaskInputError):
            kind.act(task, {}, form)
    view = kind.act(task, {}, {"op": "open", "mail": task["mail_id"]})
    assert kind.act(task, view, {"op": "reply"}) == {"open": task["mail_id"], "mode": "reply"}
    assert kind.act(task, view, {"op": "inbox"}) == {}
