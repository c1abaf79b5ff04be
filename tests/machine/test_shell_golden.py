"""Every case in ``tests/machine/cases/*.json`` runs in a fresh fixture machine and must
print exactly what was recorded: from real bash with GNU tools (``source: bash``) or, where
real bash cannot be the reference (user names, hostnames, the simulated clock), written by
hand (``source: manual``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from shell_fixture import fixture_machine, fork_machine, load_cases

CASES_DIR = Path(__file__).parent / "cases"


def _all_cases() -> list:
    params = []
    for path in sorted(CASES_DIR.glob("*.json")):
        for index, case in enumerate(load_cases(path)):
            label = f"{path.stem}-{index}:{case['command'][:40]}"
            params.append(pytest.param(case, id=label))
    return params


@pytest.fixture(scope="module")
def template():
    return fixture_machine().freeze()


@pytest.mark.parametrize("case", _all_cases())
def test_case(case, template):
    machine = fork_machine(template)
    for setup in case.get("setup", []):
        machine.execute(setup)
    result = machine.execute(case["command"])
    got = {"stdout": result.stdout, "stderr": result.stderr, "exit_code": result.exit_code}
    want = {k: case[k] for k in ("stdout", "stderr", "exit_code")}
    assert got == want
