"""The top bar's panels: the clock's calendar and notifications, and quick settings.

The clock opens the *calendar panel*: the month (from the logical clock) and the machine's
notifications (:mod:`cwgym.machine.notifications`), each of which opens its application or
is dismissed, plus Clear and Do Not Disturb. The status icons open *quick settings*:
toggles and a volume scale that change the same settings the Settings application does
(:mod:`cwgym.machine.settings`), and a button that opens Settings. Targets:

=====================================  =============================================
``shell:calendar``                     the clock: open or close the calendar panel
``shell:calendar:prev|next|today``     move the panel's month (while it is open)
``shell:notification:<id>``            open the notification's application, dismiss it
``shell:notification:<id>:dismiss``    dismiss it
``shell:notifications:clear``          dismiss every notification
``shell:quick-settings``               the status icons: open or close quick settings
``shell:toggle:<setting>``             flip a setting (:data:`TOGGLES`); ``{setting, value}``
``shell:volume:<n>``                   set the volume (``n`` a multiple of 10); ``{setting, value}``
``shell:quick-settings:settings``      open the Settings application
=====================================  =============================================

A toggle or volume target works with or without its panel open (``application.v1
shell`` names it directly, as on the reference engine); the other panel targets need their
panel. A change to a setting is the ``settings`` effect, to the notifications the
``notifications`` effect, to the panel's month the ``shell`` effect.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cwgym.kernel.calendar import civil, days_from_civil, days_in_month, weekday
from cwgym.machine import notifications as notes
from cwgym.machine.settings import UserDataError, change_setting, read_settings
from cwgym.protocol import errors
from cwgym.protocol.errors import ActionError

if TYPE_CHECKING:
    from cwgym.desktop.seatlike import SeatLike

__all__ = [
    "CALENDAR",
    "QUICK_SETTINGS",
    "TOGGLES",
    "VOLUME_STEPS",
    "activate",
    "month_view",
    "notices",
    "status",
]

CALENDAR = "calendar"
QUICK_SETTINGS = "quick-settings"
#: The settings quick settings flips, in the order it shows them.
TOGGLES = (
    "wifi",
    "bluetooth",
    "airplane_mode",
    "dark_style",
    "night_light",
    "do_not_disturb",
    "muted",
)
#: The volume scale's stops.
VOLUME_STEPS = tuple(range(0, 101, 10))
#: The panels' target prefixes (a press on one keeps its panel open).
PANEL_TARGETS = {
    CALENDAR: (
        "shell:calendar:",
        "shell:notification:",
        "shell:notifications:",
        "shell:toggle:do_not_disturb",
    ),
    QUICK_SETTINGS: ("shell:toggle:", "shell:volume:", "shell:quick-settings:"),
}
#: The targets that open (or close) a panel.
OPENERS = ("shell:calendar", "shell:quick-settings")
_MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def month_view(unix_seconds: int, offset: int) -> tuple[str, int, int, int]:
    """The calendar panel's month ``offset`` months from the one ``unix_seconds`` falls in:
    ``(title, first_weekday, days, today)`` — its name and year, the weekday (0 Monday) of
    its first day, its length, and today's day in it (0: another month)."""
    year, month, day, *_ = civil(unix_seconds)
    index = year * 12 + (month - 1) + offset
    y, m = divmod(index, 12)
    first = days_from_civil(y, m + 1, 1)
    return (
        f"{_MONTH_NAMES[m]} {y}",
        weekday(first),
        days_in_month(y, m + 1),
        day if offset == 0 else 0,
    )


def status(seat: SeatLike) -> tuple:
    """What the top bar's status area and quick settings show: ``((name, value), ...)``
    of every setting, then whether there are notifications."""
    settings = read_settings(seat.machine)
    return (*sorted(settings.items()), ("notifications", bool(notes.notifications(seat.machine))))


def notices(
    seat: SeatLike, label: Callable[[str], str]
) -> tuple[tuple[int, str, str, str, str], ...]:
    """The notifications the calendar panel lists, newest first: ``(id, label(source),
    summary, body, time "HH:MM")``."""
    out = []
    for n in reversed(notes.notifications(seat.machine)):
        seconds = (
            seat.machine.clock.unix_seconds()
            - (seat.machine.clock.now_us - n["time_us"]) // 1_000_000
        )
        _, _, _, hour, minute, _ = civil(seconds)
        out.append(
            (n["id"], label(n["source"]), n["summary"], n["body"], f"{hour:02d}:{minute:02d}")
        )
    return tuple(out)


def in_panel(kind: str | None, target: str) -> bool:
    return kind in PANEL_TARGETS and target.startswith(PANEL_TARGETS[kind])


def activate(seat: SeatLike, target: str, open_app: Callable[[str], Any]) -> Any:
    """Drive one of this module's targets (see the module docs). Returns the action's value;
    raises ``LookupError`` for a target it does not have (the caller reports it unknown).
    ``open_app(app_id)`` shows an application (the launcher's dock action) when the shell
    offers it, and returns the action's value."""
    desk = seat.desk
    kind = desk.panel.get("kind") if desk.panel is not None else None
    if target in OPENERS:
        wanted = CALENDAR if target == "shell:calendar" else QUICK_SETTINGS
        desk.panel = (
            None
            if kind == wanted
            else (
                {"kind": CALENDAR, "month": 0} if wanted == CALENDAR else {"kind": QUICK_SETTINGS}
            )
        )
        return None
    head, _, rest = target[6:].partition(":")
    if head == "toggle" and rest in TOGGLES:
        return _set(seat, rest, not read_settings(seat.machine)[rest])
    if head == "volume" and rest.isdigit() and int(rest) in VOLUME_STEPS:
        return _set(seat, "volume", int(rest))
    if head == "calendar" and kind == CALENDAR and rest in ("prev", "next", "today"):
        month = desk.panel.get("month", 0)
        desk.panel["month"] = 0 if rest == "today" else month + (1 if rest == "next" else -1)
        return None
    if head == "notifications" and rest == "clear" and kind == CALENDAR:
        _quietly(notes.clear, seat.machine)
        return None
    if head == "notification" and kind == CALENDAR:
        nid, _, op = rest.partition(":")
        found = next((n for n in notes.notifications(seat.machine) if str(n["id"]) == nid), None)
        if found is None or op not in ("", "dismiss"):
            raise LookupError(target)
        _quietly(notes.dismiss, seat.machine, found["id"])
        if op == "":
            desk.panel = None
            return open_app(found["source"])
        return None
    if target == "shell:quick-settings:settings" and kind == QUICK_SETTINGS:
        desk.panel = None
        return open_app("settings")
    raise LookupError(target)


def _set(seat: SeatLike, name: str, value: Any) -> dict[str, Any]:
    _quietly(change_setting, seat.machine, name, value)
    return {"setting": name, "value": value}


def _quietly(fn: Any, *args: Any) -> None:
    try:
        fn(*args)
    except UserDataError:
        raise ActionError(errors.ACTION_FAILED) from None
