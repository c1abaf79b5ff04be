"""Messaging: an inbox to delete, star, reply to and forward mail in (MiniWoB++'s
email-inbox tasks).

The inbox lists 3-5 mails by sender and subject; opening one (a request to
:data:`~cwgym.webtasks.ACT`) shows it with its actions, and reply and forward open a
compose form in the same way. What the page submits names the mail (its sender, unique in
the inbox) and the action, so a check reads both. Every view fits the 160x210 kiosk.
"""

from __future__ import annotations

from typing import Any, ClassVar
from urllib.parse import quote

from cwgym.protocol.page import Button, Element, Form, Input, Link, ListBlock, Table, Text, TextArea
from cwgym.webtasks import ACT, SUBMIT, TaskInputError, TaskKind, TaskRandom, register
from cwgym.webtasks.words import FIRST_NAMES, WORDS


class _Inbox(TaskKind):
    """The inbox all four email kinds share; a subclass names its ``action`` and words
    its instruction."""

    family = "messaging"
    miniwob = "email-inbox"
    action: ClassVar[str] = ""

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        count = r.randint(3, 5)
        people = r.sample(FIRST_NAMES, count + 1)
        senders, recipient = people[:count], people[count]
        words = r.sample(WORDS, count * 4 + 3)
        ids = [f"m{i}" for i in r.shuffled(range(1, count + 1))]
        mails = [{"id": ids[i], "from": s, "subject": words[i * 4].title(),
                  "body": " ".join(words[i * 4 + 1:i * 4 + 4]).capitalize() + "."} for i, s in enumerate(senders)]
        target = mails[r.below(count)]
        reply = " ".join(words[-3:-1]).capitalize()
        task = {"mails": mails, "sender": target["from"], "mail_id": target["id"], "action": self.action,
                "text": reply, "to": recipient}
        return {"instruction": self.instruction(task), **task}

    def instruction(self, task: dict[str, Any]) -> str:
        raise NotImplementedError

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        mails = {m["id"]: m for m in task["mails"]}
        mail = mails.get(view.get("open", ""))
        if mail is None:
            return [ListBlock(tuple(Link(f"{m['from']}: {m['subject']}", f"{ACT}?op=open&mail={m['id']}", id=m["id"])
                                    for m in task["mails"]), id="inbox")]
        back = Link("< Inbox", f"{ACT}?op=inbox", id="back")
        named = (Input("mail", type="hidden", value=mail["from"], id="f-mail"),)
        if view.get("mode") == "reply":
            return [Text(f"To {mail['from']}", emphasis=True, id="head"),
                    Form(SUBMIT, (*named, Input("action", type="hidden", value="reply", id="f-action"),
                                  TextArea("text", rows=2, id="body"), Button("Send", id="send")), id="compose"),
                    back]
        if view.get("mode") == "forward":
            return [Text(f"Fwd: {mail['subject']}", emphasis=True, id="head"),
                    Form(SUBMIT, (*named, Input("action", type="hidden", value="forward", id="f-action"),
                                  Input("to", placeholder="To", id="to"), Button("Send", id="send")), id="compose"),
                    back]
        who = quote(mail["from"])
        actions = Table(rows=(
            (Link("Reply", f"{ACT}?op=reply", id="a-reply"), Link("Fwd", f"{ACT}?op=forward", id="a-fwd")),
            (Link("Star", f"{SUBMIT}?mail={who}&action=star", id="a-star"),
             Link("Delete", f"{SUBMIT}?mail={who}&action=delete", id="a-del")),
        ), id="actions")
        return [Text(f"From {mail['from']}", emphasis=True, id="from"), Text(mail["subject"], id="subject"),
                Text(mail["body"], id="text"), actions, back]

    def act(self, task: dict[str, Any], view: dict[str, Any], form: dict[str, str]) -> dict[str, Any]:
        op = form.get("op")
        if op == "open":
            if form.get("mail") not in {m["id"] for m in task["mails"]}:
                raise TaskInputError("op=open takes the id of a mail in the inbox")
            return {"open": form["mail"], "mode": "read"}
        if op == "inbox":
            return {}
        if op in ("reply", "forward"):
            if "open" not in view:
                raise TaskInputError(f"op={op} needs an open mail")
            return {**view, "mode": op}
        raise TaskInputError("the inbox takes op=open, inbox, reply or forward")


@register
class EmailInboxDelete(_Inbox):
    name = "email-inbox-delete"
    title = "Delete an e-mail"
    action = "delete"
    variation = "3-5 mails: senders, subjects, texts and order; whose mail to delete"

    def instruction(self, task: dict[str, Any]) -> str:
        return f"Find the e-mail from {task['sender']} and delete it."


@register
class EmailInboxStar(_Inbox):
    name = "email-inbox-star"
    title = "Star an e-mail"
    action = "star"
    variation = "3-5 mails: senders, subjects, texts and order; whose mail to star"

    def instruction(self, task: dict[str, Any]) -> str:
        return f"Find the e-mail from {task['sender']} and star it."


@register
class EmailInboxReply(_Inbox):
    name = "email-inbox-reply"
    title = "Reply to an e-mail"
    action = "reply"
    variation = "3-5 mails: senders, subjects, texts and order; whose mail to answer and the two-word reply"

    def instruction(self, task: dict[str, Any]) -> str:
        return f'Find the e-mail from {task["sender"]} and reply to it with the text "{task["text"]}".'


@register
class EmailInboxForward(_Inbox):
    name = "email-inbox-forward"
    title = "Forward an e-mail"
    action = "forward"
    variation = "3-5 mails: senders, subjects, texts and order; whose mail to forward and to whom"

    def instruction(self, task: dict[str, Any]) -> str:
        return f"Find the e-mail from {task['sender']} and forward it to {task['to']}."
