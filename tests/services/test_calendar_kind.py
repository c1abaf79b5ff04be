"""The calendar kind end to end: the week and day views around the logical now, creating,
editing and deleting events (the organiser only), invitations answered by attendees and
seen by the organiser, free/busy without titles, .ics export, the JSON API, privacy,
malformed requests and initial states (a time zone other than UTC is refused), two
machines, snapshots, forks and replay."""

from __future__ import annotations

import base64
import copy
import json

import pytest

from cwgym import World
from cwgym.environment.replay import replay
from cwgym.net.http import Headers, Request, parse_url
from cwgym.protocol.definition import DefinitionError
from cwgym.resources import load_world
from cwgym.services.calendar import Calendar

URL = "http://calendar.office.internal:8090"
USERS = [{"name": "alice", "password": "pw-a", "display": "Alice Ng", "email": "alice@office.example"},
         {"name": "bob", "password": "pw-b"}, {"name": "carol", "password": "pw-c"}]
PASSWORDS = {u["name"]: u["password"] for u in USERS}
EVENTS = [
    {"title": "Standup", "start": "2026-09-17T09:30", "end": "2026-09-17T09:45", "organizer": "alice",
     "attendees": ["bob"], "location": "Atlas"},
    {"title": "Budget review", "start": "2026-09-17T09:40", "end": "2026-09-17T11:00", "organizer": "alice",
     "description": "Q3 numbers; bring receipts"},
    {"title": "Offsite", "start": "2026-09-20T18:00", "end": "2026-09-21T10:00", "organizer": "bob"},
]


def definition(initial_state=None) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "calendar", "kind": "calendar", "node": "fileserver", "port": 8090,
                          "domains": ["calendar.office.internal"], "initial_state": initial_state})
    d["network"]["dns"].append({"name": "calendar.office.internal", "address": "10.20.1.5", "resolver": "fileserver"})
    return d


def full() -> dict:
    return definition({"users": USERS, "events": EVENTS})


def auth(user: str) -> dict:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{PASSWORDS[user]}".encode()).decode()}


def machine(world: World, name: str = "reception"):
    computer = next(c for c in world.definition()["computers"] if c["id"] == name)
    env = world.environment({"actor": computer["user"], "machines": [name], "actions": ["terminal.v1", "http.v1"],
                             "observations": []})

    def sh(command: str) -> dict:
        out = env.step([{"family": "terminal.v1", "op": "execute", "machine": name, "payload": {"command": command}}])
        return out["outcomes"][0]["value"]

    def http(method: str, path: str, user: str | None = None, body: str = "", headers: dict | None = None,
             json_body=None) -> tuple[int, dict, str]:
        h = {**(auth(user) if user else {}), **(headers or {})}
        if json_body is not None:
            body, h = json.dumps(json_body), {**h, "Content-Type": "application/json"}
        elif body:
            h = {"Content-Type": "application/x-www-form-urlencoded", **h}
        out = env.step([{"family": "http.v1", "op": "request", "machine": name,
                         "payload": {"method": method, "url": URL + path, "body": body, "headers": h}}])
        value = out["outcomes"][0]["value"]
        return value["status"], {k.lower(): v for k, v in value["headers"]}, bytes(value["body"]).decode()

    return sh, http


def state(world: World) -> dict:
    return world.runtime.network.services["calendar"]


def api(http, method: str, path: str, user: str = "alice", **kw):
    status, _, body = http(method, path, user, **kw)
    return status, json.loads(body)


# -- views ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("empty", [None, {}])
def test_an_empty_service_has_a_home_page_and_an_empty_week(empty):
    world = World(definition(empty))
    sh, http = machine(world)
    home = sh(f"curl -s {URL}/")["stdout"]
    assert "<title>Calendar</title>" in home and '<a id="home-sign-in" href="/login">Sign in to see your calendar</a>' in home
    _, headers, _ = http("POST", "/signup", body="username=zed&password=pw")
    cookie = headers["set-cookie"].split(";")[0]
    week = sh(f"curl -s -b '{cookie}' {URL}/week")["stdout"]
    # the world's clock starts on Thursday 2026-09-17: its week runs from Monday the 14th
    assert '<h1 id="week-title">Week of 2026-09-14 to 2026-09-20</h1>' in week
    assert week.count(">—</p>") == 7


