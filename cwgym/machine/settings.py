"""System settings of a machine: Wi-Fi, Bluetooth, dark style, sound, display, notifications.

One table (:data:`SETTINGS`) names each setting, its type, default and allowed values. The
values live in ``~/.config/cwgym/settings.json`` (only those changed from the default), so
they snapshot, fork and hash with the machine. The Settings application and the top bar's
quick settings both change them through :func:`change_setting`; what reads them acts on
them (Wi-Fi or airplane mode off: the machine's requests fail; the ``settings`` effect tag
reports a change).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from cwgym.machine._userdata import UserDataError, read_json, write_json

if TYPE_CHECKING:
    from cwgym.machine.machine import Machine

__all__ = [
    "SETTINGS",
    "SETTINGS_FILE",
    "Setting",
    "UserDataError",
    "change_setting",
    "network_up",
    "read_settings",
]

#: Where the changed settings are kept, relative to the home.
SETTINGS_FILE = ".config/cwgym/settings.json"


class Setting(NamedTuple):
    """One setting: its type, default and, for numbers, the values it may take."""

    kind: type
    default: Any
    allowed: tuple[int, ...] | range | None = None
    label: str = ""


#: Every setting, by name.
SETTINGS: dict[str, Setting] = {
    "wifi": Setting(bool, True, label="Wi-Fi"),
    "airplane_mode": Setting(bool, False, label="Airplane Mode"),
    "bluetooth": Setting(bool, False, label="Bluetooth"),
    "dark_style": Setting(bool, False, label="Dark Style"),
    "night_light": Setting(bool, False, label="Night Light"),
    "volume": Setting(int, 50, range(0, 101), label="Volume"),
    "muted": Setting(bool, False, label="Mute"),
    "display_scale": Setting(int, 100, (100, 125, 150, 175, 200), label="Scale"),
    "do_not_disturb": Setting(bool, False, label="Do Not Disturb"),
}


def read_settings(machine: Machine) -> dict[str, Any]:
    """Every setting's current value (defaults for those never changed or unreadable)."""
    stored = read_json(machine, SETTINGS_FILE, {})
    out = {}
    for name, setting in SETTINGS.items():
        value = stored.get(name, setting.default)
        out[name] = value if _valid(setting, value) else setting.default
    return out


def change_setting(machine: Machine, name: str, value: Any) -> Any:
    """Set ``name`` to ``value`` and return it.

    Raises :class:`ValueError` for an unknown name or a value of the wrong type or out of
    range (nothing changes), :class:`UserDataError` when the home refuses the write.
    """
    setting = SETTINGS.get(name)
    if setting is None:
        raise ValueError(f"unknown setting {name!r} (known: {', '.join(SETTINGS)})")
    if not _valid(setting, value):
        allowed = f" in {_describe(setting.allowed)}" if setting.allowed is not None else ""
        raise ValueError(
            f"setting {name!r} takes a {_KIND_NAMES[setting.kind]}{allowed}, not {value!r}"
        )
    current = read_settings(machine)
    if current[name] == value:
        return value
    current[name] = value
    write_json(
        machine, SETTINGS_FILE, {k: v for k, v in current.items() if v != SETTINGS[k].default}
    )
    return value


def network_up(machine: Machine) -> bool:
    """Whether the machine's wireless network is on (Wi-Fi on, airplane mode off)."""
    settings = read_settings(machine)
    return settings["wifi"] and not settings["airplane_mode"]


def _valid(setting: Setting, value: Any) -> bool:
    if setting.kind is bool:
        return isinstance(value, bool)
    if isinstance(value, bool) or not isinstance(value, setting.kind):
        return False
    return setting.allowed is None or value in setting.allowed


def _describe(allowed: tuple[int, ...] | range) -> str:
    if isinstance(allowed, range):
        return f"{allowed.start}..{allowed.stop - 1}"
    return ", ".join(str(v) for v in allowed)


_KIND_NAMES = {bool: "true or false", int: "whole number"}
