"""Pages and shared helpers of the ``mail`` kind (:mod:`cwgym.services.mail`): the folder
list, one message, the compose form, the folders page and search results, built in the page
model. Every function here is a pure function of the state it is given."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from cwgym.protocol.page import (
    Button,
    Checkbox,
    Element,
    Form,
    Heading,
    Input,
    Link,
    ListBlock,
    Option,
    Page,
    Select,
    Table,
    Text,
    TextArea,
)
from cwgym.services.framework import timestamp

#: The folders every mailbox has, in the order the navigation shows them.
SYSTEM_FOLDERS = ("Inbox", "Sent", "Drafts", "Trash")
#: How bounces sign.
DAEMON_NAME = "Mail Delivery System"
#: What ``?notice=`` on a folder page says (after a form).
NOTICES = {
    "sent": "Message sent.",
    "saved": "Draft saved.",
    "trashed": "Message moved to Trash.",
    "deleted": "Message deleted forever.",
    "moved": "Message moved.",
    "unread": "Message marked as unread.",
    "created": "Folder created.",
    "removed": "Folder deleted; its messages are in Trash.",
}


# -- addresses and mailboxes ---------------------------------------------------------------

def address_of(state: dict, user: str) -> str:
    """``user``'s address on this service."""
    return f"{user}@{state['domain']}"


def daemon_address(state: dict) -> str:
    return f"mailer-daemon@{state['domain']}"


def local_user(state: dict, address: str) -> str | None:
    """The account an address names on this service (the domain and, failing an exact
    match, the user name compared without case), or ``None``."""
    local, _, domain = address.rpartition("@")
    if not local or domain.lower().rstrip(".") != state["domain"]:
        return None
    users = state["users"]
    if local in users:
        return local
    return next((name for name in sorted(users) if name.lower() == local.lower()), None)


def name_of(state: dict, address: str) -> str:
    """A short name for an address: an account's display name, the delivery system, or the address."""
    if address.lower() == daemon_address(state):
        return DAEMON_NAME
    user = local_user(state, address)
    return state["users"][user]["display"] if user else address


def full_name(state: dict, address: str) -> str:
    """``Alice Smith <alice@mail.local>``, or the bare address when it has no name."""
    name = name_of(state, address)
    return address if name == address else f"{name} <{address}>"


def folders_of(state: dict, user: str) -> list[str]:
    return [*SYSTEM_FOLDERS, *state["folders"].get(user, [])]


def mailbox(state: dict, user: str) -> list[dict]:
    return state["mailboxes"].get(user, [])


def newest_first(messages: list[dict]) -> list[dict]:
    return sorted(messages, key=lambda m: (-m["at_us"], -m["id"]))


def folder_url(name: str) -> str:
    return "/folder/" + quote(name)


def subject_of(message: dict) -> str:
    return message["subject"] or "(no subject)"


def size_text(n: int) -> str:
    """A file size as a mail client shows it: ``512 bytes``, ``12.5 KB``, ``1.2 MB``."""
    if n < 1024:
        return f"{n} byte{'s' if n != 1 else ''}"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / (1024 * 1024):.1f} MB"


def attachment_label(f: dict) -> str:
    """``report.pdf (12.5 KB, application/pdf)``."""
    return f"{f['name']} ({size_text(f['size'])}, {f['type']})"


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "folder"


# -- the frame ------------------------------------------------------------------------------

def navigation(state: dict, user: str, current: str | None = None) -> list[Element]:
    """Compose, the folders with their unread counts, and the search box."""
    box = mailbox(state, user)
    items: list[Element] = []
    seen: set[str] = set()
    for name in folders_of(state, user):
        unread = sum(1 for m in box if m["folder"] == name and m["unread"])
        eid = f"folder-{_slug(name)}"
        while eid in seen:
            eid += "-x"
        seen.add(eid)
        label = f"{name} ({unread})" if unread else name
        items.append(Link(f"» {label}" if name == current else label, folder_url(name), id=eid))
    return [
        Text(f"Your address: {address_of(state, user)}", id="my-address"),
        Link("Compose", "/compose", id="compose"),
        ListBlock(tuple(items), id="folders"),
        Link("Manage folders", "/folders", id="manage-folders"),
        Form("/search", (Input("q", label="Search mail", type="search", id="search-q"),
                         Button("Search", id="search-submit")), method="GET", id="search-form"),
    ]


