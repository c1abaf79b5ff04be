"""Plain-data contracts shared by every layer: definitions, grants, envelopes, errors."""

from cwgym.protocol.config import DEFAULT_ACTION_BUDGET, EnvironmentConfig
from cwgym.protocol.definition import (
    SCHEMA_VERSION,
    DefinitionError,
    WorldDefinition,
    load_definition,
)
from cwgym.protocol.envelope import ActionEffect, ActionEnvelope, ActionOutcome, parse_envelope
from cwgym.protocol.errors import ActionError, Refused, ReplayDiverged, SimError, TrajectoryError

BUILTIN_FAMILIES = (
    "terminal.v1",
    "filesystem.v1",
    "http.v1",
    "browser.v1",
    "application.v1",
    "keyboard.v1",
    "pointer.v1",
)
BUILTIN_CHANNELS = ("terminal.v1", "filesystem.v1", "browser.v1", "semantic.v1", "pixels.v1")

__all__ = [
    "BUILTIN_CHANNELS",
    "BUILTIN_FAMILIES",
    "DEFAULT_ACTION_BUDGET",
    "SCHEMA_VERSION",
    "ActionEffect",
    "ActionEnvelope",
    "ActionError",
    "ActionOutcome",
    "DefinitionError",
    "EnvironmentConfig",
    "Refused",
    "ReplayDiverged",
    "SimError",
    "TrajectoryError",
    "WorldDefinition",
    "load_definition",
    "parse_envelope",
]
