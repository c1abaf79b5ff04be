"""A machine's notifications: raised now, or scheduled for a moment of the logical clock.

Applications raise them (:func:`notify`) or schedule them (:func:`schedule`: a clock alarm, a
timer, a calendar reminder); the desktop calls :func:`fire_due` after every action, which
raises every scheduled one whose time has come, in time order. The list lives in
``~/.local/share/cwgym/notifications.json`` and the schedule in
``~/.local/share/cwgym/scheduled.json``, so both snapshot, fork and hash with the machine;
a change to the list is the ``notifications`` effect tag. The list keeps the newest
:data:`KEPT` notifications; the schedule holds at most :data:`SCHEDULED_MAX` entries.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from cwgym.machine._userdata import UserDataError, peek, read_json, write_json

if TYPE_CHECKING:
    from cwgym.machine.machine import Machine

__all__ = [
    "KEPT",
    "NOTIFICATIONS_FILE",
    "SCHEDULED_FILE",
    "SCHEDULED_MAX",
    "UserDataError",
    "clear",
    "dismiss",
    "fire_due",
    "notifications",
    "notify",
    "schedule",
    "scheduled",
    "unschedule",
]

NOTIFICATIONS_FILE = ".local/share/cwgym/notifications.json"
SCHEDULED_FILE = ".local/share/cwgym/scheduled.json"
#: How many notifications the list keeps (oldest dropped first).
KEPT = 50
#: How many scheduled notifications a machine may hold.
SCHEDULED_MAX = 200
#: Longest summary and body kept (longer ones are cut, as a notification bubble would).
SUMMARY_MAX = 200
BODY_MAX = 1000


def _list(machine: Machine) -> dict[str, Any]:
    stored = read_json(machine, NOTIFICATIONS_FILE, {})
    items = [n for n in stored.get("items", []) if isinstance(n, dict)]
    next_id = stored.get("next", 1)
    return {"next": next_id if isinstance(next_id, int) and next_id > 0 else 1, "items": items}


def notifications(machine: Machine) -> list[dict[str, Any]]:
    """The notifications, oldest first: ``{id, source, summary, body, time_us}``."""
    return _list(machine)["items"]


def notify(machine: Machine, source: str, summary: str, body: str = "") -> dict[str, Any]:
    """Raise a notification from ``source`` (an application id) now; returns it."""
    return _raise(machine, [(source, summary, body, machine.clock.now_us)])[0]


def _raise(machine: Machine, entries: list[tuple[str, str, str, int]]) -> list[dict[str, Any]]:
    stored = _list(machine)
    made = []
    for source, summary, body, time_us in entries:
        item = {
            "id": stored["next"],
            "source": str(source),
            "summary": str(summary)[:SUMMARY_MAX],
            "body": str(body)[:BODY_MAX],
            "time_us": int(time_us),
        }
        stored["next"] += 1
        stored["items"].append(item)
        made.append(item)
    stored["items"] = stored["items"][-KEPT:]
    write_json(machine, NOTIFICATIONS_FILE, stored)
    return made


def dismiss(machine: Machine, nid: int) -> bool:
    """Remove notification ``nid``; whether there was one."""
    stored = _list(machine)
    kept = [n for n in stored["items"] if n.get("id") != nid]
    if len(kept) == len(stored["items"]):
        return False
    stored["items"] = kept
    write_json(machine, NOTIFICATIONS_FILE, stored)
    return True


def clear(machine: Machine) -> int:
    """Remove every notification; how many there were."""
    stored = _list(machine)
    count = len(stored["items"])
    if count:
        stored["items"] = []
        write_json(machine, NOTIFICATIONS_FILE, stored)
    return count


# -- the schedule ------------------------------------------------------------------------


def scheduled(machine: Machine) -> list[dict[str, Any]]:
    """Scheduled notifications in due order: ``{key, due_us, source, summary, body}``."""
    items = read_json(machine, SCHEDULED_FILE, [])
    return [s for s in items if isinstance(s, dict) and isinstance(s.get("due_us"), int)]


def schedule(machine: Machine, key: str, due_us: int, source: str, summary: str, body: str = "") -> None:
    """Raise a notification once the logical clock reaches ``due_us``; an entry with the same
    ``key`` is replaced. Raises :class:`ValueError` past :data:`SCHEDULED_MAX` entries."""
    if not isinstance(key, str) or not key:
        raise ValueError("a scheduled notification needs a key")
    if isinstance(due_us, bool) or not isinstance(due_us, int):
        raise ValueError("due_us is an int (logical microseconds)")
    items = [s for s in scheduled(machine) if s.get("key") != key]
    if len(items) >= SCHEDULED_MAX:
        raise ValueError(f"at most {SCHEDULED_MAX} scheduled notifications")
    items.append(
        {"key": key, "due_us": due_us, "source": str(source), "summary": str(summary)[:SUMMARY_MAX], "body": str(body)[:BODY_MAX]}
    )
    items.sort(key=lambda s: (s["due_us"], s["key"]))
    write_json(machine, SCHEDULED_FILE, items)


def unschedule(machine: Machine, key: str) -> bool:
    """Drop the scheduled notification ``key``; whether there was one."""
    items = scheduled(machine)
    kept = [s for s in items if s.get("key") != key]
    if len(kept) == len(items):
        return False
    write_json(machine, SCHEDULED_FILE, kept)
    return True


@lru_cache(maxsize=64)
def _earliest(data: bytes) -> int | None:
    """The first due time in a schedule file's bytes (cached: the desktop asks every step)."""
    import json

    try:
        items = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    dues = [s["due_us"] for s in items if isinstance(s, dict) and isinstance(s.get("due_us"), int)] if isinstance(items, list) else []
    return min(dues) if dues else None


def fire_due(machine: Machine) -> list[dict[str, Any]]:
    """Raise every scheduled notification whose time has come (in due order, each stamped
    with its due time) and drop it from the schedule; returns those raised.

    Cheap when nothing is due: one lookup of the schedule file and a cached parse.
    """
    data = peek(machine, SCHEDULED_FILE)
    if data is None:
        return []
    earliest = _earliest(data)
    now = machine.clock.now_us
    if earliest is None or earliest > now:
        return []
    items = scheduled(machine)
    due = [s for s in items if s["due_us"] <= now]
    try:
        write_json(machine, SCHEDULED_FILE, [s for s in items if s["due_us"] > now])
        return _raise(machine, [(s["source"], s["summary"], s["body"], s["due_us"]) for s in due])
    except UserDataError:
        return []