def _notice(query: dict) -> list[Element]:
    text = NOTICES.get(query.get("notice", ""))
    return [Text(text, emphasis=True, id="notice")] if text else []


def _rows(state: dict, messages: list[dict], to_column: bool, with_folder: bool = False) -> tuple:
    rows = []
    for m in messages:
        n, unread = m["id"], m["unread"]
        if to_column:
            who = ", ".join(name_of(state, a) for a in [*m["to"], *m["cc"]]) or "(no recipients)"
        else:
            who = name_of(state, m["from"])
        row: list[Element] = [Text("●" if unread else "", id=f"message-{n}-marker"),
                              Text(who, emphasis=unread, id=f"message-{n}-who"),
                              Link(subject_of(m), f"/message/{n}", id=f"message-{n}"),
                              Text(timestamp(m["at_us"]), id=f"message-{n}-date")]
        if with_folder:
            row.append(Text(m["folder"], id=f"message-{n}-folder"))
        rows.append(tuple(row))
    return tuple(rows)


# -- pages ----------------------------------------------------------------------------------

def welcome_page(service: Any, ctx: Any) -> Page:
    return service.page(ctx, service.title, [
        Heading(service.title, id="welcome-title"),
        Text(f"Webmail for addresses at {ctx.state['domain']}. Sign in to read your mail.", id="welcome-text"),
        Link("Sign in", "/login", id="welcome-sign-in"),
        Link("Create an account", "/signup", id="welcome-signup"),
    ])


def folder_page(service: Any, ctx: Any, user: str, folder: str) -> Page:
    state = ctx.state
    messages = newest_first([m for m in mailbox(state, user) if m["folder"] == folder])
    to_column = folder in ("Sent", "Drafts")
    body: list[Element] = [*navigation(state, user, folder), Heading(folder, id="folder-title"), *_notice(ctx.query)]
    if messages:
        headers = ("", "To" if to_column else "From", "Subject", "Date")
        body.append(Table(headers, _rows(state, messages, to_column), id="messages"))
    else:
        body.append(Text(f"No messages in {folder}.", id="empty-folder"))
    return service.page(ctx, folder, body)


def message_page(service: Any, ctx: Any, user: str, m: dict, conversation: list[dict] = ()) -> Page:
    """One message, with the other messages of its conversation in the reader's mailbox."""
    state, n = ctx.state, m["id"]
    body: list[Element] = [*navigation(state, user, m["folder"]), Heading(subject_of(m), id="message-subject"),
                           Text(f"From: {full_name(state, m['from'])}", id="message-from"),
                           Text(f"To: {', '.join(full_name(state, a) for a in m['to'])}", id="message-to")]
    if m["cc"]:
        body.append(Text(f"Cc: {', '.join(full_name(state, a) for a in m['cc'])}", id="message-cc"))
    body += [Text(f"Date: {timestamp(m['at_us'])}", id="message-date"),
             Text(f"Folder: {m['folder']}", id="message-folder"),
             Text(m["body"], id="message-body")]
    files = m.get("attachments", ())
    if files:
        body += [Text(f"{len(files)} attachment{'s' if len(files) != 1 else ''}", emphasis=True, id="attachments-title"),
                 ListBlock(tuple(Link(attachment_label(f), f"/message/{n}/attachments/{i}", id=f"attachment-{i}")
                                 for i, f in enumerate(files)), id="attachments")]
    if conversation:
        body += [Text(f"In this conversation: {len(conversation) + 1} messages", emphasis=True, id="conversation-title"),
                 ListBlock(tuple(Link(f"{subject_of(o)} — {full_name(state, o['from'])}, {timestamp(o['at_us'])}"
                                      f" ({o['folder']})", f"/message/{o['id']}", id=f"conversation-{o['id']}")
                                 for o in conversation), id="conversation")]
    if m["folder"] == "Drafts":
        body.append(Link("Edit draft", f"/compose?draft={n}", id="edit-draft"))
    else:
        body += [Link("Reply", f"/compose?reply={n}", id="reply"),
                 Link("Reply all", f"/compose?reply_all={n}", id="reply-all"),
                 Link("Forward", f"/compose?forward={n}", id="forward")]
    targets = [f for f in folders_of(state, user) if f not in (m["folder"], "Drafts")]
    body += [
        Form(f"/message/{n}/unread", (Button("Mark as unread", id="mark-unread"),), id="mark-unread-form"),
        Form(f"/message/{n}/move", (Select("folder", tuple(Option(f, f) for f in targets), label="Move to",
                                           value=targets[0], id="move-folder"),
                                    Button("Move", id="move-submit")), id="move-form"),
        Form(f"/message/{n}/delete", (Button("Delete forever" if m["folder"] == "Trash" else "Delete", id="delete"),),
             id="delete-form"),
        Link(f"Back to {m['folder']}", folder_url(m["folder"]), id="back"),
    ]
    return service.page(ctx, subject_of(m), body)