def test_the_week_view_shows_own_and_invited_events_by_day():
    world = World(full())
    sh, _ = machine(world)
    week = sh(f"curl -s -u bob:pw-b '{URL}/week?start=2026-09-16'")["stdout"]
    assert '<h1 id="week-title">Week of 2026-09-14 to 2026-09-20</h1>' in week
    assert '<a id="week-2026-09-17-event-1" href="/events/1">09:30–09:45 Standup (invited: needs-action)</a>' in week
    assert '<a id="week-2026-09-20-event-3" href="/events/3">18:00–10:00 Offsite</a>' in week
    assert "Budget review" not in week  # alice's own event, bob is not invited
    assert '<a id="week-next" href="/week?start=2026-09-21">Next week</a>' in week
    next_week = sh(f"curl -s -u bob:pw-b '{URL}/week?start=2026-09-21'")["stdout"]
    assert 'id="week-2026-09-21-event-3"' in next_week  # an event over midnight shows on both days


def test_the_day_view_defaults_to_today_and_lists_times_places_and_roles():
    world = World(full())
    sh, _ = machine(world)
    day = sh(f"curl -s -u alice:pw-a {URL}/day")["stdout"]
    assert '<h1 id="day-title">Thursday 2026-09-17</h1>' in day
    assert '<p id="event-1-time">09:30 – 09:45</p>' in day and '<p id="event-1-location">Atlas</p>' in day
    assert '<p id="event-2-status">organiser</p>' in day
    assert day.index('id="event-1"') < day.index('id="event-2"')
    sunday = sh(f"curl -s -u bob:pw-b '{URL}/day?date=2026-09-21'")["stdout"]
    assert '<p id="event-3-time">2026-09-20T18:00 – 10:00</p>' in sunday


# -- events and invitations ----------------------------------------------------------------------

def test_create_an_event_with_guests_and_the_organiser_sees_their_responses():
    world = World(full())
    _, alice = machine(world, "reception")
    bob_sh, bob = machine(world, "legal-laptop")
    status, headers, _ = alice("POST", "/events", "alice", "title=Planning&start=2026-09-18T14:00&end=2026-09-18T15:00"
                               "&location=Borealis&description=Agenda TBD&attendees=bob, carol")
    assert (status, headers["location"]) == (303, "/events/4")
    assert state(world)["events"]["4"]["attendees"] == {"bob": "needs-action", "carol": "needs-action"}
    invitations = bob_sh(f"curl -s -u bob:pw-b {URL}/invitations")["stdout"]
    assert '<a id="invitation-1" href="/events/1">2026-09-17 09:30 Standup (from Alice Ng)</a>' in invitations
    assert '<a id="invitation-4" href="/events/4">2026-09-18 14:00 Planning (from Alice Ng)</a>' in invitations
    page = bob("GET", "/events/4", "bob")[2]
    assert '<input id="respond-accepted" type="radio" name="response" value="accepted"> <label for="respond-accepted">Yes</label>' in page
    assert 'id="event-edit"' not in page and 'id="event-delete"' not in page
    assert bob("POST", "/events/4/respond", "bob", "response=accepted")[0] == 303
    assert api(machine(world, "legal-laptop")[1], "POST", "/api/events/4/respond", "carol", json_body={"response": "tentative"})[0] == 200
    seen = alice("GET", "/events/4", "alice")[2]
    assert '<p id="attendee-bob">bob (bob): accepted</p>' in seen
    assert '<p id="attendee-carol">carol (carol): tentative</p>' in seen
    assert '<p id="event-when">2026-09-18 14:00 – 2026-09-18 15:00 (UTC)</p>' in seen
    assert 'id="invitation-4"' not in bob_sh(f"curl -s -u bob:pw-b {URL}/invitations")["stdout"]


