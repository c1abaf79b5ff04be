"""``instantiate`` reads a procedure's plan (its parts as plain data and where their
placeholders are) from a cache keyed by the procedure's content: the instance it draws is
the one a full ``render_value`` walk of every part gives, for every procedure of the library."""

from __future__ import annotations

import importlib

import msgspec
import pytest

from cwgym.procedures import parse_procedure
from cwgym.procedures.checks import parse_check
from cwgym.procedures.instance import Instance
from cwgym.procedures.library import load_all
from cwgym.procedures.model import Phase, SetupEntry
from cwgym.procedures.params import draw_params
from cwgym.procedures.stage import instantiate
from cwgym.procedures.template import TemplateError, parse_ref, render, render_value

stage_module = importlib.import_module("cwgym.procedures.stage")  # the package exports the function
PROCEDURES = load_all()
SEEDS = (0, 1, 977)


def builtins_of(procedure) -> dict[str, str]:
    return {"home": "/home/ada", "user": "ada", "machine": procedure.machine}


def walked(procedure, seed: int, builtins: dict[str, str]) -> Instance:
    """The instance as ``instantiate`` drew it before plans: every part converted to plain
    data and walked whole by ``render_value``."""
    params = draw_params(procedure, seed, builtins)
    scope = {**builtins, **params}

    def part(value, kind):
        return msgspec.convert(render_value(msgspec.to_builtins(value), scope), kind)

    return Instance(
        id=procedure.id, domain=procedure.domain, world=procedure.world, machine=procedure.machine, seed=seed,
        params=params, builtins=dict(builtins), instruction=render(procedure.instruction, scope),
        setup=[part(entry, SetupEntry) for entry in procedure.setup],
        phases=[part(phase, Phase) for phase in procedure.phases],
        verify=[parse_check(render_value(msgspec.to_builtins(check), scope)) for check in procedure.verify],
        procedure=procedure,
    )


@pytest.mark.parametrize("procedure", PROCEDURES, ids=lambda p: p.id)
def test_every_library_procedure_draws_what_a_full_walk_draws(procedure):
    builtins = builtins_of(procedure)
    for seed in SEEDS:
        drawn = instantiate(procedure, seed, builtins)
        assert drawn.to_plain() == walked(procedure, seed, builtins).to_plain()
        assert drawn == walked(procedure, seed, builtins)


def demo(instruction: str = "Write {{n}}.", content: str = "n={{n}}") -> dict:
    return {
        "id": "plan-demo", "domain": "office", "instruction": instruction,
        "params": [{"name": "n", "kind": "integer", "min": 0, "max": 10**6}],
        "phases": [{"label": "Write {{n}}", "tool": [
            {"family": "filesystem.v1", "op": "write", "payload": {"path": "n-{{n}}.txt", "content": content, "n": "{{#n}}"}},
        ]}],
        "verify": [{"file_contains": {"path": "n-{{n}}.txt", "text": "{{n}}"}}],
    }


def test_a_procedure_changed_in_place_is_drawn_as_it_is_now():
    procedure = parse_procedure(demo())
    builtins = builtins_of(procedure)
    before = instantiate(procedure, 5, builtins)
    procedure.phases[0].tool[0].payload["content"] = "changed {{n}}"  # the same object, new content
    after = instantiate(procedure, 5, builtins)
    assert after.phases[0].tool[0].payload["content"] == f"changed {before.params['n']}"
    assert before.phases[0].tool[0].payload["content"] == f"n={before.params['n']}"
    assert after == walked(procedure, 5, builtins)


def test_each_instance_owns_its_parts():
    procedure = parse_procedure(demo())
    builtins = builtins_of(procedure)
    one = instantiate(procedure, 3, builtins)
    one.phases[0].tool[0].payload["content"] = "mutated"
    one.setup.append(SetupEntry(path="x"))
    two = instantiate(procedure, 3, builtins)
    assert two == walked(procedure, 3, builtins)
    assert two.phases[0].tool[0].payload["n"] == two.params["n"]  # {{#n}} is a number


def test_a_procedure_msgpack_cannot_carry_is_walked_whole():
    procedure = parse_procedure(demo())
    procedure.phases[0].tool[0].payload["big"] = 2**70  # past 64 bits (validation refuses it in a file)
    builtins = builtins_of(procedure)
    drawn = instantiate(procedure, 9, builtins)
    assert drawn.phases[0].tool[0].payload["big"] == 2**70
    assert drawn == walked(procedure, 9, builtins)


def test_a_bad_placeholder_fails_as_the_walk_fails():
    procedure = parse_procedure(demo())
    procedure.phases[0].tool[0].payload["content"] = "{{missing}}"
    with pytest.raises(TemplateError, match="no parameter 'missing'"):
        instantiate(procedure, 1, builtins_of(procedure))
    with pytest.raises(TemplateError, match="no parameter 'missing'"):
        walked(procedure, 1, builtins_of(procedure))


def test_plans_are_bounded():
    for k in range(stage_module.PLANS_KEPT + 8):
        procedure = parse_procedure(demo(instruction=f"Write {{{{n}}}} ({k})."))
        instantiate(procedure, 0, builtins_of(procedure))
    assert len(stage_module._PLANS) == stage_module.PLANS_KEPT


def test_parsed_placeholders_are_shared_and_read_only():
    ref = parse_ref("#n|pad:4")
    assert ref is parse_ref("#n|pad:4")
    assert (ref.numeric, ref.name, ref.filters) == (True, "n", (("pad", "4"),))
    assert isinstance(ref.filters, tuple)
    with pytest.raises(TemplateError, match="unknown filter"):
        parse_ref("n|nope")
