"""``calendar``: a shared calendar in the manner of Google Calendar — each account's events
by week and by day, invitations that attendees accept, decline or answer "maybe", free/busy
lookups and ``.ics`` export.

Times are ``YYYY-MM-DDTHH:MM`` in UTC (the only time zone this version supports); a date is
``YYYY-MM-DD``; weeks start on Monday. An event belongs to its organiser, who alone edits or
deletes it; its attendees (other accounts) see it in their calendar with a response,
``needs-action`` until they answer ``accepted``, ``declined`` or ``tentative``, and the
organiser sees every response. Anyone else gets ``404`` for it. Free/busy shows any signed-in
user the busy blocks of another account on a date (merged, without titles); declined events
are not busy.

Pages (forms post ``application/x-www-form-urlencoded``):

====================================================  ==================================================
``GET /`` · ``GET /week?start=YYYY-MM-DD``            the week containing ``start`` (default: the logical now)
``GET /day?date=YYYY-MM-DD``                          one day's events (default: today)
``GET /invitations``                                  invitations not answered yet
``GET /events/new`` · ``POST /events``                a new event: ``title``, ``start``, ``end``, ``location``, ``description``, ``attendees`` (names, comma-separated)
``GET /events/{id}``                                  the event, its attendees and their responses; an attendee's response form
``GET /events/{id}/edit`` · ``POST /events/{id}/edit``  organiser: change any field
``POST /events/{id}/delete``                          organiser: delete it
``POST /events/{id}/respond``                         attendee: ``response`` = ``accepted`` | ``declined`` | ``tentative``
``GET /events/{id}.ics``                              the event as iCalendar (``text/calendar``)
``GET /freebusy?user=NAME&date=YYYY-MM-DD``           NAME's busy blocks that day
====================================================  ==================================================

JSON API (HTTP Basic or the ``sid`` cookie): ``GET /api/events?start=&end=`` (dates; default
the current week), ``POST /api/events`` ``{title, start, end, location?, description?,
attendees?: [names]}`` (201), ``GET /api/events/{id}``, ``PATCH /api/events/{id}``,
``DELETE /api/events/{id}``, ``POST /api/events/{id}/respond`` ``{response}``,
``GET /api/freebusy?user=&date=``.

``initial_state``::

    {"users": [{"name", "password", "display"?, "email"?}],
     "events"?: [{"title", "start", "end", "organizer", "attendees"?: [names],
                  "location"?, "description"?}],
     "timezone"?: "UTC"}

Events get ids 1, 2, ... in order. The built state keeps ``events`` as ``{id: {id, title,
start, end, location, description, organizer, attendees: {name: response}, created,
updated}}`` with the counter ``next_event``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from cwgym.kernel.calendar import civil_from_days, days_from_civil, days_in_month, weekday
from cwgym.kernel.clock import WORLD_EPOCH_S
from cwgym.net.http import Headers, Response
from cwgym.net.services import SERVICE_KINDS
from cwgym.protocol.page import (
    Button,
    Form,
    Heading,
    Input,
    Link,
    ListBlock,
    Radio,
    Table,
    Text,
    TextArea,
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

RESPONSES = ("accepted", "declined", "tentative")
STATUSES = ("needs-action", *RESPONSES)
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_DATETIME = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})")
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


# -- time ------------------------------------------------------------------------------------

def _days(text: str, what: str = "date") -> int:
    """Days since 1970-01-01 of ``YYYY-MM-DD``; ValueError naming the problem."""
    match = _DATE.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"the {what} is YYYY-MM-DD, got {text!r}")
    year, month, day = (int(g) for g in match.groups())
    if not 1 <= month <= 12 or not 1 <= day <= days_in_month(year, month):
        raise ValueError(f"the {what} {text!r} is not a date in the calendar")
    return days_from_civil(year, month, day)


def _minutes(text: str, what: str = "time") -> int:
    """Minutes since 1970-01-01T00:00 of ``YYYY-MM-DDTHH:MM``; ValueError naming the problem."""
    match = _DATETIME.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"the {what} is YYYY-MM-DDTHH:MM (UTC), got {text!r}")
    days = _days(text[:10], what)
    hour, minute = int(match[4]), int(match[5])
    if hour > 23 or minute > 59:
        raise ValueError(f"the {what} {text!r} has no such hour or minute")
    return days * 1440 + hour * 60 + minute


def _date(days: int) -> str:
    year, month, day = civil_from_days(days)
    return f"{year:04d}-{month:02d}-{day:02d}"


def _stamp(minutes: int) -> str:
    days, rest = divmod(minutes, 1440)
    return f"{_date(days)}T{rest // 60:02d}:{rest % 60:02d}"


def _today(now_us: int) -> int:
    return (WORLD_EPOCH_S + now_us // 1_000_000) // 86_400


def _long(days: int) -> str:
    return f"{DAY_NAMES[weekday(days)]} {_date(days)}"


def _check(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` with a ValueError turned into a ``400``."""
    try:
        return fn(*args)
    except ValueError as exc:
        raise HttpError(400, str(exc)) from None