def test_only_the_organiser_edits_or_deletes_and_others_get_404():
    world = World(full())
    _, http = machine(world)
    before = state(world)
    assert http("POST", "/events/1/edit", "bob", "title=Mine now")[0] == 403
    assert http("GET", "/events/1/edit", "bob")[0] == 403
    assert http("POST", "/events/1/delete", "bob")[0] == 403
    assert http("POST", "/events/1/respond", "alice", "response=accepted")[0] == 403  # the organiser is no attendee
    for path in ("/events/1", "/events/1.ics", "/events/1/edit"):
        assert http("GET", path, "carol")[0] == 404, path
    assert api(http, "DELETE", "/api/events/2", "bob") == (404, {"error": "no event 2"})
    assert state(world) is before
    # the organiser edits: guests keep their answers, a changed time shows everywhere
    http("POST", "/events/1/respond", "bob", "response=declined")
    assert http("POST", "/events/1/edit", "alice", "start=2026-09-17T10:00&end=2026-09-17T10:30&attendees=bob,carol")[0] == 303
    event = state(world)["events"]["1"]
    assert (event["title"], event["start"], event["attendees"]) == ("Standup", "2026-09-17T10:00",
                                                                   {"bob": "declined", "carol": "needs-action"})
    assert http("POST", "/events/1/delete", "alice")[1]["location"] == "/week?start=2026-09-17"
    assert http("GET", "/events/1", "bob")[0] == 404


def test_free_busy_shows_merged_blocks_without_titles_to_anyone_signed_in():
    world = World(full())
    sh, http = machine(world)
    page = sh(f"curl -s -u carol:pw-c '{URL}/freebusy?user=alice&date=2026-09-17'")["stdout"]
    assert '<p id="busy-1-start">09:30</p>' in page and '<p id="busy-1-end">11:00</p>' in page
    assert "Standup" not in page and "Budget" not in page and "busy-2" not in page
    assert api(http, "GET", "/api/freebusy?user=bob&date=2026-09-20", "carol") == (
        200, {"busy": [{"end": "2026-09-21T00:00", "start": "2026-09-20T18:00"}], "date": "2026-09-20", "user": "bob"})
    http("POST", "/events/1/respond", "bob", "response=declined")  # declined is not busy
    assert api(http, "GET", "/api/freebusy?user=bob&date=2026-09-17", "carol")[1]["busy"] == []
    assert '<p id="busy-none">carol is free all day.</p>' in http("GET", "/freebusy?user=carol", "bob")[2]
    assert http("GET", "/freebusy?user=alice&date=2026-09-17")[0] == 303  # signed out: to sign-in
    assert api(http, "GET", "/api/freebusy?user=zoe", "carol") == (404, {"error": "no account named 'zoe'"})


def test_an_event_exports_as_ics():
    world = World(full())
    sh, _ = machine(world)
    out = sh(f"curl -s -i -u alice:pw-a {URL}/events/2.ics")["stdout"]
    assert "Content-Type: text/calendar; charset=utf-8\r\n" in out
    body = out.split("\r\n\r\n", 1)[1]
    assert body == ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//cwgym//Calendar//EN\r\nMETHOD:PUBLISH\r\nBEGIN:VEVENT\r\n"
                    "UID:event-2@calendar.office.internal\r\nDTSTAMP:20260917T090000Z\r\nDTSTART:20260917T094000Z\r\n"
                    "DTEND:20260917T110000Z\r\nSUMMARY:Budget review\r\nDESCRIPTION:Q3 numbers\\; bring receipts\r\n"
                    "ORGANIZER;CN=Alice Ng:mailto:alice@office.example\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
    invited = sh(f"curl -s -u bob:pw-b {URL}/events/1.ics")["stdout"]
    assert "ATTENDEE;PARTSTAT=NEEDS-ACTION;CN=bob:mailto:bob@calendar.office.internal\r\n" in invited


def test_the_json_api_lists_a_range_creates_patches_and_deletes():
    world = World(full())
    _, http = machine(world)
    status, listing = api(http, "GET", "/api/events", "bob")
    assert status == 200 and (listing["start"], listing["end"]) == ("2026-09-14", "2026-09-20")
    assert [e["id"] for e in listing["events"]] == [1, 3]
    status, event = api(http, "POST", "/api/events", "carol", json_body={
        "title": "1:1", "start": "2026-09-22T08:00", "end": "2026-09-22T08:30", "attendees": ["bob", "carol"]})
    assert (status, event["id"], event["attendees"], event["ics"]) == (201, 4, {"bob": "needs-action"}, "/events/4.ics")
    assert api(http, "PATCH", "/api/events/4", "carol", json_body={"location": "Atlas"})[1]["location"] == "Atlas"
    assert [e["id"] for e in api(http, "GET", "/api/events?start=2026-09-21&end=2026-09-22", "bob")[1]["events"]] == [3, 4]
    assert api(http, "DELETE", "/api/events/4", "carol") == (200, {"deleted": 4})
    assert "4" not in state(world)["events"]


