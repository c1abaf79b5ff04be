"""Worlds written for the reference engine: its ``initial_state`` shapes, read as cwgym's.

The reference engine (``computerworld`` 0.2.0) seeds most kinds differently from cwgym:
records keyed by id in objects, times as logical microseconds (``time``, ``tick``), people
named in the records rather than listed as accounts. A service whose ``initial_state``
carries a field only the reference uses (``articles`` for a wiki, ``messages`` for mail,
``boards`` for a forum...) is read here: each reader checks the reference's shape, naming
the path it was given, and returns the same content in cwgym's own form, which the kind
then checks as it checks any world.

Everyone a record names becomes an account without a password: the reference engine signs
a machine's user in by who they are (``accounts`` maps one to a mail address), cwgym's sites
by a password or a session. A world meant for both engines adds cwgym's own ``users`` (with
passwords) or ``sessions``, which the reference engine ignores as it ignores any field it
does not know (mail's ``users`` are the reference's addresses, so mail takes ``sessions``).

A field cwgym has no counterpart for (a mail message's labels, a wiki's skin...) is
refused when it holds anything but the reference's default, never dropped: the error names
it. The shapes were found by loading each one in the reference engine; the samples in
``tests/services/data/reference_forms.json`` load in both (``python -m
benchmarks.check_reference_forms`` checks them against the reference engine).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from cwgym.services._git_model import branch_problem, make_commit
from cwgym.services.framework import REFERENCE_FORMS, USER_NAME, check_fields, timestamp

Reader = Callable[[dict, str, "_People"], dict]

#: kind -> (the top-level fields only the reference's form has, a test of the fields both
#: forms share, the reader)
_READERS: dict[str, tuple[frozenset[str], Callable[[dict], bool], Reader]] = {}
#: the presentation fields many reference kinds carry, with their defaults
_LOOKS = {"skin": "", "theme": {}, "tagline": ""}


def reads(kind: str, marks: tuple[str, ...], shared: Callable[[dict], bool] = lambda state: False,
          ) -> Callable[[Reader], Reader]:
    """Register the reader of ``kind``'s reference form: a state is in that form when it has
    one of the fields ``marks`` or when ``shared`` says a field both forms have is written
    the reference's way."""
    def register(fn: Reader) -> Reader:
        _READERS[kind] = (frozenset(marks), shared, fn)
        REFERENCE_FORMS[kind] = (lambda state: in_reference_form(kind, state),
                                 lambda state, where: from_reference(kind, state, where))
        return fn
    return register


def _keyed(state: dict, field: str, test: Callable[[dict], bool]) -> bool:
    """Whether ``state[field]`` is an object of records one of which passes ``test``."""
    value = state.get(field)
    return isinstance(value, dict) and any(isinstance(v, dict) and test(v) for v in value.values())


def in_reference_form(kind: str, state: Any) -> bool:
    """Whether ``state`` is written in the reference engine's form of ``kind``."""
    if kind not in _READERS or not isinstance(state, dict):
        return False
    marks, shared, _ = _READERS[kind]
    return any(name in state for name in marks) or shared(state)


def from_reference(kind: str, state: dict, where: str) -> dict:
    """``state``, written in the reference engine's form of ``kind``, in cwgym's form.

    Raises:
        ValueError: naming the path of what is malformed or has no counterpart here.
    """
    people = _People()
    if kind != "mail":  # mail's users are addresses, read by its reader
        people.seed(state.get("users", []), f"{where}.users")
    own = {k: state[k] for k in _OWN if k in state and (k != "users" or kind != "mail")}
    try:
        out = _READERS[kind][2]({k: v for k, v in state.items() if k not in own}, where, people)
    except ValueError as exc:
        marks = [name for name in state if name in _READERS[kind][0]]
        why = f"it has {', '.join(repr(m) for m in marks)}" if marks else "its records are keyed by id"
        raise ValueError(f"{exc} (read as the reference engine's form of {kind!r}: {why})") from None
    return {**out, **{k: v for k, v in own.items() if k != "users"}}


#: cwgym's fields a state in the reference's form may carry too (the reference engine ignores
#: fields it does not know): accounts with passwords, and signed-in sessions
_OWN = ("users", "sessions", "next_session")


def reference_kinds() -> list[str]:
    """The kinds whose reference form is read."""
    return sorted(_READERS)


# -- checking the reference's shapes ---------------------------------------------------------

_TYPE_NAMES = {str: "a text", int: "an integer", bool: "true or false", list: "a list", dict: "an object",
               type(None): "null"}


def _shape(value: Any, where: str, fields: dict[str, Any], required: tuple[str, ...] = ()) -> dict:
    """``value`` checked as an object of ``fields`` (name -> type or types)."""
    if not isinstance(value, dict):
        raise ValueError(f"{where}: an object, got {type(value).__name__}")
    for name, item in value.items():
        if name not in fields:
            raise ValueError(f"{where}.{name}: not a field of the reference engine's form "
                             f"(known: {', '.join(sorted(fields))})")
        kinds = fields[name] if isinstance(fields[name], tuple) else (fields[name],)
        if not isinstance(item, kinds) or (isinstance(item, bool) and bool not in kinds):
            names = " or ".join(_TYPE_NAMES.get(k, k.__name__) for k in kinds)
            raise ValueError(f"{where}.{name}: {names}, got {type(item).__name__}")
    for name in required:
        if name not in value:
            raise ValueError(f"{where}.{name}: required")
    return value


def _unsupported(value: dict, where: str, defaults: dict[str, Any], why: str) -> None:
    """Refuse a field of ``defaults`` set to anything but its default: cwgym has no such thing."""
    for name, default in defaults.items():
        if name in value and value[name] != default and value[name] is not None:
            raise ValueError(f"{where}.{name}: {why} (the reference engine's {name!r} has no counterpart here; "
                             f"leave it out or at {default!r})")


