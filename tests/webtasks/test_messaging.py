"""The messaging kinds (the email inbox): its mails, the inbox and an open mail served, and
answers the verifier tells apart (another one fails; test_every_kind.py checks what every
kind shares)."""

from __future__ import annotations

import pytest
from webtask_kit import family_kinds, get, http_env, staged_task, submit, tasks_world

from cwgym.webtasks import TaskInputError, generate, kind_of

KINDS = ("email-inbox-delete", "email-inbox-star", "email-inbox-reply", "email-inbox-forward")


def test_these_kinds_are_messaging():
    assert set(KINDS) <= family_kinds("messaging")


@pytest.mark.parametrize("kind", KINDS)
def test_each_sender_names_one_mail_and_the_recipient_is_someone_else(kind):
    tasks = [generate(kind, seed) for seed in range(20)]
    assert {len(t["mails"]) for t in tasks} <= {3, 4, 5}
    for t in tasks:  # the sender names the mail: one mail each, and the recipient is someone else
        senders = [m["from"] for m in t["mails"]]
        assert len(set(senders)) == len(senders) and t["to"] not in senders and t["sender"] in senders


@pytest.mark.parametrize("kind", KINDS)
def test_the_inbox_and_an_open_mail_render(kind):
    env = http_env(tasks_world(kind, 4))
    task = generate(kind, 4)
    status, html = get(env, "/")
    assert status == 200 and all(m["from"] in html for m in task["mails"])
    assert get(env, f"/act?op=open&mail={task['mail_id']}")[0] in (200, 302, 303)
    status, html = get(env, "/")
    assert status == 200 and f"From {task['sender']}" in html and 'id="a-del"' in html


@pytest.mark.parametrize("kind", KINDS)
def test_a_wrong_mail_action_text_or_recipient_does_not_verify(kind):
    for wrong in _wrong_answers(staged_task(kind)):
        sent, recorded, passed = submit(kind, wrong)
        assert recorded == sent and not passed, wrong


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