# -- malformed -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("body", "message"), [
    ("start=2026-09-18T10:00&end=2026-09-18T11:00", "the field 'title' is required"),
    ("title=x&start=2026-09-18 10:00&end=2026-09-18T11:00", "the start is YYYY-MM-DDTHH:MM (UTC), got '2026-09-18 10:00'"),
    ("title=x&start=2026-02-29T10:00&end=2026-03-01T11:00", "the start '2026-02-29' is not a date in the calendar"),
    ("title=x&start=2026-09-18T24:00&end=2026-09-19T11:00", "the start '2026-09-18T24:00' has no such hour or minute"),
    ("title=x&start=2026-09-18T10:00&end=2026-09-18T10:00", "the end 2026-09-18T10:00 is not after the start 2026-09-18T10:00"),
    ("title=x&start=2026-09-18T10:00&end=2026-09-18T11:00&attendees=bob,zoe", "no account named 'zoe' to invite"),
])
def test_malformed_events_are_400_with_a_message_and_change_nothing(body, message):
    world = World(full())
    _, http = machine(world)
    before = state(world)
    status, _, page = http("POST", "/events", "alice", body)
    assert status == 400 and f'<p id="error-message">{message}</p>'.replace("'", "&#x27;") in page
    assert state(world) is before


def test_malformed_queries_and_responses_are_400():
    world = World(full())
    _, http = machine(world)
    before = state(world)
    assert http("GET", "/week?start=next-week", "alice")[0] == 400
    assert http("GET", "/day?date=2026-13-01", "alice")[0] == 400
    assert api(http, "GET", "/api/events?start=2026-09-20&end=2026-09-14") == (400, {"error": "the end date is before the start date"})
    assert api(http, "POST", "/api/events/1/respond", "bob", json_body={"response": "maybe"}) == (
        400, {"error": "the response is 'accepted', 'declined' or 'tentative'"})
    assert api(http, "POST", "/api/events", "bob", json_body={"title": "x", "start": "2026-09-18T10:00", "end": "2026-09-18T11:00",
                                                                "attendees": [1]}) == (
        400, {"error": "attendees are user names (a list, or comma-separated)"})
    assert state(world) is before


@pytest.mark.parametrize(("initial", "where"), [
    ({"timezone": "Europe/Paris"}, r"initial_state\.timezone: only 'UTC' is supported in this version, got 'Europe/Paris'"),
    ({"users": USERS, "events": [{"title": "x", "start": "2026-09-17T10:00", "end": "2026-09-17T09:00", "organizer": "alice"}]},
     r"initial_state\.events\[0\]\.end: the end 2026-09-17T09:00 is not after the start"),
    ({"users": USERS, "events": [{"title": "x", "start": "tomorrow", "end": "2026-09-17T09:00", "organizer": "alice"}]},
     r"initial_state\.events\[0\]\.start: the start is YYYY-MM-DDTHH:MM"),
    ({"users": USERS, "events": [{"title": "x", "start": "2026-09-17T10:00", "end": "2026-09-17T11:00", "organizer": "zoe"}]},
     r"initial_state\.events\[0\]\.organizer: 'zoe' is not an account"),
    ({"users": USERS, "events": [{"title": "x", "start": "2026-09-17T10:00", "end": "2026-09-17T11:00", "organizer": "alice",
                                  "attendees": ["bob", "zoe"]}]}, r"initial_state\.events\[0\]\.attendees\[1\]: 'zoe' is not an account"),
    ({"users": USERS, "events": [{"title": "x", "start": "2026-09-17T10:00", "organizer": "alice"}]},
     r"initial_state\.events\[0\]\.end: required"),
    ({"events": {"1": []}}, r"initial_state\.events\['1'\]: an object"),
])
def test_a_malformed_initial_state_is_refused_naming_the_path(initial, where):
    with pytest.raises((DefinitionError, ValueError), match=r"\$\.services\[1\]\." + where):
        World(definition(initial))


