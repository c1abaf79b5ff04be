"""The load-bearing keys of a world's ``metadata``, read and checked once when a world is
built: ``search_engine`` (the template a browser's address bar searches with) and
``desktop_apps`` (web apps: an id that opens a browser window at a fixed URL).

A malformed value refuses the world with the key named, rather than being ignored when a
browser first needs it.
"""

from __future__ import annotations

import re

from cwgym.protocol.catalogue import ALIASES, CATALOGUE
from cwgym.protocol.definition import DefinitionError, WorldDefinition
from cwgym.web.omnibox import DEFAULT_ENGINE, check_engine

__all__ = ["check_metadata", "search_engine", "web_apps"]

_APP_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_URL = re.compile(r"^https?://[^/?#\s]+[^\s]*$", re.I)


def search_engine(definition: WorldDefinition) -> str:
    """The world's search engine template (the default when it names none)."""
    return definition.metadata.get("search_engine", DEFAULT_ENGINE)


def web_apps(definition: WorldDefinition) -> dict[str, tuple[str, str]]:
    """``metadata.desktop_apps`` as id -> ``(label, url)`` (the definition was checked)."""
    apps = definition.metadata.get("desktop_apps") or {}
    out = {}
    for app_id in sorted(apps):
        entry = apps[app_id]
        if isinstance(entry, str):
            out[app_id] = (app_id.replace("-", " ").replace("_", " ").title(), entry)
        else:
            out[app_id] = (entry.get("label") or app_id, entry["url"])
    return out


def check_metadata(definition: WorldDefinition) -> None:
    """Refuse a definition whose ``search_engine`` or ``desktop_apps`` is malformed.

    ``desktop_apps`` maps an id (lower case, digits, ``-`` and ``_``; not an application id
    of the catalogue) to its URL, or to ``{"url": ..., "label": ...}``.
    """
    metadata = definition.metadata
    if "search_engine" in metadata:
        try:
            check_engine(metadata["search_engine"])
        except ValueError as exc:
            raise DefinitionError("$.metadata.search_engine", str(exc)) from None
    apps = metadata.get("desktop_apps")
    if apps is None:
        return
    if not isinstance(apps, dict):
        raise DefinitionError("$.metadata.desktop_apps", f"expected an object of id -> url, got {type(apps).__name__}")
    for app_id, entry in apps.items():
        path = f"$.metadata.desktop_apps.{app_id}"
        if not _APP_ID.match(app_id):
            raise DefinitionError(path, "a web app id is 1-64 lower-case letters, digits, '-' and '_'")
        if app_id in CATALOGUE or app_id in ALIASES:
            raise DefinitionError(path, f"{app_id!r} is an application of the catalogue, not a web app")
        if isinstance(entry, dict):
            unknown = sorted(set(entry) - {"url", "label"})
            if unknown:
                raise DefinitionError(f"{path}.{unknown[0]}", "unknown field (known: label, url)")
            if not isinstance(entry.get("label", ""), str):
                raise DefinitionError(f"{path}.label", "a label is a string")
            url = entry.get("url")
        else:
            url = entry
        if not isinstance(url, str) or not _URL.match(url):
            raise DefinitionError(path if not isinstance(entry, dict) else f"{path}.url", f"expected an http(s) URL, got {url!r}")
