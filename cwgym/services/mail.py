"""``mail``: webmail for the addresses of one domain, like a small Roundcube or Gmail.

Every account of the service (``initial_state.users``, or one opened at ``/signup``) has the
address ``name@<domain>`` and a mailbox of its own: the folders Inbox, Sent, Drafts and
Trash, plus folders the user creates. A message sent to an address of this service lands in
the recipient's Inbox at once, stamped with the logical time of the request; one to an
unknown user of the domain, or to any other domain, comes back to the sender's Inbox as a
bounce from the "Mail Delivery System" saying why (delivery between services is not
modelled). A user sees only their own mailbox: another user's message id is ``404``.
The account names ``mailer-daemon`` and ``postmaster`` are the mail system's own.

Routes (HTML; sign in first, or send HTTP Basic credentials):

==========================================  ===============================================
``GET /``                                   the Inbox (signed out: a welcome page)
``GET /folder/{name}``                      a folder: sender or recipients, subject, date; unread ● and bold
``GET /message/{id}``                       one message (marks it read), with Reply, Reply all, Forward, its attachments and its conversation
``GET /message/{id}/attachments/{index}``   an attachment's bytes (``Content-Type`` its type; a download)
``POST /message/{id}/unread``               mark unread
``POST /message/{id}/move``                 ``folder``: move to another folder (not into Drafts)
``POST /message/{id}/delete``               to Trash; from Trash, deleted forever
``GET /compose``                            the form; ``?to=``, ``?reply=ID``, ``?reply_all=ID``, ``?forward=ID``, ``?draft=ID`` prefill it
``POST /send``                              ``to, cc?, subject, body, draft?, forward?, reply?, keep-N?, action=send|save`` (comma-separated addresses)
``GET /folders``, ``POST /folders``         list folders; create one (``name``)
``POST /folders/{name}/delete``             delete a folder of one's own (its messages go to Trash)
``GET /search?q=``                          messages of one's own whose sender, recipients, subject or body hold every word
``GET /api/folders``                        ``[{name, total, unread}]``
``GET /api/messages?folder=Inbox``          ``{folder, messages}``, newest first (without bodies)
``GET /api/messages/{id}``                  the message (does not mark it read)
``GET /api/messages/{id}/attachments/{i}``  an attachment's bytes, as the page's download
``POST /api/messages/{id}``                 ``{unread?, folder?}``: change a message
``DELETE /api/messages/{id}``               delete as the HTML form does
``POST /api/send``                          ``{to, subject, body, cc?, attachments?, reply?}`` (addresses as a list or a comma-separated text): ``201 {id, delivered, bounced}``
``GET /api/search?q=``                      ``{query, messages}``
==========================================  ===============================================

``initial_state``::

    {"domain"?: "mail.local",
     "users": [{"name", "password", "display"?}],
     "folders"?: {user: ["Projects", ...]},
     "mailboxes"?: {user: [{"from", "to", "subject", "body",
                            "cc"?, "folder"?: "Inbox", "unread"?: (true in Inbox), "at_us"?: 0, "id"?,
                            "thread"?}]}}

``thread`` is a conversation's key: messages sharing it are one conversation, which a
message's page lists. A reply (``reply`` in ``/send`` and ``/api/send``) to a message in a
conversation joins it; conversations come from the world's seeds (mail imported with its
threads), so a service seeded without them looks and behaves as it always did.

``to`` and ``cc`` are an address or a list of them (a comma-separated text is split). A seed
message in a folder that is not a system folder creates that folder. The state a service
keeps has the same shape, with every message complete (``id``, ``folder``, ``from``, ``to``,
``cc``, ``subject``, ``body``, ``at_us``, ``unread``) and the counter ``next_message``.

**Attachments.** A message may carry files: ``"attachments": [{"name", "type"?, "data"}]``
in ``initial_state`` and ``POST /api/send`` (``data`` base64; or ``text``, UTF-8 text; the
type defaults from the name's extension), or ``{"message": id, "index": i}`` in
``/api/send`` to pass on an attachment of a message of one's own. The state keeps each
content once, in ``blobs`` (``{sha256 hex: base64}``, present while some message refers to
one), and a message lists ``attachments: [{name, type, size, sha256}]`` (the key is absent
on a message without any); a content no message refers to any more is dropped. Caps:
:data:`ATTACHMENTS_MAX` files and :data:`ATTACHMENT_BYTES_MAX` bytes a message (a ``400``
naming the field), :data:`STORE_BYTES_MAX` bytes in the whole service (``507``). The web
forms have no file upload (the page model has no file input): the compose form keeps the
attachments of the message it forwards, or of the draft it edits, as checkboxes
``keep-N``; new files are attached through the JSON API.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from typing import Any, ClassVar
from urllib.parse import quote

from cwgym.net.http import Headers, Response
from cwgym.net.services import SERVICE_KINDS
from cwgym.services import _mail_pages as pages
from cwgym.services._mail_pages import (
    SYSTEM_FOLDERS,
    address_of,
    daemon_address,
    folders_of,
    full_name,
    local_user,
    mailbox,
    newest_first,
    subject_of,
)
from cwgym.services.framework import (
    Ctx,
    HttpError,
    Json,
    Redirect,
    WebService,
    assoc_in,
    check_fields,
    next_id,
    route,
    timestamp,
)

DOMAIN = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,62})(?:\.[a-z0-9](?:[a-z0-9-]{0,62}))*$")
ADDRESS = re.compile(r"^[^@\s,;<>\"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*)(?:\.[A-Za-z0-9-]+)*\.?$")
FOLDER_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9 ._-]{0,62}[A-Za-z0-9._-])?$")
MESSAGE_FIELDS: dict[str, type | tuple[type, ...]] = {
    "id": int, "from": str, "to": (str, list), "cc": (str, list), "subject": str, "body": str,
    "folder": str, "unread": bool, "at_us": int, "attachments": list, "thread": str}
#: The longest conversation key a message carries.
THREAD_MAX = 200
#: The most files one message carries.
ATTACHMENTS_MAX = 10
#: The most bytes a message's files hold together, so that a send carrying them fits in one
#: request body (:data:`~cwgym.services.framework.MAX_BODY`) once base64-encoded.
ATTACHMENT_BYTES_MAX = 512 * 1024
#: The most bytes of attachments the service keeps (each distinct content counted once).
STORE_BYTES_MAX = 32 * 1024 * 1024
#: The longest attachment name.
ATTACHMENT_NAME_MAX = 255
MEDIA_TYPE = re.compile(r"^[a-z0-9][a-z0-9!#$&^_.+-]{0,62}/[a-z0-9][a-z0-9!#$&^_.+-]{0,62}$")
SHA256 = re.compile(r"^[0-9a-f]{64}$")
#: The type an attachment gets from its name's extension when none is given.
TYPES = {
    "txt": "text/plain", "md": "text/markdown", "csv": "text/csv", "log": "text/plain", "html": "text/html",
    "htm": "text/html", "ics": "text/calendar", "vcf": "text/vcard", "json": "application/json",
    "xml": "application/xml", "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip",
    "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "svg": "image/svg+xml",
    "wav": "audio/wav", "mp3": "audio/mpeg", "db": "application/vnd.sqlite3", "sqlite": "application/vnd.sqlite3",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "odt": "application/vnd.oasis.opendocument.text", "ods": "application/vnd.oasis.opendocument.spreadsheet",
}
#: Account names the mail system keeps for itself (bounces come from mailer-daemon).
RESERVED = ("mailer-daemon", "postmaster")
BOUNCE_SUBJECT = "Undelivered Mail Returned to Sender"
LIMITS = {"to": 10_000, "cc": 10_000, "subject": 998, "body": 100_000}


def _split(value: str) -> list[str]:
    return [part.strip() for part in re.split(r"[,;]", value) if part.strip()]


def _resolve_folder(state: dict, user: str, name: str) -> str | None:
    low = name.strip().lower()
    return next((f for f in folders_of(state, user) if f.lower() == low), None)


# -- attachments ---------------------------------------------------------------------------

def type_of(name: str) -> str:
    """The media type an attachment named ``name`` gets when none is given."""
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return TYPES.get(ext, "application/octet-stream")


def _decoded_size(data: str) -> int:
    return len(data) // 4 * 3 - data[-2:].count("=")


def store_bytes(blobs: dict[str, str]) -> int:
    """The bytes a ``blobs`` table holds (decoded)."""
    return sum(_decoded_size(data) for data in blobs.values())


def _check_blobs(value: Any, at: str) -> dict[str, str]:
    if not isinstance(value, dict):
        raise ValueError(f"{at}: an object of sha256 -> base64 content, got {type(value).__name__}")
    out = {}
    for key in sorted(value):
        data = value[key]
        if not isinstance(key, str) or not SHA256.match(key):
            raise ValueError(f"{at}.{key}: a key is the sha256 of the content, 64 lower-case hex digits")
        raw = _base64(data, f"{at}.{key}")
        if hashlib.sha256(raw).hexdigest() != key:
            raise ValueError(f"{at}.{key}: the content's sha256 is {hashlib.sha256(raw).hexdigest()}")
        out[key] = data
    return out


def _base64(value: Any, at: str) -> bytes:
    if not isinstance(value, str):
        raise ValueError(f"{at}: base64 text, got {type(value).__name__}")
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(f"{at}: not base64 (A-Z, a-z, 0-9, '+', '/', padded with '=')") from None


def _attachment_name(value: Any, at: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{at}: a file name is a non-empty text, got {value!r}")
    if len(value) > ATTACHMENT_NAME_MAX:
        raise ValueError(f"{at}: a file name is at most {ATTACHMENT_NAME_MAX} characters")
    if value in (".", "..") or "/" in value or "\\" in value or any(not ch.isprintable() for ch in value):
        raise ValueError(f"{at}: {value!r} is not a file name (no '/', '\\' or control characters)")
    return value


def _media_type(value: Any, name: str, at: str) -> str:
    if value is None:
        return type_of(name)
    if not isinstance(value, str) or not MEDIA_TYPE.match(value.strip().lower()):
        raise ValueError(f"{at}: a media type like application/pdf, got {value!r}")
    return value.strip().lower()


def _attachments(value: Any, at: str, blobs: dict[str, str], *, mine: list[dict] | None = None,
                 built: bool = False) -> list[dict]:
    """The records ``[{name, type, size, sha256}]`` of an ``attachments`` list; new contents
    are added to ``blobs`` (a table the caller owns). An item is ``{name, type?, data}``
    (base64), ``{name, type?, text}``, ``{message, index}`` (an attachment of a message in
    ``mine``, when given) or, with ``built``, a record already in ``blobs``.

    Raises:
        ValueError: naming the item and field.
    """
    if not isinstance(value, list):
        raise ValueError(f"{at}: a list of attachments, got {type(value).__name__}")
    if len(value) > ATTACHMENTS_MAX:
        raise ValueError(f"{at}: at most {ATTACHMENTS_MAX} attachments a message, got {len(value)}")
    records = []
    for i, item in enumerate(value):
        here = f"{at}[{i}]"
        if not isinstance(item, dict):
            raise ValueError(f"{here}: an object {{name, type?, data}}, got {type(item).__name__}")
        if "message" in item and mine is not None:
            records.append(_referenced(item, here, mine))
            continue
        if built and "sha256" in item:
            check_fields(item, here, {"name": str, "type": str, "size": int, "sha256": str}, ("name", "type", "size", "sha256"))
            if item["sha256"] not in blobs:
                raise ValueError(f"{here}.sha256: no content {item['sha256']!r} in blobs")
            if item["size"] != _decoded_size(blobs[item["sha256"]]):
                raise ValueError(f"{here}.size: the content has {_decoded_size(blobs[item['sha256']])} bytes")
            name = _attachment_name(item["name"], f"{here}.name")
            records.append({"name": name, "type": _media_type(item["type"], name, f"{here}.type"),
                            "size": item["size"], "sha256": item["sha256"]})
            continue
        known = {"name": str, "type": str, "data": str, "text": str, **({"message": int, "index": int} if mine is not None else {})}
        check_fields(item, here, known, ("name",))
        if ("data" in item) == ("text" in item):
            raise ValueError(f"{here}: give the content as data (base64) or text, one of them")
        name = _attachment_name(item["name"], f"{here}.name")
        raw = _base64(item["data"], f"{here}.data") if "data" in item else item["text"].encode("utf-8")
        digest = hashlib.sha256(raw).hexdigest()
        blobs.setdefault(digest, base64.b64encode(raw).decode("ascii"))
        records.append({"name": name, "type": _media_type(item.get("type"), name, f"{here}.type"),
                        "size": len(raw), "sha256": digest})
    total = sum(r["size"] for r in records)
    if total > ATTACHMENT_BYTES_MAX:
        raise ValueError(f"{at}: {total} bytes together, more than the {ATTACHMENT_BYTES_MAX} a message may carry")
    return records


def _referenced(item: dict, at: str, mine: list[dict]) -> dict:
    check_fields(item, at, {"message": int, "index": int}, ("message", "index"))
    m = next((m for m in mine if m["id"] == item["message"]), None)
    if m is None:
        raise ValueError(f"{at}.message: no message {item['message']} in your mailbox")
    files = m.get("attachments", [])
    if not 0 <= item["index"] < len(files):
        raise ValueError(f"{at}.index: message {m['id']} has {len(files)} attachment(s), numbered from 0")
    return dict(files[item["index"]])


def _collect(state: dict) -> dict:
    """``state`` without the contents no message refers to any more."""
    blobs = state.get("blobs", {})
    used = {a["sha256"] for box in state["mailboxes"].values() for m in box for a in m.get("attachments", ())} if blobs else set()
    kept = {k: v for k, v in sorted(blobs.items()) if k in used}
    if kept:
        return state if len(kept) == len(blobs) else {**state, "blobs": kept}
    return {k: v for k, v in state.items() if k != "blobs"} if "blobs" in state else state


def _disposition(name: str) -> str:
    """``Content-Disposition`` of a download named ``name`` (RFC 6266: an ASCII fallback
    and the UTF-8 name)."""
    fallback = "".join(ch if " " <= ch < "\x7f" and ch not in '"\\' else "_" for ch in name)
    if fallback == name:
        return f'attachment; filename="{name}"'
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(name, safe='')}"


def _with_files(message: dict, records: list[dict]) -> dict:
    """``message`` carrying ``records`` (no ``attachments`` key when there are none)."""
    out = {k: v for k, v in message.items() if k != "attachments"}
    return {**out, "attachments": records} if records else out



class Mail(WebService):
    name = "mail"
    title = "Mail"
    fields: ClassVar[dict[str, type | tuple[type, ...]]] = {"domain": str, "folders": dict, "mailboxes": dict,
                                                            "next_message": int, "blobs": dict}

    # -- state -------------------------------------------------------------------------
    def validate(self, state: dict, where: str, users: dict[str, dict], definition: Any = None) -> dict:
        for name in users:
            if name.lower() in RESERVED:
                raise ValueError(f"{where}.users: the name {name!r} is reserved for the mail system")
        domain = state.get("domain", "mail.local").lower().rstrip(".")
        if not DOMAIN.match(domain):
            raise ValueError(f"{where}.domain: {state['domain']!r} is not a domain name (like mail.local)")
        folders: dict[str, list[str]] = {}
        for user, names in state.get("folders", {}).items():
            at = f"{where}.folders.{user}"
            if user not in users:
                raise ValueError(f"{at}: no account named {user!r}")
            if not isinstance(names, list):
                raise ValueError(f"{at}: a list of folder names, got {type(names).__name__}")
            made: list[str] = []
            for i, name in enumerate(names):
                made = [*made, self._folder_name(name, [*SYSTEM_FOLDERS, *made], f"{at}[{i}]")]
            folders[user] = made
        blobs = _check_blobs(state.get("blobs", {}), f"{where}.blobs")
        seeds: list[tuple[str, str, dict]] = []
        taken: dict[int, str] = {}
        for user, messages in state.get("mailboxes", {}).items():
            at = f"{where}.mailboxes.{user}"
            if user not in users:
                raise ValueError(f"{at}: no account named {user!r}")
            if not isinstance(messages, list):
                raise ValueError(f"{at}: a list of messages, got {type(messages).__name__}")
            for i, message in enumerate(messages):
                here = f"{at}[{i}]"
                message = self._message(message, here, blobs)
                if "id" in message:
                    if message["id"] < 1:
                        raise ValueError(f"{here}.id: a message id is 1 or more")
                    if message["id"] in taken:
                        raise ValueError(f"{here}.id: {message['id']} is also the id of {taken[message['id']]}")
                    taken[message["id"]] = here
                known = [*SYSTEM_FOLDERS, *folders.get(user, [])]
                folder = next((f for f in known if f.lower() == message["folder"].lower()), None)
                if folder is None:
                    folder = self._folder_name(message["folder"], known, f"{here}.folder")
                    folders[user] = [*folders.get(user, []), folder]
                seeds.append((user, here, {**message, "folder": folder}))
        counter = state.get("next_message", 1)
        if not isinstance(counter, int) or counter < 1:
            raise ValueError(f"{where}.next_message: a counter is 1 or more")
        counter = max([counter, *(n + 1 for n in taken)])
        mailboxes: dict[str, list[dict]] = {user: [] for user in state.get("mailboxes", {})}
        for user, _, message in seeds:
            if "id" not in message:
                message = {**message, "id": counter}
                counter += 1
            mailboxes[user] = [*mailboxes[user], message]
        built = _collect({"domain": domain, "folders": folders, "mailboxes": mailboxes, "next_message": counter,
                          "blobs": blobs})
        if store_bytes(built.get("blobs", {})) > STORE_BYTES_MAX:
            raise ValueError(f"{where}.mailboxes: the attachments hold {store_bytes(built['blobs'])} bytes, "
                             f"more than the {STORE_BYTES_MAX} the service keeps")
        return built

    @staticmethod
    def _folder_name(name: Any, existing: list[str], at: str) -> str:
        if not isinstance(name, str) or not FOLDER_NAME.match(name):
            raise ValueError(f"{at}: a folder name is 1 to 64 letters, digits, spaces, '.', '-' or '_', got {name!r}")
        if any(f.lower() == name.lower() for f in existing):
            raise ValueError(f"{at}: a folder named {name!r} already exists")
        return name

    @staticmethod
    def _message(message: Any, at: str, blobs: dict[str, str]) -> dict:
        check_fields(message, at, MESSAGE_FIELDS, ("from", "to", "subject", "body"))
        if not ADDRESS.match(message["from"]):
            raise ValueError(f"{at}.from: {message['from']!r} is not an email address")
        out = {"from": message["from"], "subject": message["subject"], "body": message["body"]}
        for field in ("to", "cc"):
            value = message.get(field, [])
            if isinstance(value, str):
                value = _split(value)
            for i, address in enumerate(value):
                if not isinstance(address, str) or not address.strip():
                    raise ValueError(f"{at}.{field}[{i}]: an address is a non-empty text, got {address!r}")
            out[field] = list(value)
        folder = message.get("folder", "Inbox")
        out["folder"] = folder
        out["unread"] = message.get("unread", folder.lower() == "inbox")
        out["at_us"] = message.get("at_us", 0)
        if "id" in message:
            out["id"] = message["id"]
        if "thread" in message:
            if not message["thread"].strip() or len(message["thread"]) > THREAD_MAX:
                raise ValueError(f"{at}.thread: a conversation's key is 1 to {THREAD_MAX} characters")
            out["thread"] = message["thread"]
        return _with_files(out, _attachments(message.get("attachments", []), f"{at}.attachments", blobs, built=True))

    # -- mailbox changes ---------------------------------------------------------------
    @staticmethod
    def _add(state: dict, user: str, message: dict) -> tuple[dict, int]:
        n, state = next_id(state, "next_message")
        return assoc_in(state, ["mailboxes", user], [*mailbox(state, user), {**message, "id": n}]), n

    @staticmethod
    def _replace(state: dict, user: str, n: int, message: dict | None) -> dict:
        """``state`` with message ``n`` of ``user`` replaced by ``message`` (removed when None);
        attachment contents no message refers to any more are dropped."""
        box = mailbox(state, user)
        files = any(m.get("attachments") for m in box if m["id"] == n)
        box = [message if m["id"] == n else m for m in box]
        state = assoc_in(state, ["mailboxes", user], [m for m in box if m is not None])
        return _collect(state) if files else state

    @staticmethod
    def _find(state: dict, user: str, raw: str) -> dict:
        if not re.fullmatch(r"[0-9]{1,18}", raw):
            raise HttpError(400, f"a message id is a number, got {raw!r}")
        n = int(raw)
        found = next((m for m in mailbox(state, user) if m["id"] == n), None)
        if found is None:
            raise HttpError(404, f"no message {n} in your mailbox")
        return found

    def _deliver(self, state: dict, sender: str, to: list[str], cc: list[str], subject: str, body: str,
                 now_us: int, files: list[dict] | None = None,
                 thread: str | None = None) -> tuple[dict, int, list[str], list[dict]]:
        """Send: a copy in the sender's Sent, one in each local recipient's Inbox and a
        bounce for the rest, each carrying ``files`` (attachment records whose contents
        are in ``state['blobs']``) and the conversation key ``thread``. ``(state, id of
        the Sent copy, delivered, bounced)``."""
        me = address_of(state, sender)
        base = _with_files({"from": me, "to": to, "cc": cc, "subject": subject, "body": body, "at_us": now_us},
                           files or [])
        if thread is not None:
            base["thread"] = thread
        state, sent = self._add(state, sender, {**base, "folder": "Sent", "unread": False})
        delivered: list[str] = []
        bounced: list[dict] = []
        seen: set[str] = set()
        for address in [*to, *cc]:
            if address.lower() in seen:
                continue
            seen.add(address.lower())
            user = local_user(state, address)
            if user is not None:
                state, _ = self._add(state, user, {**base, "folder": "Inbox", "unread": True})
                delivered.append(address)
                continue
            domain = address.rpartition("@")[2].lower().rstrip(".")
            reason = (f"user unknown: there is no mailbox {address.partition('@')[0]!r} at {state['domain']}"
                      if domain == state["domain"] else
                      f"relay access denied: this server delivers only to addresses at {state['domain']}, "
                      f"not to {domain} (mail between services is not supported)")
            bounced.append({"address": address, "reason": reason})
        if bounced:
            lines = "\n".join(f"<{b['address']}>: {b['reason']}" for b in bounced)
            text = (f"This is the mail system at {state['domain']}.\n\nI'm sorry to have to inform you that your message "
                    f"could not be delivered to one or more recipients.\n\n{lines}\n\n"
                    f"--- The message ---\nDate: {timestamp(now_us)}\nTo: {', '.join(to)}\n"
                    + (f"Cc: {', '.join(cc)}\n" if cc else "") + f"Subject: {subject}\n"
                    + (f"Attachments: {', '.join(f['name'] for f in files)}\n" if files else "") + f"\n{body}")
            state, _ = self._add(state, sender, {"from": daemon_address(state), "to": [me], "cc": [], "subject": BOUNCE_SUBJECT,
                                                 "body": text, "at_us": now_us, "folder": "Inbox", "unread": True})
        return state, sent, delivered, bounced

    def _reply_thread(self, state: dict, user: str, raw: str) -> str | None:
        """The conversation a reply to message ``raw`` joins: the message's own, if it is in one."""
        return self._find(state, user, raw).get("thread")

    @staticmethod
    def _conversation(state: dict, user: str, m: dict) -> list[dict]:
        """The other messages of ``user``'s mailbox in ``m``'s conversation, oldest first."""
        if "thread" not in m:
            return []
        return sorted((o for o in mailbox(state, user) if o.get("thread") == m["thread"] and o["id"] != m["id"]),
                      key=lambda o: (o["at_us"], o["id"]))

    def _delete(self, state: dict, user: str, m: dict) -> tuple[dict, str]:
        if m["folder"] == "Trash":
            return self._replace(state, user, m["id"], None), "deleted"
        return self._replace(state, user, m["id"], {**m, "folder": "Trash"}), "trashed"

    def _move(self, state: dict, user: str, m: dict, target: str) -> dict:
        folder = _resolve_folder(state, user, target)
        if folder is None:
            raise HttpError(404, f"no folder named {target!r}")
        if folder == "Drafts" and m["folder"] != "Drafts":
            raise HttpError(409, "only drafts saved from the compose form live in Drafts")
        return self._replace(state, user, m["id"], {**m, "folder": folder})

    @route("POST", "/signup")
    def signup(self, ctx: Ctx) -> Any:
        if ctx.form.get("username", "").lower() in RESERVED:
            raise HttpError(409, f"the user name {ctx.form['username']!r} is reserved for the mail system")
        return super().signup(ctx)

    # -- reading -----------------------------------------------------------------------
    @route("GET", "/")
    def home(self, ctx: Ctx) -> Any:
        if ctx.user is None:
            return pages.welcome_page(self, ctx)
        return pages.folder_page(self, ctx, ctx.user, "Inbox")

    @route("GET", "/folder/{name}")
    def folder(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        folder = _resolve_folder(ctx.state, user, ctx.params["name"])
        if folder is None:
            raise HttpError(404, f"no folder named {ctx.params['name']!r}")
        return pages.folder_page(self, ctx, user, folder)

    @route("GET", "/message/{id}")
    def read(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        m = self._find(ctx.state, user, ctx.params["id"])
        if m["unread"]:
            m = {**m, "unread": False}
            ctx.state = self._replace(ctx.state, user, m["id"], m)
        return pages.message_page(self, ctx, user, m, self._conversation(ctx.state, user, m))

    @route("GET", "/search")
    def search(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        query = ctx.field("q", required=False, limit=500).strip()
        return pages.search_page(self, ctx, user, query, self._search(ctx.state, user, query) if query else None)

    def _search(self, state: dict, user: str, query: str) -> list[dict]:
        words = query.casefold().split()
        found = []
        for m in mailbox(state, user):
            people = [full_name(state, a) for a in [m["from"], *m["to"], *m["cc"]]]
            names = [f["name"] for f in m.get("attachments", ())]
            text = "\n".join([*people, m["subject"], m["body"], *names]).casefold()
            if all(w in text for w in words):
                found.append(m)
        return newest_first(found)

    # -- writing -----------------------------------------------------------------------
    @route("GET", "/compose")
    def compose(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        state, q = ctx.state, ctx.query
        fields = {"to": q.get("to", ""), "cc": q.get("cc", ""), "subject": q.get("subject", ""), "body": q.get("body", "")}
        draft = forward = reply = None
        files: list[dict] = []
        me = address_of(state, user).lower()
        if "draft" in q:
            m = self._find(state, user, q["draft"])
            if m["folder"] != "Drafts":
                raise HttpError(409, f"message {m['id']} is not a draft")
            draft, files = m["id"], m.get("attachments", [])
            fields = {"to": ", ".join(m["to"]), "cc": ", ".join(m["cc"]), "subject": m["subject"], "body": m["body"]}
        elif "reply" in q or "reply_all" in q:
            m = self._find(state, user, q.get("reply", q.get("reply_all", "")))
            reply = m["id"] if "thread" in m else None
            mine = m["from"].lower() == me
            to = list(m["to"]) if mine else [m["from"]]
            cc: list[str] = []
            if "reply_all" in q:
                seen = {a.lower() for a in to} | {me}
                for a in [*m["to"], *m["cc"]]:
                    if a.lower() not in seen:
                        seen.add(a.lower())
                        cc.append(a)
            quoted = "\n".join(f"> {line}" if line else ">" for line in m["body"].split("\n"))
            fields = {"to": ", ".join(to), "cc": ", ".join(cc),
                      "subject": m["subject"] if re.match(r"(?i)re:", m["subject"]) else f"Re: {m['subject']}",
                      "body": f"\n\nOn {timestamp(m['at_us'])}, {full_name(state, m['from'])} wrote:\n{quoted}"}
        elif "forward" in q:
            m = self._find(state, user, q["forward"])
            forward, files = m["id"], m.get("attachments", [])
            header = (f"From: {full_name(state, m['from'])}\nDate: {timestamp(m['at_us'])}\nSubject: {subject_of(m)}\n"
                      f"To: {', '.join(m['to'])}\n" + (f"Cc: {', '.join(m['cc'])}\n" if m["cc"] else ""))
            fields = {"to": "", "cc": "",
                      "subject": m["subject"] if re.match(r"(?i)(fwd?|fw):", m["subject"]) else f"Fwd: {m['subject']}",
                      "body": f"\n\n---------- Forwarded message ----------\n{header}\n{m['body']}"}
        return pages.compose_page(self, ctx, user, fields, draft, forward, files, reply)

    @route("POST", "/send")
    def send(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        action = ctx.field("action", required=False, default="send")
        if action not in ("send", "save"):
            raise HttpError(400, f"the field 'action' is send or save, got {action!r}")
        text = {name: ctx.field(name, required=False, limit=limit) for name, limit in LIMITS.items()}
        draft = None
        if ctx.field("draft", required=False):
            draft = self._find(ctx.state, user, ctx.field("draft"))
            if draft["folder"] != "Drafts":
                raise HttpError(409, f"message {draft['id']} is not a draft")
        state, thread = ctx.state, (draft or {}).get("thread")
        if draft is None and ctx.field("reply", required=False):
            thread = self._reply_thread(state, user, ctx.field("reply"))
        source = draft
        if source is None and ctx.field("forward", required=False):
            source = self._find(ctx.state, user, ctx.field("forward"))
        # the form's checkboxes keep-N: which attachments of the draft or the forwarded message stay
        files = [dict(f) for i, f in enumerate((source or {}).get("attachments", [])) if f"keep-{i}" in ctx.form]
        if action == "save":
            saved = _with_files({"from": address_of(ctx.state, user), "to": _split(text["to"]), "cc": _split(text["cc"]),
                                 "subject": text["subject"], "body": text["body"], "at_us": ctx.now_us, "folder": "Drafts",
                                 "unread": False}, files)
            if thread is not None:
                saved["thread"] = thread
            ctx.state = state
            if draft is None:
                ctx.state, _ = self._add(ctx.state, user, saved)
            else:
                ctx.state = self._replace(ctx.state, user, draft["id"], {**saved, "id": draft["id"]})
            return Redirect("/folder/Drafts?notice=saved")
        to, cc = self._addresses(ctx.state, text["to"], "to"), self._addresses(ctx.state, text["cc"], "cc")
        if not to and not cc:
            raise HttpError(400, "add at least one recipient in 'to'")
        ctx.state, _, _, _ = self._deliver(state, user, to, cc, text["subject"], text["body"], ctx.now_us, files, thread)
        if draft is not None:
            ctx.state = self._replace(ctx.state, user, draft["id"], None)
        return Redirect("/folder/Inbox?notice=sent")

    @staticmethod
    def _addresses(state: dict, text: str, field: str) -> list[str]:
        out: list[str] = []
        for part in _split(text):
            named = re.fullmatch(r"[^<>]*<([^<>]+)>", part)  # "Bob Jones <bob@mail.local>"
            address = named.group(1).strip() if named else part
            if not ADDRESS.match(address):
                raise HttpError(400, f"{field}: {address!r} is not an email address (like bob@{state['domain']})")
            if address.lower() not in {a.lower() for a in out}:
                out.append(address)
        return out

    @route("POST", "/message/{id}/unread")
    def mark_unread(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        m = self._find(ctx.state, user, ctx.params["id"])
        ctx.state = self._replace(ctx.state, user, m["id"], {**m, "unread": True})
        return Redirect(f"{pages.folder_url(m['folder'])}?notice=unread")

    @route("POST", "/message/{id}/move")
    def move(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        m = self._find(ctx.state, user, ctx.params["id"])
        ctx.state = self._move(ctx.state, user, m, ctx.field("folder", limit=64))
        return Redirect(f"{pages.folder_url(m['folder'])}?notice=moved")

    @route("POST", "/message/{id}/delete")
    def delete(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        m = self._find(ctx.state, user, ctx.params["id"])
        ctx.state, notice = self._delete(ctx.state, user, m)
        return Redirect(f"{pages.folder_url(m['folder'])}?notice={notice}")

    # -- folders -----------------------------------------------------------------------
    @route("GET", "/folders")
    def folders(self, ctx: Ctx) -> Any:
        return pages.folders_page(self, ctx, ctx.require_user())

    @route("POST", "/folders")
    def create_folder(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        name = ctx.field("name", limit=200).strip()
        existing = folders_of(ctx.state, user)
        if any(f.lower() == name.lower() for f in existing):
            raise HttpError(409, f"a folder named {name!r} already exists")
        try:
            self._folder_name(name, existing, "name")
        except ValueError:
            raise HttpError(400, f"a folder name is 1 to 64 letters, digits, spaces, '.', '-' or '_', got {name!r}") from None
        ctx.state = assoc_in(ctx.state, ["folders", user], [*ctx.state["folders"].get(user, []), name])
        return Redirect("/folders?notice=created")

    @route("POST", "/folders/{name}/delete")
    def delete_folder(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        folder = _resolve_folder(ctx.state, user, ctx.params["name"])
        if folder is None:
            raise HttpError(404, f"no folder named {ctx.params['name']!r}")
        if folder in SYSTEM_FOLDERS:
            raise HttpError(403, f"{folder} is a system folder and cannot be deleted")
        state = assoc_in(ctx.state, ["folders", user], [f for f in ctx.state["folders"][user] if f != folder])
        box = [{**m, "folder": "Trash"} if m["folder"] == folder else m for m in mailbox(state, user)]
        ctx.state = assoc_in(state, ["mailboxes", user], box) if user in state["mailboxes"] else state
        return Redirect("/folders?notice=removed")

    # -- JSON API ----------------------------------------------------------------------
    @staticmethod
    def _summary(m: dict, body: bool = False) -> dict:
        out = {k: v for k, v in m.items() if (body or k != "body") and k != "attachments"}
        files = [{"index": i, "name": f["name"], "type": f["type"], "size": f["size"]}
                 for i, f in enumerate(m.get("attachments", ()))]
        return {**out, "date": timestamp(m["at_us"]), "attachments": files}

    @route("GET", "/api/folders")
    def api_folders(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        box = mailbox(ctx.state, user)
        return Json([{"name": f, "total": sum(1 for m in box if m["folder"] == f),
                      "unread": sum(1 for m in box if m["folder"] == f and m["unread"])} for f in folders_of(ctx.state, user)])

    @route("GET", "/api/messages")
    def api_messages(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        name = ctx.query.get("folder", "Inbox")
        folder = _resolve_folder(ctx.state, user, name)
        if folder is None:
            raise HttpError(404, f"no folder named {name!r}")
        found = newest_first([m for m in mailbox(ctx.state, user) if m["folder"] == folder])
        return Json({"folder": folder, "messages": [self._summary(m) for m in found]})

    @route("GET", "/api/messages/{id}")
    def api_message(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        return Json(self._summary(self._find(ctx.state, user, ctx.params["id"]), body=True))

    @route("POST", "/api/messages/{id}")
    def api_update(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        m = self._find(ctx.state, user, ctx.params["id"])
        change = ctx.json
        if not isinstance(change, dict):
            raise HttpError(400, "the body is a JSON object {unread?, folder?}")
        try:
            check_fields(change, "body", {"unread": bool, "folder": str})
        except ValueError as exc:
            raise HttpError(400, str(exc)) from None
        state = ctx.state
        if "folder" in change:
            state = self._move(state, user, m, change["folder"])
            m = self._find(state, user, str(m["id"]))
        if "unread" in change:
            state = self._replace(state, user, m["id"], {**m, "unread": change["unread"]})
        ctx.state = state
        return Json(self._summary(self._find(state, user, str(m["id"])), body=True))

    @route("DELETE", "/api/messages/{id}")
    def api_delete(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        m = self._find(ctx.state, user, ctx.params["id"])
        ctx.state, notice = self._delete(ctx.state, user, m)
        return Json({"id": m["id"], "folder": "Trash" if notice == "trashed" else None})

    @route("POST", "/api/send")
    def api_send(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        data = ctx.json if ctx.json is not None else ctx.form
        if not isinstance(data, dict):
            raise HttpError(400, "the body is a JSON object {to, subject, body, cc?, attachments?, reply?}")
        unknown = sorted(set(data) - {"to", "cc", "subject", "body", "attachments", "reply"})
        if unknown:
            raise HttpError(400, f"{unknown[0]}: unknown field (known: attachments, body, cc, reply, subject, to)")
        text = {}
        for name, limit in LIMITS.items():
            value = data.get(name, "")
            if name in ("to", "cc") and isinstance(value, list) and all(isinstance(a, str) for a in value):
                value = ", ".join(value)
            if not isinstance(value, str):
                raise HttpError(400, f"{name}: expected text{' or a list of addresses' if name in ('to', 'cc') else ''}")
            if len(value) > limit:
                raise HttpError(400, f"{name}: longer than {limit} characters")
            text[name] = value
        to, cc = self._addresses(ctx.state, text["to"], "to"), self._addresses(ctx.state, text["cc"], "cc")
        if not to and not cc:
            raise HttpError(400, "to: add at least one recipient")
        state, thread = ctx.state, None
        if data.get("reply") is not None:
            reply = data["reply"]
            if isinstance(reply, bool) or not isinstance(reply, (int, str)):
                raise HttpError(400, f"reply: the id of a message of yours, got {reply!r}")
            thread = self._reply_thread(state, user, str(reply))
        state, files = self._upload(state, user, data.get("attachments", []))
        state, sent, delivered, bounced = self._deliver(state, user, to, cc, text["subject"], text["body"], ctx.now_us, files,
                                                        thread)
        ctx.state = state
        return Json({"id": sent, "delivered": delivered, "bounced": bounced}, 201)

    @staticmethod
    def _upload(state: dict, user: str, value: Any) -> tuple[dict, list[dict]]:
        """``(state with the new contents, records)`` of a request's ``attachments``.

        Raises:
            HttpError: ``400`` naming the item, ``507`` when the store would pass its cap.
        """
        blobs = dict(state.get("blobs", {}))
        try:
            files = _attachments(value, "attachments", blobs, mine=mailbox(state, user))
        except ValueError as exc:
            raise HttpError(400, str(exc)) from None
        if not files:
            return state, files
        if len(blobs) != len(state.get("blobs", {})) and store_bytes(blobs) > STORE_BYTES_MAX:
            raise HttpError(507, f"the mail store is full: it keeps at most {STORE_BYTES_MAX} bytes of attachments")
        return {**state, "blobs": blobs}, files

    @route("GET", "/message/{id}/attachments/{index}")
    @route("GET", "/api/messages/{id}/attachments/{index}")
    def attachment(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        m = self._find(ctx.state, user, ctx.params["id"])
        files = m.get("attachments", [])
        raw = ctx.params["index"]
        if not re.fullmatch(r"[0-9]{1,4}", raw) or int(raw) >= len(files):
            raise HttpError(404, f"message {m['id']} has no attachment {raw!r} (it has {len(files)}, numbered from 0)")
        f = files[int(raw)]
        data = base64.b64decode(ctx.state["blobs"][f["sha256"]])
        return Response(200, Headers((("Content-Type", f["type"]), ("Content-Length", str(len(data))),
                                      ("Content-Disposition", _disposition(f["name"])))), data)

    @route("GET", "/api/search")
    def api_search(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        query = ctx.field("q", limit=500).strip()
        return Json({"query": query, "messages": [self._summary(m) for m in self._search(ctx.state, user, query)]})


SERVICE_KINDS.register(Mail.name, Mail())