def test_a_built_state_passes_validate_again_unchanged():
    world = World(full())
    _, http = machine(world)
    http("POST", "/events/1/respond", "bob", "response=tentative")
    http("POST", "/events", "carol", "title=T&start=2026-09-18T10:00&end=2026-09-18T11:00&attendees=alice")
    built = state(world)
    rest = {k: v for k, v in built.items() if k not in ("users", "sessions", "next_session")}
    assert Calendar().validate(copy.deepcopy(rest), "x", built["users"]) == rest
    broken = copy.deepcopy(rest)
    broken["events"]["1"]["attendees"]["bob"] = "maybe"
    with pytest.raises(ValueError, match=r"x\.events\['1'\]\.attendees\.bob: an account with a response"):
        Calendar().validate(broken, "x", built["users"])


def test_a_request_never_mutates_the_state_it_was_given():
    service = Calendar()
    start = service.initial({"users": USERS, "events": EVENTS}, "x")
    frozen = copy.deepcopy(start)
    s = start
    for user, path, body in (("alice", "/events", b"title=T&start=2026-09-18T10:00&end=2026-09-18T11:00&attendees=bob"),
                             ("bob", "/events/4/respond", b"response=accepted"),
                             ("alice", "/events/4/edit", b"title=U"), ("alice", "/events/4/delete", b"")):
        headers = Headers((("Content-Type", "application/x-www-form-urlencoded"), ("Authorization", auth(user)["Authorization"])))
        response, s = service.handle(s, Request("POST", parse_url(URL + path), headers, body), "reception", 0)
        assert response.status == 303, (path, response.body)
    assert start == frozen and sorted(s["events"]) == ["1", "2", "3"]


# -- machines, snapshots, replay -----------------------------------------------------------------

def test_an_answer_on_one_machine_reaches_the_organiser_on_another_only_through_a_request():
    world = World(full())
    alice, _ = machine(world, "reception")
    bob, _ = machine(world, "legal-laptop")
    alice(f"curl -s -u alice:pw-a -o standup.ics {URL}/events/1.ics")
    assert bob(f"curl -s -o /dev/null -w '%{{http_code}}' -u bob:pw-b -d response=accepted {URL}/events/1/respond")["stdout"] == "303"
    assert "PARTSTAT=NEEDS-ACTION" in alice("cat standup.ics")["stdout"]  # the file fetched before is as it was
    assert "PARTSTAT=ACCEPTED" in alice(f"curl -s -u alice:pw-a {URL}/events/1.ics")["stdout"]


def test_a_snapshot_and_a_fork_keep_the_calendar_as_it_was():
    world = World(full())
    _, http = machine(world)
    snap = world.snapshot()
    http("POST", "/events/2/delete", "alice")
    fork = world.fork(snap)
    _, fork_http = machine(fork)
    assert fork_http("GET", "/events/2", "alice")[0] == 200
    fork_http("POST", "/events/1/delete", "alice")
    assert http("GET", "/events/1", "alice")[0] == 200 and http("GET", "/events/2", "alice")[0] == 404
    exported = World(full())
    exported.import_snapshot(world.export_snapshot())  # the built state passes the kind's check again
    assert exported.state_hash() == world.state_hash() and state(exported) == state(world)
    world.restore(snap)
    assert sorted(state(world)["events"]) == ["1", "2", "3"]


def test_replaying_the_same_steps_reaches_the_same_state_hash():
    world = World(full(), seed=9)
    sh, _ = machine(world)
    sh(f"curl -s -u alice:pw-a -d 'title=Sync&start=2026-09-18T10:00&end=2026-09-18T10:30&attendees=bob' {URL}/events")
    _, bob = machine(world, "legal-laptop")
    bob("POST", "/events/4/respond", "bob", "response=tentative")
    again = replay(full(), 9, world.trajectory())
    assert again.state_hash() == world.state_hash()
    assert state(again)["events"]["4"]["attendees"] == {"bob": "tentative"}