def _texts(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{where}: a list of texts")
    return list(value)


def _records(value: Any, where: str) -> list[tuple[str, str, Any]]:
    """``(key, path, record)`` of an object of records keyed by id, in the order written."""
    if not isinstance(value, dict):
        raise ValueError(f"{where}: an object of records keyed by id, got {type(value).__name__}")
    return [(key, f"{where}.{key}", record) for key, record in value.items()]


class _People:
    """Everyone a reference state names, in the order they are first named: cwgym's accounts.

    A state may also list cwgym's ``users`` (``[{name, password, display?}]``), which the
    reference engine does not read: they come first and keep their passwords, so the same
    world loads in both engines and its people can sign in here."""

    def __init__(self) -> None:
        self.accounts: dict[str, dict] = {}

    def seed(self, users: Any, where: str) -> None:
        if not isinstance(users, list):
            raise ValueError(f"{where}: a list of accounts [{{name, password, display?}}]")
        for i, user in enumerate(users):
            at = f"{where}[{i}]"
            check_fields(user, at, {"name": str, "password": str, "display": str, "email": str}, ("name", "password"))
            if user["name"] in self.accounts:
                raise ValueError(f"{at}.name: {user['name']!r} is listed twice")
            self.add(user["name"], f"{at}.name")
            self.accounts[user["name"]] = dict(user)

    def add(self, name: Any, where: str) -> str:
        if not isinstance(name, str) or not USER_NAME.match(name):
            raise ValueError(f"{where}: a person's name is 1 to 64 letters, digits, '.', '-' or '_', got {name!r}")
        self.accounts.setdefault(name, {"name": name})
        return name

    def users(self) -> list[dict]:
        return [{"password": "", **account} for account in self.accounts.values()]


def _stamp(us: int) -> str:
    """A logical time in microseconds as a calendar's ``YYYY-MM-DDTHH:MM``."""
    return timestamp(us).replace(" ", "T")


def _looks(state: dict, where: str) -> None:
    _unsupported(state, where, _LOOKS, "cwgym draws every site in its own style")


def _brand(state: dict, out: dict, default: str = "") -> dict:
    if state.get("brand", default) not in ("", default):
        out["brand"] = state["brand"]
    return out


# -- mail --------------------------------------------------------------------------------------

_MAIL_FOLDERS = {"inbox": "Inbox", "sent": "Sent", "drafts": "Drafts", "draft": "Drafts", "trash": "Trash"}


@reads("mail", ("messages", "accounts", "next_id"),
       lambda s: isinstance(s.get("users"), list) and any(isinstance(u, str) and "@" in u for u in s["users"]))
def _mail(state: dict, where: str, people: _People) -> dict:
    _shape(state, where, {"users": list, "accounts": dict, "domain": str, "messages": dict, "next_id": int})
    addresses = _texts(state.get("users", []), f"{where}.users")
    domains = {a.rpartition("@")[2].lower() for a in addresses if "@" in a}
    domain = state.get("domain", "").lower() or (domains.pop() if len(domains) == 1 else "")
    if not domain:
        raise ValueError(f"{where}.users: the addresses name {len(domains)} domains; cwgym's mail serves one "
                         f"(give 'domain')" if domains else f"{where}.domain: required when no user has an address")

    def local(address: Any, at: str) -> str:
        if not isinstance(address, str) or "@" not in address:
            raise ValueError(f"{at}: an address like name@{domain}, got {address!r}")
        name, _, host = address.rpartition("@")
        if host.lower() != domain:
            raise ValueError(f"{at}: {address!r} is not of {domain}, the domain this service serves")
        return name

    for i, address in enumerate(addresses):
        people.add(local(address, f"{where}.users[{i}]"), f"{where}.users[{i}]")
    for actor, address in state.get("accounts", {}).items():
        # the reference signs a machine's user in as this address; cwgym signs in with a password
        at = f"{where}.accounts.{actor}"
        people.add(local(address, at), at)
    mailboxes: dict[str, list[dict]] = {}
    for _, at, message in _records(state.get("messages", {}), f"{where}.messages"):
        _shape(message, at, {"id": str, "sender": str, "to": list, "cc": list, "subject": str, "body": str,
                             "time": int, "thread_id": str, "mailboxes": dict},
               ("id", "sender", "to", "cc", "subject", "body", "time", "mailboxes"))
        base = {"from": message["sender"], "to": _texts(message["to"], f"{at}.to"),
                "cc": _texts(message["cc"], f"{at}.cc"), "subject": message["subject"], "body": message["body"],
                "at_us": message["time"]}
        if message.get("thread_id"):
            base["thread"] = message["thread_id"]
        for address, box in message["mailboxes"].items():
            bat = f"{at}.mailboxes.{address}"
            user = people.add(local(address, bat), bat)
            _shape(box, bat, {"folders": list, "labels": list, "read": bool, "starred": bool}, ("folders", "labels", "read"))
            _unsupported(box, bat, {"labels": [], "starred": False}, "cwgym's mail has folders, not labels or stars")
            folders = _texts(box["folders"], f"{bat}.folders")
            if len(folders) > 1:
                raise ValueError(f"{bat}.folders: a message is in one folder in cwgym's mail, got {folders}")
            folder = _MAIL_FOLDERS.get(folders[0].lower(), folders[0]) if folders else "Inbox"
            mailboxes.setdefault(user, []).append({**base, "folder": folder, "unread": not box["read"]})
    out: dict = {"domain": domain, "users": people.users()}
    if mailboxes:
        out["mailboxes"] = mailboxes
    return out


# -- wiki --------------------------------------------------------------------------------------

def _article_text(article: dict, at: str, titles: dict[str, str]) -> str:
    """An article's summary, infobox, sections, see-also, references and categories as wikitext."""
    parts = [article["summary"]] if article.get("summary") else []
    for i, row in enumerate(article.get("infobox", [])):
        if not (isinstance(row, list) and len(row) == 2 and all(isinstance(v, str) for v in row)):
            raise ValueError(f"{at}.infobox[{i}]: a pair [label, value] of texts")
    if article.get("infobox"):
        parts.append("\n".join(f"* {label}: {value}" for label, value in article["infobox"]))
    for i, section in enumerate(article.get("sections", [])):
        _shape(section, f"{at}.sections[{i}]", {"id": str, "heading": str, "body": str}, ("id",))
        parts.append(f"== {section.get('heading') or section['id']} ==\n{section.get('body', '')}".rstrip())
    see = []
    for i, other in enumerate(_texts(article.get("see_also", []), f"{at}.see_also")):
        if other not in titles:
            raise ValueError(f"{at}.see_also[{i}]: no article {other!r}")
        see.append(f"* [[{titles[other]}]]")
    if see:
        parts.append("== See also ==\n" + "\n".join(see))
    refs = []
    for i, ref in enumerate(article.get("references", [])):
        _shape(ref, f"{at}.references[{i}]", {"label": str, "url": str}, ("url",))
        refs.append(f"# [{ref['url']} {ref.get('label') or ref['url']}]")
    if refs:
        parts.append("== References ==\n" + "\n".join(refs))
    if article.get("categories"):
        parts.append("Categories: " + ", ".join(_texts(article["categories"], f"{at}.categories")))
    return "\n\n".join(parts)


@reads("wiki", ("articles", "accounts", "featured", "in_the_news", "redirects", "skin", "tagline", "theme"))
def _wiki(state: dict, where: str, people: _People) -> dict:
    _shape(state, where, {"accounts": dict, "articles": dict, "brand": str, "featured": str, "in_the_news": list,
                          "next_rev": int, "redirects": dict, "skin": str, "tagline": str, "theme": dict})
    _unsupported(state, where, {"skin": "", "theme": {}, "tagline": "The free encyclopedia"},
                 "cwgym draws every site in its own style")
    for actor, name in state.get("accounts", {}).items():
        # as mail's: a machine's user and the account the reference signs them in as
        people.add(name, f"{where}.accounts.{actor}")
    articles = _records(state.get("articles", {}), f"{where}.articles")
    titles = {key: (article.get("title") or key) if isinstance(article, dict) else key for key, _, article in articles}
    # (title, text, author, logical µs, summary): one revision a page, the article as it stands
    pages: list[tuple[str, str, str, int, str]] = []
    for key, at, article in articles:
        _shape(article, at, {"id": str, "title": str, "summary": str, "sections": list, "infobox": list,
                             "references": list, "see_also": list, "categories": list, "revisions": list, "talk": list})
        author, tick, comment = "", 0, "Created page"
        for i, rev in enumerate(article.get("revisions", [])):
            rat = f"{at}.revisions[{i}]"
            _shape(rev, rat, {"author": str, "comment": str, "rev": int, "section": (str, type(None)), "tick": int})
            author = people.add(rev["author"], f"{rat}.author") if rev.get("author") else author
            tick, comment = rev.get("tick", tick), rev.get("comment") or comment
        pages.append((titles[key], _article_text(article, at, titles) or titles[key], author, tick, comment))
        talk, talk_tick = [], 0
        for i, note in enumerate(article.get("talk", [])):
            nat = f"{at}.talk[{i}]"
            _shape(note, nat, {"author": str, "text": str, "tick": int}, ("text",))
            talk.append(f"{note['text']} — {people.add(note['author'], f'{nat}.author')}" if note.get("author")
                        else note["text"])
            talk_tick = max(talk_tick, note.get("tick", 0))
        if talk:
            pages.append((f"Talk:{titles[key]}", "\n\n".join(talk), "", talk_tick, "Talk"))
    for source, target in state.get("redirects", {}).items():
        if not isinstance(target, str) or target not in titles:
            raise ValueError(f"{where}.redirects.{source}: no article {target!r}")
        pages.append((source, f"This page moved to [[{titles[target]}]].", "", 0, "Redirect"))
    news = []
    for i, item in enumerate(state.get("in_the_news", [])):
        _shape(item, f"{where}.in_the_news[{i}]", {"label": str, "url": str}, ("label", "url"))
        news.append(f"* [{item['url']} {item['label']}]")
    main = []
    if state.get("featured"):
        if state["featured"] not in titles:
            raise ValueError(f"{where}.featured: no article {state['featured']!r}")
        main.append(f"== Featured article ==\n[[{titles[state['featured']]}]]")
    if news:
        main.append("== In the news ==\n" + "\n".join(news))
    if main:
        pages.insert(0, ("Main Page", "\n\n".join(main), "", 0, "Main page"))
    built = {"pages": {}, "revisions": {}, "next_rev": len(pages) + 1}
    for n, (title, text, author, tick, summary) in enumerate(pages, start=1):
        if title in built["pages"]:
            raise ValueError(f"{where}.articles: two pages would be titled {title!r}")
        built["pages"][title] = [n]
        built["revisions"][str(n)] = {"id": n, "title": title, "text": text, "author": author or "system",
                                      "at_us": tick, "summary": summary}
    return _brand(state, {"users": people.users(), **built}, "Wikipedia")


# -- chat and slack ----------------------------------------------------------------------------

def _channels(value: Any, where: str, people: _People) -> list[dict]:
    channels = []
    for key, at, channel in _records(value, where):
        _shape(channel, at, {"title": str, "members": list, "messages": list})
        out: dict = {"name": key}
        if channel.get("title") and channel["title"].lower().lstrip("#") != key.lower():
            out["topic"] = channel["title"]
        members = [people.add(m, f"{at}.members[{i}]") for i, m in enumerate(_texts(channel.get("members", []), f"{at}.members"))]
        if members:
            out["members"] = members
        messages = []
        for i, message in enumerate(channel.get("messages", [])):
            mat = f"{at}.messages[{i}]"
            _shape(message, mat, {"id": str, "author": str, "text": str, "time": int, "reactions": dict},
                   ("author", "text"))
            out_message = {"author": people.add(message["author"], f"{mat}.author"), "text": message["text"],
                           "at_us": message.get("time", 0)}
            for name, who in message.get("reactions", {}).items():
                for i, person in enumerate(_texts(who, f"{mat}.reactions.{name}")):
                    people.add(person, f"{mat}.reactions.{name}[{i}]")
            if message.get("reactions"):
                out_message["reactions"] = message["reactions"]
            messages.append(out_message)
        if messages:
            out["messages"] = messages
        channels.append(out)
    return channels


@reads("chat", ("next_id",), lambda s: _keyed(s, "channels", lambda c: "title" in c or "private" not in c))
def _chat(state: dict, where: str, people: _People) -> dict:
    _shape(state, where, {"channels": dict, "next_id": int, "brand": str})
    channels = _channels(state.get("channels", {}), f"{where}.channels", people)
    return _brand(state, {"users": people.users(), "channels": channels})


@reads("slack", ("channels", "workspace", "next_id"))
def _slack(state: dict, where: str, people: _People) -> dict:
    _shape(state, where, {"channels": dict, "next_id": int, "workspace": str, "brand": str})
    channels = _channels(state.get("channels", {}), f"{where}.channels", people)
    title = state.get("workspace", "")
    name = re.sub(r"[^a-z0-9_-]+", "-", title.lower()).strip("-")[:80] or "workspace"
    out = {"users": people.users(), "workspaces": [{"name": name, "channels": channels}]}
    if title and not state.get("brand"):
        out["brand"] = title  # the reference names its one workspace; cwgym's site names itself
    return _brand(state, out)


# -- calendar ----------------------------------------------------------------------------------

_RESPONSES = {"accepted": "accepted", "declined": "declined", "tentative": "tentative", "maybe": "tentative",
              "needs-action": "needs-action", "needs_action": "needs-action", "pending": "needs-action",
              "invited": "needs-action"}


@reads("calendar", ("next_id",), lambda s: _keyed(s, "events", lambda e: "owner" in e or "organizer" not in e))
def _calendar(state: dict, where: str, people: _People) -> dict:
    _shape(state, where, {"events": dict, "next_id": int})
    events: dict[str, dict] = {}
    for n, (_, at, event) in enumerate(_records(state.get("events", {}), f"{where}.events"), start=1):
        _shape(event, at, {"id": str, "title": str, "owner": str, "start": int, "end": int, "created": int,
                           "attendees": dict}, ("id", "title", "owner", "start", "end", "created", "attendees"))
        attendees = {}
        for name, response in event["attendees"].items():
            aat = f"{at}.attendees.{name}"
            if not isinstance(response, str) or response not in _RESPONSES:
                raise ValueError(f"{aat}: a response ({', '.join(_RESPONSES)}), got {response!r}")
            attendees[people.add(name, aat)] = _RESPONSES[response]
        for field in ("start", "end"):
            if event[field] % 60_000_000:
                raise ValueError(f"{at}.{field}: cwgym's calendar keeps whole minutes; {event[field]} µs is not one")
        events[str(n)] = {"id": n, "title": event["title"], "start": _stamp(event["start"]), "end": _stamp(event["end"]),
                          "location": "", "description": "", "organizer": people.add(event["owner"], f"{at}.owner"),
                          "attendees": attendees, "created": timestamp(event["created"]),
                          "updated": timestamp(event["created"])}
    return {"users": people.users(), "events": events, "next_event": len(events) + 1}


# -- docs --------------------------------------------------------------------------------------

@reads("docs", ("next_id",), lambda s: _keyed(s, "documents", lambda d: "revisions" not in d))
def _docs(state: dict, where: str, people: _People) -> dict:
    _shape(state, where, {"documents": dict, "next_id": int})
    documents: dict[str, dict] = {}
    comments_made = 0
    for n, (_, at, doc) in enumerate(_records(state.get("documents", {}), f"{where}.documents"), start=1):
        _shape(doc, at, {"id": str, "title": str, "body": str, "owner": str, "readers": list, "writers": list,
                         "revision": int, "history": list, "comments": list, "body_variants": list}, ("owner",))
        _unsupported(doc, at, {"body_variants": []}, "a cwgym document has one body")
        owner = people.add(doc["owner"], f"{at}.owner")
        shared = {people.add(u, f"{at}.readers[{i}]"): "viewer" for i, u in enumerate(_texts(doc.get("readers", []), f"{at}.readers"))}
        shared.update({people.add(u, f"{at}.writers[{i}]"): "editor"
                       for i, u in enumerate(_texts(doc.get("writers", []), f"{at}.writers"))})
        shared.pop(owner, None)
        revisions = []
        for i, rev in enumerate(doc.get("history", [])):
            rat = f"{at}.history[{i}]"
            _shape(rev, rat, {"revision": int, "author": str, "body": str, "time": int}, ("author", "body", "time"))
            if not rev["author"] and not rev["body"]:
                continue  # the reference's own empty first entry of a document it built
            revisions.append({"n": len(revisions) + 1, "title": doc.get("title", ""), "body": rev["body"],
                              "author": people.add(rev["author"], f"{rat}.author"), "at": timestamp(rev["time"])})
        body = doc.get("body", "")
        if not revisions or revisions[-1]["body"] != body:
            revisions.append({"n": len(revisions) + 1, "title": doc.get("title", ""), "body": body, "author": owner,
                              "at": revisions[-1]["at"] if revisions else timestamp(0)})
        comments = []
        for i, comment in enumerate(doc.get("comments", [])):
            cat = f"{at}.comments[{i}]"
            _shape(comment, cat, {"author": str, "text": str, "time": int}, ("author", "text", "time"))
            comments_made += 1
            comments.append({"id": comments_made, "author": people.add(comment["author"], f"{cat}.author"),
                             "text": comment["text"], "at": timestamp(comment["time"])})
        documents[str(n)] = {"id": n, "title": doc.get("title") or f"Untitled {n}", "body": body, "owner": owner,
                             "shared": shared, "created": revisions[0]["at"], "updated": revisions[-1]["at"],
                             "revisions": revisions, "comments": comments}
    return {"users": people.users(), "documents": documents, "next_doc": len(documents) + 1,
            "next_comment": comments_made + 1}


# -- issues ------------------------------------------------------------------------------------

_FINISHED = ("closed", "done", "resolved", "merged", "fixed")


@reads("issues", (), lambda s: _keyed(s, "projects", lambda p: "key" not in p))
def _issues(state: dict, where: str, people: _People) -> dict:
    _shape(state, where, {"projects": dict})
    projects = []
    for key, at, project in _records(state.get("projects", {}), f"{where}.projects"):
        _shape(project, at, {"name": str, "readers": list, "writers": list, "issues": dict})
        members = [people.add(u, f"{at}.writers[{i}]")
                   for i, u in enumerate(_texts(project.get("writers", []), f"{at}.writers"))]
        readers = [people.add(u, f"{at}.readers[{i}]")
                   for i, u in enumerate(_texts(project.get("readers", []), f"{at}.readers"))]
        if any(r not in members for r in readers):
            raise ValueError(f"{at}.readers: a private cwgym project is shared with members, who may change its issues; "
                             f"{[r for r in readers if r not in members]} may only read")
        by_number: dict[int, dict] = {}
        states: list[str] = []
        for number, iat, issue in _records(project.get("issues", {}), f"{at}.issues"):
            _shape(issue, iat, {"id": int, "title": str, "body": str, "author": str, "assignee": str, "labels": list,
                                "status": str, "comments": list, "kind": str, "reviews": list, "source_ref": str,
                                "target_ref": str}, ("id", "title"))
            _unsupported(issue, iat, {"kind": "issue", "reviews": [], "source_ref": "", "target_ref": ""},
                         "cwgym's tracker holds issues; pull requests live on the git host")
            if str(issue["id"]) != number:
                raise ValueError(f"{iat}.id: {issue['id']} does not match its key")
            status = issue.get("status") or "open"
            states += [status] if status not in states else []
            out = {"title": issue["title"], "description": issue.get("body", ""), "state": status,
                   "labels": _texts(issue.get("labels", []), f"{iat}.labels"), "assignee": None}
            if issue.get("assignee"):
                out["assignee"] = people.add(issue["assignee"], f"{iat}.assignee")
                if members and out["assignee"] not in members:  # cwgym assigns members only
                    members.append(out["assignee"])
            if issue.get("author"):
                out["reporter"] = people.add(issue["author"], f"{iat}.author")
            comments = []
            for i, comment in enumerate(issue.get("comments", [])):
                cat = f"{iat}.comments[{i}]"
                _shape(comment, cat, {"author": str, "body": str, "tick": int}, ("author", "body"))
                comments.append({"author": people.add(comment["author"], f"{cat}.author"), "body": comment["body"],
                                 "at_us": comment.get("tick", 0)})
            if comments:
                out["comments"] = comments
            by_number[issue["id"]] = out
        if sorted(by_number) != list(range(1, len(by_number) + 1)):
            raise ValueError(f"{at}.issues: cwgym numbers a project's issues 1, 2, 3...; got {sorted(by_number)}")
        # the last state counts as finished in cwgym's tracker
        finished = [s for s in states if s in _FINISHED]
        workflow = ["open", *(s for s in states if s not in ("open", *finished)), *finished]
        if len(workflow) == 1:
            workflow += ["in progress", "done"]
        spec: dict = {"key": key, "name": project.get("name") or key, "private": bool(readers), "workflow": workflow,
                      "issues": [by_number[n] for n in sorted(by_number)]}
        if members:  # none listed: every account is a member, as cwgym's default
            spec["members"] = members
        projects.append(spec)
    return {"users": people.users(), "projects": projects}


# -- bank --------------------------------------------------------------------------------------

@reads("bank", ("transactions", "next_tx", "skin", "tagline", "theme"),
       lambda s: _keyed(s, "accounts", lambda a: "number" not in a))
def _bank(state: dict, where: str, people: _People) -> dict:
    _shape(state, where, {"accounts": dict, "brand": str, "next_tx": int, "payees": dict, "skin": str,
                          "tagline": str, "theme": dict, "transactions": dict})
    _looks(state, where)
    accounts: dict[str, dict] = {}
    for key, at, account in _records(state.get("accounts", {}), f"{where}.accounts"):
        _shape(account, at, {"id": str, "owner": str, "kind": str, "name": str, "balance_cents": int,
                             "available_cents": int, "limit_cents": int}, ("owner",))
        _unsupported(account, at, {"limit_cents": 0}, "cwgym's bank has no credit lines")
        if account.get("available_cents", account.get("balance_cents", 0)) not in (0, account.get("balance_cents", 0)):
            raise ValueError(f"{at}.available_cents: cwgym's bank has no holds; the available amount is the balance")
        kind = account.get("kind") or "checking"
        if kind not in ("checking", "savings"):
            raise ValueError(f"{at}.kind: checking or savings in cwgym's bank, got {kind!r}")
        out = {"number": key, "owner": people.add(account["owner"], f"{at}.owner"), "kind": kind,
               "balance_cents": account.get("balance_cents", 0), "transactions": []}
        if account.get("name"):
            out["name"] = account["name"]
        accounts[key] = out
    moves = []
    for key, at, txn in _records(state.get("transactions", {}), f"{where}.transactions"):
        _shape(txn, at, {"id": str, "account": str, "amount_cents": int, "date": str, "merchant": str, "memo": str,
                         "category": str, "pending": bool, "link": str, "tick": int}, ("account", "amount_cents"))
        _unsupported(txn, at, {"pending": False, "link": ""}, "cwgym's bank books every transaction at once")
        if txn["account"] not in accounts:
            raise ValueError(f"{at}.account: no account {txn['account']!r}")
        words = " — ".join(w for w in (txn.get("merchant", ""), txn.get("memo", "")) if w) or "Transaction"
        if txn.get("category"):
            words += f" ({txn['category']})"
        move = {"description": words, "amount_cents": txn["amount_cents"]}
        if txn.get("date"):
            move["date"] = txn["date"]
        moves.append((txn.get("date", ""), txn.get("tick", 0), key, txn["account"], move))
    for *_, account, move in sorted(moves, key=lambda m: m[:3]):
        accounts[account]["transactions"].append(move)
    payees: dict[str, list[dict]] = {}
    for _, at, payee in _records(state.get("payees", {}), f"{where}.payees"):
        _shape(payee, at, {"id": str, "name": str, "account_hint": str}, ("name", "account_hint"))
        if payee["account_hint"] not in accounts:
            raise ValueError(f"{at}.account_hint: cwgym's bank pays its own accounts only; "
                             f"{payee['account_hint']!r} is not the id of one")
        for owner in dict.fromkeys(a["owner"] for a in accounts.values()):
            payees.setdefault(owner, []).append({"name": payee["name"], "number": payee["account_hint"]})
    out = {"users": people.users(), "accounts": list(accounts.values())}
    if payees:
        out["payees"] = payees
    return _brand(state, out, "Bank")


# -- shop --------------------------------------------------------------------------------------

@reads("shop", ("categories", "favorites", "messages", "mode", "skin", "tagline", "theme"),
       lambda s: _keyed(s, "products", lambda p: "sku" not in p) or _keyed(s, "orders", lambda o: "buyer" in o)
       or (isinstance(s.get("carts"), dict) and any(isinstance(c, dict) for c in s["carts"].values())))
def _shop(state: dict, where: str, people: _People) -> dict:
    _shape(state, where, {"brand": str, "carts": dict, "categories": list, "currency": str, "favorites": dict,
                          "messages": list, "mode": str, "next_order": int, "orders": dict, "products": dict,
                          "skin": str, "tagline": str, "theme": dict})
    _looks(state, where)
    _unsupported(state, where, {"mode": "retail"}, "cwgym's shop is a retail shop")
    _unsupported(state, where, {"favorites": {}, "messages": []}, "cwgym's shop has no favourites or seller messages")
    categories = {}
    for i, category in enumerate(state.get("categories", [])):
        _shape(category, f"{where}.categories[{i}]", {"id": str, "title": str}, ("id",))
        categories[category["id"]] = category.get("title") or category["id"]
    products = []
    for key, at, product in _records(state.get("products", {}), f"{where}.products"):
        _shape(product, at, {"id": str, "title": str, "price_cents": int, "category": str, "description": str,
                             "bullets": list, "stock": int, "reviews": list, "seller": str, "rating_count": int,
                             "rating_sum": int, "fast_shipping": bool, "tiers": list, "venue": str, "venue_name": str,
                             "event_date": str, "event_tick": int}, ("title", "price_cents"))
        _unsupported(product, at, {"seller": "", "rating_count": 0, "rating_sum": 0, "fast_shipping": False,
                                   "tiers": [], "venue": "", "venue_name": "", "event_date": "", "event_tick": 0},
                     "cwgym's shop sells its own stock, rated by its reviews")
        description = "\n".join([product.get("description", ""),
                                 *(f"• {b}" for b in _texts(product.get("bullets", []), f"{at}.bullets"))]).strip()
        out = {"sku": key, "name": product["title"], "price_cents": product["price_cents"],
               "stock": product.get("stock", 0)}
        if product.get("category"):
            out["category"] = categories.get(product["category"], product["category"])
        if description:
            out["description"] = description
        reviews = []
        for i, review in enumerate(product.get("reviews", [])):
            rat = f"{at}.reviews[{i}]"
            _shape(review, rat, {"id": str, "author": str, "stars": int, "title": str, "body": str, "tick": int},
                   ("author", "stars"))
            text = ": ".join(t for t in (review.get("title", ""), review.get("body", "")) if t)
            reviews.append({"user": people.add(review["author"], f"{rat}.author"), "rating": review["stars"],
                            "text": text, "date": timestamp(review.get("tick", 0))[:10]})
        if reviews:
            out["reviews"] = reviews
        products.append(out)
    skus = {p["sku"] for p in products}
    carts: dict[str, list[dict]] = {}
    line = 0
    for user, cart in state.get("carts", {}).items():
        cat = f"{where}.carts.{user}"
        if not isinstance(cart, dict):
            raise ValueError(f"{cat}: an object of product id: quantity")
        owner = people.add(user, cat)
        for sku, qty in cart.items():
            if sku not in skus:
                raise ValueError(f"{cat}.{sku}: no product {sku!r}")
            if not isinstance(qty, int) or isinstance(qty, bool) or qty < 1:
                raise ValueError(f"{cat}.{sku}: a quantity of 1 or more, got {qty!r}")
            line += 1
            carts.setdefault(owner, []).append({"id": line, "sku": sku, "qty": qty, "options": {}})
    orders = {}
    for key, at, order in _records(state.get("orders", {}), f"{where}.orders"):
        _shape(order, at, {"id": str, "buyer": str, "confirmation": str, "date": str, "items": list, "seats": list,
                           "status": str, "tick": int, "total_cents": int, "venue": str}, ("buyer", "items"))
        _unsupported(order, at, {"seats": [], "venue": "", "confirmation": ""}, "cwgym's shop sells goods, not seats")
        status = {"": "placed", "paid": "placed", "shipped": "placed", "delivered": "placed", "canceled": "cancelled",
                  "cancelled": "cancelled", "placed": "placed", "return requested": "return requested"}.get(order.get("status", ""))
        if status is None:
            raise ValueError(f"{at}.status: placed, paid, shipped, delivered, cancelled or return requested, "
                             f"got {order['status']!r}")
        lines = []
        for i, item in enumerate(order["items"]):
            iat = f"{at}.items[{i}]"
            _shape(item, iat, {"product": str, "title": str, "qty": int, "price_cents": int}, ("product", "qty"))
            if item["product"] not in skus:
                raise ValueError(f"{iat}.product: no product {item['product']!r}")
            line += 1
            lines.append({"id": line, "sku": item["product"], "qty": item["qty"], "options": {}})
        total = order.get("total_cents") or sum(i.get("price_cents", 0) * i["qty"] for i in order["items"])
        tick = order.get("tick", 0)
        orders[key] = {"id": key, "user": people.add(order["buyer"], f"{at}.buyer"), "lines": lines,
                       "total_cents": total, "address": "", "payment": "", "placed_us": tick,
                       "placed": order.get("date") or timestamp(tick), "status": status}
    out: dict = {"users": people.users(), "products": products, "carts": carts, "orders": orders,
                 "next_line": line + 1}
    if orders or "next_order" in state:
        out["next_order"] = max([state.get("next_order", 1001), *(int(k) + 1 for k in orders if k.isdigit())])
    if "currency" in state:
        out["currency"] = state["currency"]
    return _brand(state, out, "Shop")


# -- forum -------------------------------------------------------------------------------------

@reads("forum", ("boards", "members", "mode", "item_word", "reply_word", "subscriptions", "votes", "skin",
                 "tagline", "theme", "next_id"), lambda s: _keyed(s, "threads", lambda t: "board" in t))
def _forum(state: dict, where: str, people: _People) -> dict:
    _shape(state, where, {"boards": dict, "brand": str, "item_word": str, "members": dict, "mode": str,
                          "next_id": int, "reply_word": str, "skin": str, "subscriptions": dict, "tagline": str,
                          "theme": dict, "threads": dict, "votes": dict})
    _looks(state, where)
    _unsupported(state, where, {"mode": "subreddits", "item_word": "", "reply_word": ""},
                 "cwgym's forum is one kind of forum")
    _unsupported(state, where, {"subscriptions": {}, "votes": {}},
                 "seed a thread's or reply's score instead; cwgym's forum keeps its users' own votes")
    for _, at, member in _records(state.get("members", {}), f"{where}.members"):
        _shape(member, at, {"handle": str, "name": str, "bio": str, "flair": str, "reputation": int, "site": str,
                            "actor": (str, type(None))}, ("handle",))
        _unsupported(member, at, {"bio": "", "flair": "", "reputation": 0, "site": "", "actor": None},
                     "a cwgym forum account has a name only")
        people.add(member["handle"], f"{at}.handle")
    communities: dict[str, dict] = {}
    for key, at, board in _records(state.get("boards", {}), f"{where}.boards"):
        _shape(board, at, {"id": str, "title": str, "description": str, "members": int}, ("id",))
        communities[key] = {"name": key, "title": board.get("title") or key,
                            "description": board.get("description", ""), "threads": []}
    for _, at, thread in _records(state.get("threads", {}), f"{where}.threads"):
        _shape(thread, at, {"id": str, "board": str, "author": str, "title": str, "body": str, "score": int,
                            "tick": int, "replies": list, "accepted": (str, type(None)), "tags": list,
                            "url": (str, type(None)), "views": int}, ("board", "author", "title"))
        _unsupported(thread, at, {"tags": [], "url": None, "views": 0}, "a cwgym thread has a title, a body and replies")
        if thread["board"] not in communities:
            raise ValueError(f"{at}.board: no board {thread['board']!r}")
        replies = []
        ids = []
        for i, reply in enumerate(thread.get("replies", [])):
            rat = f"{at}.replies[{i}]"
            _shape(reply, rat, {"id": str, "author": str, "body": str, "score": int, "tick": int, "comments": list,
                                "parent": (str, type(None))}, ("author", "body"))
            _unsupported(reply, rat, {"comments": [], "parent": None}, "cwgym's forum nests replies by position")
            replies.append({"body": reply["body"], "author": people.add(reply["author"], f"{rat}.author"),
                            "score": reply.get("score", 0), "at_us": reply.get("tick", 0)})
            ids.append(reply.get("id", ""))
        out = {"title": thread["title"], "body": thread.get("body", ""),
               "author": people.add(thread["author"], f"{at}.author"), "score": thread.get("score", 0),
               "at_us": thread.get("tick", 0), "replies": replies}
        if thread.get("accepted"):
            if thread["accepted"] not in ids:
                raise ValueError(f"{at}.accepted: no reply {thread['accepted']!r} in this thread")
            out["accepted"] = ids.index(thread["accepted"])
        communities[thread["board"]]["threads"].append(out)
    return _brand(state, {"users": people.users(), "communities": list(communities.values())})


# -- social ------------------------------------------------------------------------------------

@reads("social", ("accounts", "connections", "explore_title", "likes", "messages", "mode", "reposts", "skin",
                  "tagline", "theme", "next_id"),
       lambda s: isinstance(s.get("follows"), dict) or _keyed(s, "posts", lambda p: "at_us" not in p))
def _social(state: dict, where: str, people: _People) -> dict:
    _shape(state, where, {"accounts": dict, "brand": str, "connections": dict, "explore_title": str, "follows": dict,
                          "likes": dict, "messages": dict, "mode": str, "next_id": int, "posts": dict,
                          "reposts": dict, "tagline": str, "theme": dict, "skin": str})
    _looks(state, where)
    _unsupported(state, where, {"mode": "microblog", "explore_title": ""}, "cwgym's social network is a microblog")
    _unsupported(state, where, {"connections": {}, "messages": {}, "reposts": {}},
                 "cwgym's social network has posts, replies, likes and follows")
    profiles = {}
    for _, at, account in _records(state.get("accounts", {}), f"{where}.accounts"):
        _shape(account, at, {"handle": str, "name": str, "bio": str, "actor": (str, type(None)), "domain": str,
                             "experience": list, "followers": int, "following": int, "headline": str,
                             "location": str, "site": str, "verified": bool}, ("handle",))
        _unsupported(account, at, {"actor": None, "domain": "", "experience": [], "followers": 0, "following": 0,
                                   "headline": "", "location": "", "site": "", "verified": False},
                     "a cwgym profile has a bio")
        name = people.add(account["handle"], f"{at}.handle")
        if account.get("bio"):
            profiles[name] = {"bio": account["bio"]}
    posts = []
    numbers: dict[str, int] = {}
    records = _records(state.get("posts", {}), f"{where}.posts")
    for _, at, post in records:
        _shape(post, at, {"id": str, "author": str, "text": str, "tick": int, "likes": int, "reposts": int,
                          "quoted": (str, type(None)), "reply_to": (str, type(None))}, ("author", "text"))
    # cwgym numbers posts in the order they were posted (a reply after what it answers);
    # the reference keys them by id, in any order: by tick, then as written
    for key, at, post in sorted(records, key=lambda r: r[2].get("tick", 0)):
        _unsupported(post, at, {"likes": 0, "reposts": 0, "quoted": None},
                     "likes come from the likes of the world's users")
        out = {"author": people.add(post["author"], f"{at}.author"), "text": post["text"],
               "at_us": post.get("tick", 0), "likes": []}
        if post.get("reply_to"):
            if post["reply_to"] not in numbers:
                raise ValueError(f"{at}.reply_to: no post {post['reply_to']!r} posted before it")
            out["reply_to"] = numbers[post["reply_to"]]
        posts.append(out)
        numbers[key] = len(posts)
    for user, liked in state.get("likes", {}).items():
        lat = f"{where}.likes.{user}"
        for i, key in enumerate(_texts(liked, lat)):
            if key not in numbers:
                raise ValueError(f"{lat}[{i}]: no post {key!r}")
            posts[numbers[key] - 1]["likes"].append(people.add(user, lat))
    follows = []
    for user, followed in state.get("follows", {}).items():
        fat = f"{where}.follows.{user}"
        follows += [[people.add(user, fat), people.add(f, f"{fat}[{i}]")] for i, f in enumerate(_texts(followed, fat))]
    out: dict = {"users": people.users(), "posts": posts, "follows": follows}
    if profiles:
        out["profiles"] = profiles
    return _brand(state, out)


# -- drive -------------------------------------------------------------------------------------

@reads("drive", ("nodes", "root", "starred", "next_id"))
def _drive(state: dict, where: str, people: _People) -> dict:
    _shape(state, where, {"brand": str, "next_id": int, "nodes": dict, "root": str, "starred": dict})
    _unsupported(state, where, {"starred": {}}, "cwgym's drive has no stars")
    nodes = {key: node for key, _, node in _records(state.get("nodes", {}), f"{where}.nodes")}
    for _, at, node in _records(nodes, f"{where}.nodes"):
        _shape(node, at, {"id": str, "kind": str, "name": str, "owner": str, "parent": str, "tick": int,
                          "content": str, "size": int, "mime": str, "shared_with": list})
        if node.get("kind", "folder") not in ("file", "folder"):
            raise ValueError(f"{at}.kind: file or folder, got {node['kind']!r}")
        _unsupported(node, at, {"shared_with": []}, "share a cwgym drive's files with its 'shares'")
    root = state.get("root", "")
    files: dict[str, dict[str, str]] = {}
    for key, at, node in _records(nodes, f"{where}.nodes"):
        if key == root:
            continue
        names, owner, seen, here = [], node.get("owner", ""), {key}, node
        while here.get("parent") and here["parent"] != root:
            if here["parent"] not in nodes or here["parent"] in seen:
                raise ValueError(f"{at}.parent: no folder {here['parent']!r} above it")
            names.append(here.get("name") or here.get("id", ""))
            seen.add(here["parent"])
            here = nodes[here["parent"]]
        if not here.get("parent"):
            raise ValueError(f"{at}.parent: every item sits in the root folder {root!r} or below it")
        names.append(here.get("name") or here.get("id", ""))
        if not owner:
            raise ValueError(f"{at}.owner: cwgym's drive keeps each user's files; this item names no owner")
        path = "/".join(reversed(names))
        if node.get("kind", "folder") == "folder":
            files.setdefault(people.add(owner, f"{at}.owner"), {})[path + "/"] = ""
        else:
            files.setdefault(people.add(owner, f"{at}.owner"), {})[path] = node.get("content", "")
    return _brand(state, {"users": people.users(), "files": files})


# -- assistant ---------------------------------------------------------------------------------

@reads("assistant", ("facts", "fallback", "greeting", "intents", "model_label", "suggestions", "skin", "tagline",
                     "theme"))
def _assistant(state: dict, where: str, people: _People) -> dict:
    _shape(state, where, {"brand": str, "conversations": dict, "facts": list, "fallback": list, "greeting": str,
                          "intents": list, "model_label": str, "next_id": int, "skin": str, "suggestions": list,
                          "tagline": str, "theme": dict})
    _looks(state, where)
    _unsupported(state, where, {"greeting": "", "model_label": "", "fallback": [], "suggestions": [],
                                "conversations": {}},
                 "cwgym's assistant answers from the world's search index with fixed wording")
    entries = []
    for i, fact in enumerate(state.get("facts", [])):
        fat = f"{where}.facts[{i}]"
        _shape(fact, fat, {"id": str, "patterns": list, "answer": str, "citations": list}, ("answer", "citations"))
        cites = fact["citations"]
        if not cites:
            raise ValueError(f"{fat}.citations: a fact cites at least one page")
        for j, cite in enumerate(cites):
            _shape(cite, f"{fat}.citations[{j}]", {"label": str, "url": str}, ("url",))
        entries.append({"title": cites[0].get("label") or cites[0]["url"], "url": cites[0]["url"],
                        "snippet": fact["answer"], "keywords": _texts(fact.get("patterns", []), f"{fat}.patterns")})
    for i, intent in enumerate(state.get("intents", [])):
        iat = f"{where}.intents[{i}]"
        _shape(intent, iat, {"id": str, "patterns": list, "replies": list, "citations": list}, ("replies",))
        replies = _texts(intent["replies"], f"{iat}.replies")
        if len(replies) != 1:
            raise ValueError(f"{iat}.replies: cwgym's assistant gives one answer an entry; give one reply")
        cites = intent.get("citations", [])
        for j, cite in enumerate(cites):
            _shape(cite, f"{iat}.citations[{j}]", {"label": str, "url": str}, ("url",))
        if not cites:
            raise ValueError(f"{iat}.citations: cwgym's assistant answers with a source; give one citation")
        entries.append({"title": cites[0].get("label") or cites[0]["url"], "url": cites[0]["url"],
                        "snippet": replies[0], "keywords": _texts(intent.get("patterns", []), f"{iat}.patterns")})
    return _brand(state, {"entries": entries}, "Assistant")


# -- media -------------------------------------------------------------------------------------

@reads("media", ("channels", "library", "theme"), lambda s: _keyed(s, "items", lambda i: "creator" not in i))
def _media(state: dict, where: str, people: _People) -> dict:
    _shape(state, where, {"items": dict, "channels": dict, "playlists": dict, "library": dict, "subscriptions": dict,
                          "history": dict, "likes": dict, "theme": dict, "brand": str})
    _unsupported(state, where, {"theme": {}}, "cwgym draws every site in its own style")
    _unsupported(state, where, {"playlists": {}, "library": {}, "subscriptions": {}, "history": {}, "likes": {}},
                 "cwgym's media site reads the reference's catalogue (items and channels) only; "
                 "seed playlists, likes and subscriptions in cwgym's form")
    channels = {}
    for key, at, channel in _records(state.get("channels", {}), f"{where}.channels"):
        _shape(channel, at, {"name": str, "title": str, "subscribers": int, "description": str, "handle": str})
        _unsupported(channel, at, {"subscribers": 0, "description": "", "handle": ""},
                     "a cwgym creator is a name that users subscribe to")
        channels[key] = channel.get("name") or channel.get("title") or key
    items = []
    for key, at, item in _records(state.get("items", {}), f"{where}.items"):
        _shape(item, at, {"title": str, "kind": str, "channel": str, "description": str, "views": int,
                          "duration_s": int, "published": str, "likes": int, "tags": list},
               ("title", "channel", "duration_s"))
        _unsupported(item, at, {"published": "", "likes": 0},
                     "a cwgym item's likes are its users' own, and it has no publication date")
        if item["channel"] not in channels:
            raise ValueError(f"{at}.channel: no channel {item['channel']!r}")
        kind = {"video": "video", "track": "track", "song": "track", "music": "track"}.get(item.get("kind", "video"))
        if kind is None:
            raise ValueError(f"{at}.kind: video or track, got {item['kind']!r}")
        out = {"id": key, "kind": kind, "title": item["title"], "creator": channels[item["channel"]],
               "duration_s": item["duration_s"], "tags": _texts(item.get("tags", []), f"{at}.tags"),
               "plays": item.get("views", 0)}
        if item.get("description"):
            out["description"] = item["description"]
        items.append(out)
    return _brand(state, {"users": people.users(), "items": items})


# -- search ------------------------------------------------------------------------------------

@reads("search", ("documents", "trending", "theme"))
def _search(state: dict, where: str, people: _People) -> dict:
    _shape(state, where, {"documents": list, "trending": list, "history": dict, "theme": dict, "brand": str})
    _unsupported(state, where, {"theme": {}}, "cwgym draws every site in its own style")
    _unsupported(state, where, {"trending": [], "history": {}},
                 "cwgym's search keeps each signed-in user's own searches and shows no trending list")
    entries = []
    for i, doc in enumerate(state.get("documents", [])):
        at = f"{where}.documents[{i}]"
        _shape(doc, at, {"title": str, "url": str, "snippet": str, "keywords": list}, ("title", "url"))
        entry = {"title": doc["title"], "url": doc["url"], "snippet": doc.get("snippet", "")}
        if doc.get("keywords"):
            entry["keywords"] = _texts(doc["keywords"], f"{at}.keywords")
        entries.append(entry)
    return _brand(state, {"users": people.users(), "entries": entries}, "Search")


# -- git ---------------------------------------------------------------------------------------

def _git_commits(objects: dict, where: str, people: _People) -> dict[str, dict]:
    """The reference's commits (``{hash: {author, files, message, parents, tick}}``, each a
    whole tree) as cwgym's, keyed by the reference's hash; cwgym gives each its own id."""
    for _, at, obj in _records(objects, where):
        _shape(obj, at, {"author": str, "files": dict, "message": str, "parents": list, "tick": int},
               ("files", "parents"))
        for path, text in obj["files"].items():
            if not isinstance(text, str):
                raise ValueError(f"{at}.files[{path!r}]: the file's text, got {type(text).__name__}")
        if len(obj["parents"]) > 2 or any(p not in objects for p in _texts(obj["parents"], f"{at}.parents")):
            raise ValueError(f"{at}.parents: one or two commits of this repository, got {obj['parents']}")
    made: dict[str, dict] = {}
    open_: set[str] = set()  # commits whose parents are being made: the path from a child down
    for key in objects:
        stack = [(key, False)]
        while stack:  # parents before children, without recursion
            here, parents_made = stack.pop()
            if here in made:
                continue
            obj = objects[here]
            if not parents_made:
                if here in open_:
                    raise ValueError(f"{where}.{here}.parents: the history loops")
                open_.add(here)
                stack.append((here, True))
                stack.extend((p, False) for p in obj["parents"] if p not in made)
                continue
            open_.discard(here)
            ids = [made[p]["id"] for p in obj["parents"]] + [None, None]
            author = people.add(obj["author"], f"{where}.{here}.author") if obj.get("author") else ""
            made[here] = make_commit(dict(obj["files"]), ids[0], obj.get("message", ""), author, obj.get("tick", 0),
                                     ids[1])
    return made


@reads("git", ("repositories",))
def _git(state: dict, where: str, people: _People) -> dict:
    _shape(state, where, {"repositories": dict})
    repos = {}
    for name, at, repo in _records(state.get("repositories", {}), f"{where}.repositories"):
        _shape(repo, at, {"objects": dict, "refs": dict, "readers": list, "writers": list})
        writers = [people.add(w, f"{at}.writers[{i}]") for i, w in enumerate(_texts(repo.get("writers", []), f"{at}.writers"))]
        readers = [people.add(r, f"{at}.readers[{i}]") for i, r in enumerate(_texts(repo.get("readers", []), f"{at}.readers"))]
        if not writers:
            raise ValueError(f"{at}.writers: a cwgym repository has an owner; list who may push, the first owning it")
        if readers and any(r not in writers for r in readers):
            raise ValueError(f"{at}.readers: a private cwgym repository is shared with collaborators who may push too; "
                             f"{[r for r in readers if r not in writers]} may only read")
        commits = _git_commits(repo.get("objects", {}), f"{at}.objects", people)
        branches = {}
        for ref, target in repo.get("refs", {}).items():
            rat = f"{at}.refs.{ref}"
            if not ref.startswith("refs/heads/"):
                raise ValueError(f"{rat}: cwgym's git host keeps branches (refs/heads/...) only")
            if not isinstance(target, str) or target not in commits:
                raise ValueError(f"{rat}: no commit {target!r} in this repository")
            branch = ref.removeprefix("refs/heads/")
            if branch_problem(branch):
                raise ValueError(f"{rat}: {branch_problem(branch)}")
            branches[branch] = commits[target]["id"]
        if not branches:  # an empty repository: cwgym's starts from an empty first commit
            first = make_commit({}, None, "Initial commit", writers[0], 0)
            commits, branches = {"": first}, {"main": first["id"]}
        default = "main" if "main" in branches else "master" if "master" in branches else next(iter(branches))
        repos[f"{writers[0]}/{name}"] = {
            "owner": writers[0], "name": name, "description": "", "private": bool(readers),
            "collaborators": writers[1:], "default_branch": default, "branches": branches,
            "commits": {c["id"]: c for c in commits.values()}, "issues": {}, "pulls": {}, "next_number": 1, "at_us": 0}
    return {"users": people.users(), "repos": repos}
