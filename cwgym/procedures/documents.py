"""A document a check reads: ``World.inspect()``, or a file of the machine read as data."""

from __future__ import annotations

import csv
import json
from typing import TYPE_CHECKING, Any

from cwgym.procedures.files import read_text
from cwgym.procedures.matching import text_lines

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine


def document(world: World, machine: Machine, file: str | None, service: str | None = None) -> Any:
    """``World.inspect()``, a service's state (``service``), or a file read as data: JSON,
    JSON lines, CSV rows by header, or else its lines. ``LookupError`` when the file or
    the service is missing, or the file unreadable."""
    if service is not None:
        if file is not None:
            raise LookupError("a check reads a service or a file, not both")
        return world.service_state(service)  # KeyError (a LookupError) names the world's services
    if file is None:
        return world.inspect()
    text = read_text(machine, file)
    if text is None:
        raise LookupError(f"no file {file}")
    try:
        if file.endswith(".json"):
            return json.loads(text)
        if file.endswith(".jsonl"):
            return [json.loads(line) for line in text_lines(text) if line.strip()]
    except json.JSONDecodeError as exc:
        raise LookupError(f"{file} is not valid JSON ({exc.msg}, line {exc.lineno})") from None
    if file.endswith(".csv"):
        return [dict(row) for row in csv.DictReader(text_lines(text))]
    return text_lines(text)
