"""The owner calls on World delegate to the procedure engine."""

from cwgym import World
from cwgym.resources import load_world


def test_world_stage_project_verify():
    world = World(load_world("ubuntu-workstation"))
    instance = world.stage("books-expense-summary", 3)
    assert not world.verify(instance).passed
    demo = world.project(instance, {"mode": "tool"})
    assert demo.completed
    assert world.verify_with(instance, demo.captures).passed
    assert world.verify(instance).passed
