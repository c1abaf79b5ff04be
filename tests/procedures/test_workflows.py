"""The workflows of the company world (``procedures/workflows/``): information carried
between its services, some of it from one person's workstation to the other's, checked in
the services' own state, and each one a registered screen env.

The four properties, the negatives and the distinct seeds are held by the library-wide tests
(``test_properties.py`` and the others), which collect these files too."""

from __future__ import annotations

import gymnasium as gym
import pytest
from procedure_kit import run_mode

import cwgym  # noqa: F401  (registers the env suites)
from cwgym.procedures import load_all

WORKFLOWS = [p for p in load_all() if p.domain == "workflows"]


def _machines(procedure) -> set[str]:
    return {procedure.machine, *(phase.machine for phase in procedure.phases if phase.machine)}


def _services_read(procedure) -> set[str]:
    return {s for check in procedure.verify if (s := getattr(check.spec(), "service", None))}


def test_there_are_at_least_fifteen_workflows_in_the_company_world():
    assert len(WORKFLOWS) >= 15
    assert all(p.world == "company" and p.id.startswith("wf-") for p in WORKFLOWS)


def test_at_least_five_act_on_both_workstations():
    both = [p.id for p in WORKFLOWS if _machines(p) == {"maya-ws", "omar-ws"}]
    assert len(both) >= 5, both


@pytest.mark.parametrize("procedure", WORKFLOWS, ids=lambda p: p.id)
def test_every_workflow_reads_service_state_in_its_checks(procedure):
    assert _services_read(procedure), "a workflow checks what the services hold"
    assert all(getattr(check.spec(), "service", None) for check in procedure.verify)


def test_the_workflows_carry_information_between_services_or_people():
    for procedure in WORKFLOWS:
        hosts = {call.payload["url"].split("/")[2] for phase in procedure.phases for call in phase.tool
                 if call.family == "browser.v1" and call.op == "navigate"}
        assert len(hosts) >= 2 or len(_machines(procedure)) == 2, (procedure.id, hosts)


def test_a_two_machine_workflow_runs_on_two_desktops():
    procedure = next(p for p in WORKFLOWS if p.id == "wf-schedule-from-chat")
    _world, _instance, demo = run_mode(procedure, 0, "gui")
    assert demo.verification.passed
    assert {s.machine for s in demo.sessions} == {"maya-ws", "omar-ws"}


def _machines(procedure) -> set[str]:
    return {phase.machine or procedure.machine for phase in procedure.phases}


@pytest.mark.parametrize("procedure", WORKFLOWS, ids=lambda p: p.id)
def test_each_one_person_workflow_is_a_registered_env_that_resets(procedure):
    env_id = f"cwgym/{procedure.id}-v1"
    if len(_machines(procedure)) > 1:  # an env's agent has one machine: it could never finish
        assert env_id not in gym.registry
        return
    assert env_id in gym.registry
    env = gym.make(env_id)
    try:
        obs, _info = env.reset(seed=0)
        assert set(obs) == {"pixels", "instruction"}
        assert env.spec.max_episode_steps == 300
    finally:
        env.close()
