"""Shared fixtures: the shared example definition and the bundled worlds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cwgym.resources import load_world

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT.parent / "shared" / "examples" / "agent-desktop.json"


@pytest.fixture
def example_definition() -> dict:
    if not EXAMPLE.is_file():
        pytest.skip("shared/examples is not beside this checkout")
    return json.loads(EXAMPLE.read_text())


@pytest.fixture
def workstation() -> dict:
    return load_world("ubuntu-workstation")


@pytest.fixture
def office() -> dict:
    return load_world("small-office")