def compose_page(service: Any, ctx: Any, user: str, fields: dict[str, str], draft: int | None,
                 forward: int | None = None, files: Any = (), reply: int | None = None) -> Page:
    """The compose form; ``files`` (the attachments of the draft being edited or the message
    being forwarded) are checkboxes ``keep-N``, checked: an unchecked one is left out."""
    domain = ctx.state["domain"]
    controls: list[Element] = [
        Input("to", label="To", value=fields["to"], placeholder=f"bob@{domain}, carol@{domain}", id="compose-to"),
        Input("cc", label="Cc", value=fields["cc"], id="compose-cc"),
        Input("subject", label="Subject", value=fields["subject"], id="compose-subject"),
        TextArea("body", label="Message", value=fields["body"], rows=12, id="compose-body"),
    ]
    if files:
        controls.append(Text("Attachments", emphasis=True, id="compose-attachments"))
        controls += [Checkbox(f"keep-{i}", label=attachment_label(f), checked=True, id=f"compose-keep-{i}")
                     for i, f in enumerate(files)]
    if draft is not None:
        controls.append(Input("draft", type="hidden", value=str(draft), id="compose-draft"))
    elif forward is not None and files:
        controls.append(Input("forward", type="hidden", value=str(forward), id="compose-forward"))
    elif reply is not None:  # the reply joins the conversation of the message it answers
        controls.append(Input("reply", type="hidden", value=str(reply), id="compose-reply"))
    controls += [Button("Send", name="action", value="send", id="compose-send"),
                 Button("Save draft", name="action", value="save", id="compose-save")]
    return service.page(ctx, "Compose", [*navigation(ctx.state, user), Heading("New message", id="compose-title"),
                                         Form("/send", tuple(controls), id="compose-form")])


def folders_page(service: Any, ctx: Any, user: str) -> Page:
    state = ctx.state
    box = mailbox(state, user)
    rows = []
    for name in folders_of(state, user):
        slug = _slug(name)
        total = sum(1 for m in box if m["folder"] == name)
        unread = sum(1 for m in box if m["folder"] == name and m["unread"])
        action: Element = (Text("system folder", id=f"folders-{slug}-system") if name in SYSTEM_FOLDERS else
                           Form(f"/folders/{quote(name)}/delete", (Button("Delete folder", id=f"folders-{slug}-delete"),),
                                id=f"folders-{slug}-delete-form"))
        rows.append((Link(name, folder_url(name), id=f"folders-{slug}"), Text(str(total), id=f"folders-{slug}-total"),
                     Text(str(unread), id=f"folders-{slug}-unread"), action))
    return service.page(ctx, "Folders", [
        *navigation(state, user), Heading("Folders", id="folders-title"), *_notice(ctx.query),
        Table(("Folder", "Messages", "Unread", ""), tuple(rows), id="folder-table"),
        Form("/folders", (Input("name", label="New folder", id="new-folder-name"),
                          Button("Create folder", id="new-folder-submit")), id="new-folder-form"),
    ])


def search_page(service: Any, ctx: Any, user: str, query: str, found: list[dict] | None) -> Page:
    state = ctx.state
    body: list[Element] = [*navigation(state, user), Heading("Search", id="search-title")]
    if found is None:
        body.append(Text("Type words to look for in your mail.", id="search-hint"))
    elif not found:
        body.append(Text(f"No messages match {query!r}.", id="search-empty"))
    else:
        body.append(Text(f"{len(found)} message{'s' if len(found) != 1 else ''} match {query!r}.", id="search-count"))
        body.append(Table(("", "From", "Subject", "Date", "Folder"), _rows(state, found, False, True), id="results"))
    return service.page(ctx, f"Search: {query}" if query else "Search", body)
