"""Procedure rows: datasets generated without frames (episodes per second, on screen and
through tools), one demonstration performed in each mode, and one frame re-rendered.

The reference engine's authors generated 400 episodes (200 demonstrations of two
procedures over 100 seeds, and 200 rejected negatives) in about 5.6 s on their machine,
without frames. The reference has no Python equivalent of the generator, so that figure
is quoted in the rows' notes, not measured side by side.
"""

from __future__ import annotations

import tempfile
import time

from benchmarks.harness import Row, measure
from cwgym import World
from cwgym.procedures import load_procedure, project, stage
from cwgym.procedures.dataset import Options, generate
from cwgym.resources import load_world

GROUP = "procedures"
PROCEDURES = ["legal-engagement-letter", "books-bank-reconciliation"]
REFERENCE = "reference engine: 400 episodes (200 demonstrations, 200 negatives) in about 5.6 s (~71 episodes/s) on its authors' machine, not measured here"


def _dataset_row(mode: str, seeds: int) -> Row:
    options = Options(procedures=PROCEDURES, episodes=seeds, negatives=1, mode=mode)
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        result = generate(folder, options)
        seconds = time.perf_counter() - started
    rate = result.episodes / seconds
    totals = result.summary["totals"]
    extra = {
        "episodes": result.episodes, "seconds": round(seconds, 3), "verified": totals["verified"],
        "rejected": totals["rejected"], "gui_actions": totals["gui_actions"], "tool_calls": totals["tool_calls"],
        "problems": len(result.problems),
    }
    what = "on screen (each seed also performed through tools for the tool counts)" if mode == "gui" else "through tools"
    name = f"dataset without frames, {mode} mode: {len(PROCEDURES)} procedures x {seeds} seeds + 1 negative each, {what}"
    return Row(GROUP, name, "default", result.episodes, rate, rate, unit="episodes/s", note=REFERENCE, extra=extra)


def _project_row(procedure_id: str, mode: str, n: int) -> Row:
    procedure = load_procedure(procedure_id)
    definition = load_world(procedure.world)
    seeds = iter(range(10**6))

    def setup():
        def once():
            world = World(definition, seed=0)
            instance = stage(world, procedure, next(seeds))
            demo = project(world, instance, {"mode": mode})
            assert demo.verification.passed
        return once

    row = measure(GROUP, f"stage + project + verify one {procedure_id} demonstration, {mode} mode", "default", setup, n)
    return row


def _frame_row(n: int) -> Row:
    from cwgym.render import Renderer, to_png

    procedure = load_procedure(PROCEDURES[0])

    def setup():
        world = World(load_world(procedure.world), seed=0)
        instance = stage(world, procedure, 0)
        demo = project(world, instance, {"mode": "gui"})
        session = demo.steps[-1].session_id
        renderer = Renderer()

        def once():
            scene = world.scene(session, 1280, 800)
            renderer.reset()
            to_png(renderer.render(scene), 1280, 800)
        return once

    return measure(GROUP, "one dataset frame: compose, render in full and encode the PNG (1280x800)", "default", setup, n)


def run(quick: bool = False) -> list[Row]:
    seeds = 10 if quick else 100
    n = 5 if quick else 30
    return [
        _dataset_row("gui", seeds),
        _dataset_row("tool", seeds),
        _project_row(PROCEDURES[0], "gui", n),
        _project_row(PROCEDURES[0], "tool", n),
        _frame_row(n),
    ]