def _ics_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\r\n", "\\n").replace("\n", "\\n")


class Calendar(WebService):
    name = "calendar"
    title = "Calendar"
    fields: ClassVar[dict] = {"events": (list, dict), "timezone": str, "next_event": int}

    # -- state ---------------------------------------------------------------------------
    def validate(self, state: dict, where: str, users: dict[str, dict], definition: Any = None) -> dict:
        zone = state.get("timezone", "UTC")
        if zone != "UTC":
            raise ValueError(f"{where}.timezone: only 'UTC' is supported in this version, got {zone!r}")
        raw = state.get("events", [])
        events: dict[str, dict] = {}
        if isinstance(raw, list):
            for i, event in enumerate(raw):
                at = f"{where}.events[{i}]"
                check_fields(event, at, {"title": str, "start": str, "end": str, "organizer": str, "attendees": list,
                                         "location": str, "description": str}, ("title", "start", "end", "organizer"))
                attendees = {}
                for j, name in enumerate(event.get("attendees", [])):
                    if not isinstance(name, str) or name not in users:
                        raise ValueError(f"{at}.attendees[{j}]: {name!r} is not an account in users")
                    if name != event["organizer"]:
                        attendees[name] = "needs-action"
                built = {"id": i + 1, "title": event["title"], "start": event["start"], "end": event["end"],
                         "location": event.get("location", ""), "description": event.get("description", ""),
                         "organizer": event["organizer"], "attendees": attendees, "created": timestamp(0), "updated": timestamp(0)}
                self._check_event(built, at, users)
                events[str(i + 1)] = built
            next_event = len(raw) + 1
        else:
            for key, event in raw.items():
                at = f"{where}.events[{key!r}]"
                check_fields(event, at, {"id": int, "title": str, "start": str, "end": str, "organizer": str, "attendees": dict,
                                         "location": str, "description": str, "created": str, "updated": str},
                             ("id", "title", "start", "end", "organizer", "attendees", "location", "description", "created", "updated"))
                if key != str(event["id"]):
                    raise ValueError(f"{at}.id: {event['id']} does not match its key")
                for name, status in event["attendees"].items():
                    if name not in users or status not in STATUSES:
                        raise ValueError(f"{at}.attendees.{name}: an account with a response in {', '.join(STATUSES)}")
                self._check_event(event, at, users)
                events[key] = event
            next_event = state.get("next_event", max((e["id"] for e in events.values()), default=0) + 1)
        return {"events": events, "timezone": "UTC", "next_event": next_event}

    @staticmethod
    def _check_event(event: dict, at: str, users: dict[str, dict]) -> None:
        if event["organizer"] not in users:
            raise ValueError(f"{at}.organizer: {event['organizer']!r} is not an account in users")
        if not event["title"].strip():
            raise ValueError(f"{at}.title: an event has a title")
        try:
            start = _minutes(event["start"], "start")
        except ValueError as exc:
            raise ValueError(f"{at}.start: {exc}") from None
        try:
            end = _minutes(event["end"], "end")
        except ValueError as exc:
            raise ValueError(f"{at}.end: {exc}") from None
        if end <= start:
            raise ValueError(f"{at}.end: the end {event['end']} is not after the start {event['start']}")

    # -- access --------------------------------------------------------------------------
    @staticmethod
    def _sees(event: dict, user: str) -> bool:
        return event["organizer"] == user or user in event["attendees"]

    def _event(self, ctx: Ctx, own: bool = False) -> dict:
        user = ctx.require_user()
        key = ctx.params["id"]
        event = ctx.state["events"].get(key) if key.isdigit() else None
        if event is None or not self._sees(event, user):
            raise HttpError(404, f"no event {key}")
        if own and event["organizer"] != user:
            raise HttpError(403, "only the organiser changes this event; you can answer the invitation")
        return event

    def _between(self, ctx: Ctx, user: str, first: int, last: int) -> list[dict]:
        """``user``'s events overlapping the days ``first`` to ``last`` (inclusive), by start."""
        lo, hi = first * 1440, (last + 1) * 1440
        out = [e for e in ctx.state["events"].values()
               if self._sees(e, user) and _minutes(e["start"]) < hi and _minutes(e["end"]) > lo]
        return sorted(out, key=lambda e: (e["start"], e["end"], e["id"]))

    # -- changes -------------------------------------------------------------------------
    def _attendees(self, ctx: Ctx, organizer: str, default: dict | None) -> dict:
        value = ctx.json.get("attendees") if isinstance(ctx.json, dict) and "attendees" in ctx.json else \
            ctx.form.get("attendees", ctx.query.get("attendees"))
        if value is None:
            return default or {}
        if isinstance(value, str):
            names = [n for n in re.split(r"[,\s]+", value) if n]
        elif isinstance(value, list) and all(isinstance(n, str) for n in value):
            names = value
        else:
            raise HttpError(400, "attendees are user names (a list, or comma-separated)")
        out = {}
        for name in names:
            if name not in ctx.state["users"]:
                raise HttpError(400, f"no account named {name!r} to invite")
            if name != organizer:
                out[name] = (default or {}).get(name, "needs-action")
        return out

    def _fields(self, ctx: Ctx, base: dict | None) -> dict:
        def text(name: str, limit: int) -> str | None:
            if base is not None and ctx.form.get(name, ctx.query.get(name)) is None:
                return base[name]
            return ctx.field(name, required=name in ("title", "start", "end"), limit=limit).strip()

        event = {"title": text("title", 200), "start": text("start", 16), "end": text("end", 16),
                 "location": text("location", 200), "description": text("description", 10_000)}
        if "\n" in event["title"]:
            raise HttpError(400, "a title is one line")
        start, end = _check(_minutes, event["start"], "start"), _check(_minutes, event["end"], "end")
        if end <= start:
            raise HttpError(400, f"the end {event['end']} is not after the start {event['start']}")
        return event

    def _create(self, ctx: Ctx) -> dict:
        user = ctx.require_user()
        fields = self._fields(ctx, None)
        attendees = self._attendees(ctx, user, None)
        n, state = next_id(ctx.state, "next_event")
        now = timestamp(ctx.now_us)
        event = {"id": n, **fields, "organizer": user, "attendees": attendees, "created": now, "updated": now}
        ctx.state = assoc_in(state, ["events", str(n)], event)
        return event

    def _update(self, ctx: Ctx) -> dict:
        event = self._event(ctx, own=True)
        fields = self._fields(ctx, event)
        attendees = self._attendees(ctx, event["organizer"], event["attendees"])
        new = {**event, **fields, "attendees": attendees, "updated": timestamp(ctx.now_us)}
        ctx.state = assoc_in(ctx.state, ["events", str(event["id"])], new)
        return new

    def _delete(self, ctx: Ctx) -> dict:
        event = self._event(ctx, own=True)
        key = str(event["id"])
        ctx.state = {**ctx.state, "events": {k: e for k, e in ctx.state["events"].items() if k != key}}
        return event

    def _answer(self, ctx: Ctx) -> dict:
        event = self._event(ctx)
        if ctx.user not in event["attendees"]:
            raise HttpError(403, "you organise this event; only attendees answer it")
        response = ctx.field("response", limit=20).strip()
        if response not in RESPONSES:
            raise HttpError(400, "the response is 'accepted', 'declined' or 'tentative'")
        new = assoc_in(event, ["attendees", ctx.user], response)
        ctx.state = assoc_in(ctx.state, ["events", str(event["id"])], new)
        return new

    def _freebusy(self, ctx: Ctx) -> tuple[str, str, list[dict]]:
        ctx.require_user()
        user = ctx.field("user", limit=64).strip()
        date = ctx.field("date", required=False, default=_date(_today(ctx.now_us)), limit=10) or _date(_today(ctx.now_us))
        day = _check(_days, date)
        if user not in ctx.state["users"]:
            raise HttpError(404, f"no account named {user!r}")
        lo, hi = day * 1440, (day + 1) * 1440
        blocks: list[list[int]] = []
        for e in self._between(ctx, user, day, day):
            if e["attendees"].get(user) == "declined":
                continue
            s, t = max(_minutes(e["start"]), lo), min(_minutes(e["end"]), hi)
            if blocks and s <= blocks[-1][1]:
                blocks = [*blocks[:-1], [blocks[-1][0], max(blocks[-1][1], t)]]
            else:
                blocks = [*blocks, [s, t]]
        return user, date, [{"start": _stamp(s), "end": _stamp(t)} for s, t in blocks]

    # -- pages ---------------------------------------------------------------------------
    @route("GET", "/")
    def home(self, ctx: Ctx) -> Any:
        if ctx.user is None:
            return self.page(ctx, "Calendar", [
                Heading("Calendar", id="home-title"),
                Text("Plan meetings, invite people, see when they are free.", id="home-intro"),
                Link("Sign in to see your calendar", "/login", id="home-sign-in"),
            ])
        return self.week(ctx)

    def _nav(self) -> ListBlock:
        return ListBlock((Link("Week", "/week", id="nav-week"), Link("Today", "/day", id="nav-day"),
                          Link("Invitations", "/invitations", id="nav-invitations"),
                          Link("New event", "/events/new", id="nav-new"),
                          Link("Free/busy", "/freebusy", id="nav-freebusy")), id="nav")

    def _line(self, ctx: Ctx, event: dict, prefix: str) -> Link:
        label = f"{event['start'][11:]}–{event['end'][11:]} {event['title']}"
        status = event["attendees"].get(ctx.user)
        if status is not None:
            label += f" (invited: {status})"
        return Link(label, f"/events/{event['id']}", id=f"{prefix}-event-{event['id']}")

    @route("GET", "/week")
    def week(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        start = ctx.query.get("start") or _date(_today(ctx.now_us))
        day = _check(_days, start, "start")
        monday = day - weekday(day)
        events = self._between(ctx, user, monday, monday + 6)
        rows = []
        for d in range(monday, monday + 7):
            lo, hi = d * 1440, (d + 1) * 1440
            todays = [e for e in events if _minutes(e["start"]) < hi and _minutes(e["end"]) > lo]
            cell = ListBlock(tuple(self._line(ctx, e, f"week-{_date(d)}") for e in todays), id=f"day-{_date(d)}-events") if todays \
                else Text("—", id=f"day-{_date(d)}-none")
            rows.append((Link(_long(d), f"/day?date={_date(d)}", id=f"day-{_date(d)}"), cell))
        return self.page(ctx, f"Week of {_date(monday)}", [
            Heading(f"Week of {_date(monday)} to {_date(monday + 6)}", id="week-title"),
            self._nav(),
            ListBlock((Link("Previous week", f"/week?start={_date(monday - 7)}", id="week-prev"),
                       Link("Next week", f"/week?start={_date(monday + 7)}", id="week-next")), id="week-pager"),
            Table(("Day", "Events"), tuple(rows), id="week"),
        ])

    @route("GET", "/day")
    def day(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        date = ctx.query.get("date") or _date(_today(ctx.now_us))
        d = _check(_days, date)
        events = self._between(ctx, user, d, d)
        rows = tuple((Text(f"{e['start'][11:] if e['start'][:10] == date else e['start']} – "
                           f"{e['end'][11:] if e['end'][:10] == date else e['end']}", id=f"event-{e['id']}-time"),
                      Link(e["title"], f"/events/{e['id']}", id=f"event-{e['id']}"),
                      Text(e["location"], id=f"event-{e['id']}-location"),
                      Text("organiser" if e["organizer"] == user else e["attendees"][user], id=f"event-{e['id']}-status"))
                     for e in events)
        return self.page(ctx, _long(d), [
            Heading(_long(d), id="day-title"),
            self._nav(),
            ListBlock((Link("Previous day", f"/day?date={_date(d - 1)}", id="day-prev"),
                       Link("Next day", f"/day?date={_date(d + 1)}", id="day-next"),
                       Link("This week", f"/week?start={date}", id="day-week"),
                       Link("New event this day", f"/events/new?date={date}", id="day-new")), id="day-pager"),
            Table(("Time", "Event", "Where", "You"), rows, id="day-events") if rows else Text("Nothing planned.", id="day-none"),
        ])

    @route("GET", "/invitations")
    def invitations(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        pending = sorted((e for e in ctx.state["events"].values() if e["attendees"].get(user) == "needs-action"),
                         key=lambda e: (e["start"], e["id"]))
        items = tuple(Link(f"{e['start'].replace('T', ' ')} {e['title']} (from {ctx.state['users'][e['organizer']]['display']})",
                           f"/events/{e['id']}", id=f"invitation-{e['id']}") for e in pending)
        return self.page(ctx, "Invitations", [
            Heading("Invitations", id="invitations-title"), self._nav(),
            ListBlock(items, id="invitations") if items else Text("No invitations waiting for an answer.", id="invitations-none"),
        ])

    def _form(self, action: str, event: dict, submit: str) -> Form:
        return Form(action, (
            Input("title", label="Title", value=event.get("title", ""), required=True, id="event-title"),
            Input("start", label="Starts (YYYY-MM-DDTHH:MM, UTC)", value=event.get("start", ""), required=True, id="event-start"),
            Input("end", label="Ends (YYYY-MM-DDTHH:MM, UTC)", value=event.get("end", ""), required=True, id="event-end"),
            Input("location", label="Location", value=event.get("location", ""), id="event-location"),
            TextArea("description", label="Description", value=event.get("description", ""), id="event-description"),
            Input("attendees", label="Guests (user names, comma-separated)", value=", ".join(event.get("attendees", {})),
                  id="event-attendees"),
            Button(submit, id="event-save")), id="event-form")

    @route("GET", "/events/new")
    def new_page(self, ctx: Ctx) -> Any:
        ctx.require_user()
        date = ctx.query.get("date") or _date(_today(ctx.now_us))
        _check(_days, date)
        return self.page(ctx, "New event", [
            Heading("New event", id="new-title"),
            self._form("/events", {"start": f"{date}T09:00", "end": f"{date}T10:00"}, "Save"),
        ])

    @route("POST", "/events")
    def create(self, ctx: Ctx) -> Any:
        event = self._create(ctx)
        return Redirect(f"/events/{event['id']}")

    @route("GET", "/events/{id}")
    def view(self, ctx: Ctx) -> Any:
        event = self._event(ctx)
        users = ctx.state["users"]
        e = event["id"]
        body: list = [
            Heading(event["title"], id="event-heading"),
            Text(f"{event['start'].replace('T', ' ')} – {event['end'].replace('T', ' ')} (UTC)", id="event-when"),
            Text(f"Where: {event['location']}" if event["location"] else "No location", id="event-where"),
            Text(f"Organiser: {users[event['organizer']]['display']}", id="event-organizer"),
        ]
        if event["description"]:
            body.append(Text(event["description"], id="event-details"))
        guests = tuple(Text(f"{users[n]['display']} ({n}): {s}", id=f"attendee-{n}") for n, s in sorted(event["attendees"].items()))
        body.append(Heading("Guests", level=2, id="guests-title"))
        body.append(ListBlock(guests, id="attendees") if guests else Text("No guests.", id="attendees-none"))
        if ctx.user in event["attendees"]:
            mine = event["attendees"][ctx.user]
            body.append(Form(f"/events/{e}/respond", (
                *(Radio("response", r, label={"accepted": "Yes", "declined": "No", "tentative": "Maybe"}[r], checked=mine == r,
                        id=f"respond-{r}") for r in RESPONSES),
                Button("Send response", id="respond-submit")), id="respond-form"))
        links = [Link("Download .ics", f"/events/{e}.ics", id="event-ics"),
                 Link("Back to the week", f"/week?start={event['start'][:10]}", id="event-week")]
        if ctx.user == event["organizer"]:
            links.insert(0, Link("Edit", f"/events/{e}/edit", id="event-edit"))
        body.append(ListBlock(tuple(links), id="event-actions"))
        if ctx.user == event["organizer"]:
            body.append(Form(f"/events/{e}/delete", (Button("Delete event", id="event-delete"),), id="delete-form"))
        return self.page(ctx, event["title"], body)

    @route("GET", "/events/{id}/edit")
    def edit_page(self, ctx: Ctx) -> Any:
        event = self._event(ctx, own=True)
        return self.page(ctx, f"Edit {event['title']}", [
            Heading(f"Edit: {event['title']}", id="edit-title"),
            self._form(f"/events/{event['id']}/edit", event, "Save changes"),
        ])

    @route("POST", "/events/{id}/edit")
    def edit(self, ctx: Ctx) -> Any:
        event = self._update(ctx)
        return Redirect(f"/events/{event['id']}")

    @route("POST", "/events/{id}/delete")
    def delete(self, ctx: Ctx) -> Any:
        event = self._delete(ctx)
        return Redirect(f"/week?start={event['start'][:10]}")

    @route("POST", "/events/{id}/respond")
    def respond(self, ctx: Ctx) -> Any:
        event = self._answer(ctx)
        return Redirect(f"/events/{event['id']}")

    @route("GET", "/events/{id}.ics")
    def ics(self, ctx: Ctx) -> Any:
        event = self._event(ctx)
        users = ctx.state["users"]
        host = ctx.request.url.host

        def address(name: str) -> str:
            return f"CN={_ics_text(users[name]['display'])}:mailto:{users[name]['email'] or f'{name}@{host}'}"

        def utc(text: str) -> str:
            return text.replace("-", "").replace(":", "").replace(" ", "T") + "00Z"

        lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//cwgym//Calendar//EN", "METHOD:PUBLISH", "BEGIN:VEVENT",
                 f"UID:event-{event['id']}@{host}", f"DTSTAMP:{utc(event['updated'])}",
                 f"DTSTART:{utc(event['start'])}", f"DTEND:{utc(event['end'])}", f"SUMMARY:{_ics_text(event['title'])}"]
        if event["location"]:
            lines.append(f"LOCATION:{_ics_text(event['location'])}")
        if event["description"]:
            lines.append(f"DESCRIPTION:{_ics_text(event['description'])}")
        lines.append(f"ORGANIZER;{address(event['organizer'])}")
        lines += [f"ATTENDEE;PARTSTAT={s.upper()};{address(n)}" for n, s in sorted(event["attendees"].items())]
        lines += ["END:VEVENT", "END:VCALENDAR"]
        body = ("\r\n".join(lines) + "\r\n").encode("utf-8")
        return Response(200, Headers((("Content-Type", "text/calendar; charset=utf-8"), ("Content-Length", str(len(body))),
                                      ("Content-Disposition", f'attachment; filename="event-{event["id"]}.ics"'))), body)

    @route("GET", "/freebusy")
    def freebusy(self, ctx: Ctx) -> Any:
        ctx.require_user()
        if not ctx.query.get("user"):
            return self.page(ctx, "Free/busy", [Heading("Free/busy", id="freebusy-title"), self._nav(), self._fb_form("", "")])
        user, date, blocks = self._freebusy(ctx)
        rows = tuple((Text(b["start"][11:], id=f"busy-{i}-start"), Text(b["end"][11:] if b["end"][:10] == date else b["end"],
                                                                         id=f"busy-{i}-end"))
                     for i, b in enumerate(blocks, 1))
        who = ctx.state["users"][user]["display"]
        return self.page(ctx, f"Free/busy of {who}", [
            Heading(f"{who} on {_long(_days(date))}", id="freebusy-title"), self._nav(), self._fb_form(user, date),
            Table(("Busy from", "Until"), rows, id="busy") if rows else Text(f"{who} is free all day.", id="busy-none"),
        ])

    @staticmethod
    def _fb_form(user: str, date: str) -> Form:
        return Form("/freebusy", (Input("user", label="User name", value=user, required=True, id="freebusy-user"),
                                  Input("date", label="Date", type="date", value=date, id="freebusy-date"),
                                  Button("Look up", id="freebusy-submit")), method="GET", id="freebusy-form")

    # -- JSON API ------------------------------------------------------------------------
    def _json(self, ctx: Ctx, event: dict) -> dict:
        return {**event, "url": f"/events/{event['id']}", "ics": f"/events/{event['id']}.ics"}

    @route("GET", "/api/events")
    def api_events(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        today = _today(ctx.now_us)
        first = _check(_days, ctx.query["start"], "start") if ctx.query.get("start") else today - weekday(today)
        last = _check(_days, ctx.query["end"], "end") if ctx.query.get("end") else first + 6
        if last < first:
            raise HttpError(400, "the end date is before the start date")
        if last - first > 366:
            raise HttpError(400, "ask for at most 366 days at a time")
        return Json({"start": _date(first), "end": _date(last), "events": [self._json(ctx, e) for e in self._between(ctx, user, first, last)]})

    @route("POST", "/api/events")
    def api_create(self, ctx: Ctx) -> Any:
        return Json(self._json(ctx, self._create(ctx)), 201)

    @route("GET", "/api/events/{id}")
    def api_get(self, ctx: Ctx) -> Any:
        return Json(self._json(ctx, self._event(ctx)))

    @route("PATCH", "/api/events/{id}")
    def api_edit(self, ctx: Ctx) -> Any:
        return Json(self._json(ctx, self._update(ctx)))

    @route("DELETE", "/api/events/{id}")
    def api_delete(self, ctx: Ctx) -> Any:
        return Json({"deleted": self._delete(ctx)["id"]})

    @route("POST", "/api/events/{id}/respond")
    def api_respond(self, ctx: Ctx) -> Any:
        return Json(self._json(ctx, self._answer(ctx)))

    @route("GET", "/api/freebusy")
    def api_freebusy(self, ctx: Ctx) -> Any:
        user, date, blocks = self._freebusy(ctx)
        return Json({"user": user, "date": date, "busy": blocks})


SERVICE_KINDS.register(Calendar.name, Calendar())
