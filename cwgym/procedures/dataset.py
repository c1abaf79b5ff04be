"""Datasets of demonstrations and rejected negatives, written as JSON lines.

:func:`generate` performs every chosen procedure for ``episodes`` seeds in fresh worlds,
on screen (``mode: "gui"``, the default) or through tools, and writes:

* ``episodes.jsonl``: one line per episode: the instruction, the sessions, every step with
  its phase label and resolved target, the verdict, the end state hash, and the counts of
  the GUI run and of the same instance performed through tools;
* ``summary.json``: totals per procedure and overall (episodes, verified, GUI actions,
  tool calls, keyboard share, characters typed) and the token convention (below);
* with ``frames``, ``frames/<episode>/<step>.png``: the screen each GUI action was chosen
  from, re-rendered by replaying the recorded actions in a freshly staged world and
  checked against the recorded scene digest and, at the end, the state hash.

Each seed also yields ``negatives`` corrupted copies (alternately a skipped phase that
writes state and a typed value replaced by another draw's, corrupting what the episode's
mode performs), each of which the procedure's own verifier must reject.

**The token convention.** Token columns are a convention, not a measurement: one
observation per GUI action costing ``ceil(width * height / 750)`` tokens (1,366 at
1280x800, the approximation Anthropic documents for images), plus the actions' JSON at
four bytes a token. The tool side counts only its calls' JSON, which understates its cost
a little, so the GUI/tool ratio is an upper bound.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from cwgym.procedures.demonstration import Demonstration
from cwgym.procedures.instance import Instance
from cwgym.procedures.model import Procedure
from cwgym.procedures.negatives import KINDS, NoCorruption, corrupt

if TYPE_CHECKING:
    from cwgym.environment.world import World

BYTES_PER_TOKEN = 4
PIXELS_PER_TOKEN = 750
CONVENTION_NOTE = (
    "Token counts are a convention, not a measurement: one observation per GUI action at "
    "ceil(width*height/750) tokens (the approximation Anthropic documents for images), plus "
    "the actions' JSON at 4 bytes a token. The tool side counts only its calls' JSON, so it "
    "understates the tool cost a little and the GUI/tool ratio is an upper bound."
)
#: Counts summed per procedure (the keyboard share is derived from them).
SUMMED = ("gui_actions", "pointer_actions", "key_actions", "characters_typed", "gui_action_bytes", "tool_calls", "tool_call_bytes")


class DatasetError(RuntimeError):
    """An episode broke the dataset's promises: a demonstration that does not verify, a
    negative that verifies, or frames that do not replay to the recorded scene."""


def tokens_per_observation(width: int, height: int) -> int:
    """``ceil(width * height / 750)``: the convention's cost of one screenshot."""
    return math.ceil(width * height / PIXELS_PER_TOKEN)


def convention(width: int, height: int) -> dict[str, Any]:
    return {
        "viewport": [width, height],
        "tokens_per_observation": tokens_per_observation(width, height),
        "bytes_per_token": BYTES_PER_TOKEN,
        "gui_tokens": "gui_actions * tokens_per_observation + ceil(gui_action_bytes / 4)",
        "tool_tokens": "ceil(tool_call_bytes / 4)",
        "note": CONVENTION_NOTE,
    }


@dataclass
class Options:
    """What :func:`generate` makes (see the module notes)."""

    procedures: list[str] | None = None
    episodes: int = 10
    seed_start: int = 0
    negatives: int = 0
    frames: bool = False
    mode: str = "gui"
    typing: str = "text"
    width: int = 1280
    height: int = 800


@dataclass
class Result:
    """What a run wrote and what went wrong: problems name the episodes."""

    summary: dict[str, Any]
    episodes: int = 0
    frames: int = 0
    problems: list[str] = field(default_factory=list)


def generate(
    out: str | Path,
    options: Options | None = None,
    *,
    progress: Callable[[int], None] | None = None,
    fail_fast: bool = False,
) -> Result:
    """Write a dataset into ``out`` (created if needed); see the module notes.

    ``progress(n)`` is called after each episode with the number of episodes just done.
    Problems (a demonstration that does not verify, a negative that verifies, frames that
    do not replay) are collected in the result, each naming its episode; with
    ``fail_fast`` the first one raises :class:`DatasetError` instead.
    """
    from cwgym.procedures.library import load_all, load_procedure

    opts = options or Options()
    if opts.mode not in ("gui", "tool"):
        raise ValueError(f"mode is gui or tool, got {opts.mode!r}")
    if opts.episodes < 1 or opts.negatives < 0 or opts.seed_start < 0:
        raise ValueError("episodes must be at least 1, negatives and seed_start at least 0")
    procedures = [load_procedure(p) for p in opts.procedures] if opts.procedures else load_all()
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    result = Result(summary={})
    per_procedure: dict[str, dict[str, Any]] = {}
    worlds: dict[str, dict] = {}

    def problem(text: str) -> None:
        if fail_fast:
            raise DatasetError(text)
        result.problems.append(text)

    with (folder / "episodes.jsonl").open("w", encoding="utf-8") as lines:
        for procedure in procedures:
            totals = per_procedure.setdefault(procedure.id, _empty(procedure))
            for seed in range(opts.seed_start, opts.seed_start + opts.episodes):
                for episode in _episodes(procedure, seed, opts, worlds):
                    record = episode.record(opts)
                    if opts.frames and episode.demo.mode == "gui":
                        try:
                            written = write_frames(folder, episode, opts, worlds)
                        except DatasetError as exc:
                            problem(str(exc))
                            written = []
                        for step, path in zip(record["steps"], written):
                            if path is not None:
                                step["frame"] = path
                        result.frames += sum(1 for p in written if p is not None)
                    lines.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
                    result.episodes += 1
                    why = episode.problem()
                    if why:
                        problem(why)
                    _add(totals, episode)
                    if progress is not None:
                        progress(1)
    result.summary = _summary(per_procedure, opts, result)
    (folder / "summary.json").write_text(json.dumps(result.summary, indent=2, ensure_ascii=False) + "\n")
    return result


# -- episodes ------------------------------------------------------------------------------


@dataclass
class Episode:
    """One performed instance: a demonstration, or a negative with its corruption."""

    id: str
    procedure: Procedure
    seed: int
    instance: Instance
    demo: Demonstration
    tool: Demonstration | None = None

    @property
    def negative(self) -> bool:
        return self.instance.corruption is not None

    def problem(self) -> str | None:
        if self.negative and self.demo.verification.passed:
            return f"{self.id}: the negative ({_describe(self.instance.corruption)}) verifies; its checks must reject it"
        if not self.negative and not self.demo.verification.passed:
            why = self.demo.failure.reason if self.demo.failure else "; ".join(
                f"{c.kind} {c.subject}: {c.reason}" for c in self.demo.verification.failures())
            return f"{self.id}: the demonstration does not verify ({why})"
        if not self.negative and self.tool is not None and not self.tool.verification.passed:
            return f"{self.id}: the same instance through tools does not verify"
        return None

    def record(self, opts: Options) -> dict[str, Any]:
        demo = self.demo
        steps = []
        for step in demo.steps:
            plain = msgspec.to_builtins(step)
            steps.append(plain)
        failure = None
        if demo.failure is not None:
            failure = {k: v for k, v in msgspec.to_builtins(demo.failure).items() if k != "screen"}
        counts: dict[str, Any] = {demo.mode: dict(demo.counts)}
        if self.tool is not None:
            counts["tool"] = dict(self.tool.counts)
        v = demo.verification
        return {
            "id": self.id,
            "procedure": self.procedure.id,
            "domain": self.procedure.domain,
            "seed": self.seed,
            "kind": "negative" if self.negative else "demonstration",
            "corruption": self.instance.corruption,
            "instruction": demo.instruction,
            "mode": demo.mode,
            "typing": opts.typing,
            "viewport": [opts.width, opts.height],
            "sessions": [msgspec.to_builtins(s) for s in demo.sessions],
            "steps": steps,
            "completed": demo.completed,
            "failure": failure,
            "verdict": {
                "passed": v.passed,
                "score": round(v.score, 4),
                "failed": [{"kind": c.kind, "subject": c.subject, "reason": c.reason} for c in v.failures()],
            },
            "captures": demo.captures,
            "state_hash": demo.state_hash,
            "counts": counts,
            "tool_verified": self.tool.verification.passed if self.tool is not None else None,
        }


def _fresh(procedure: Procedure, worlds: dict[str, dict]) -> World:
    from cwgym.environment.world import World
    from cwgym.resources import load_world

    definition = worlds.get(procedure.world)
    if definition is None:
        definition = worlds[procedure.world] = load_world(procedure.world)
    return World(definition, seed=0)


def _project(procedure: Procedure, seed: int, opts: Options, worlds: dict[str, dict], mode: str,
             change: Callable[[Instance], Instance] | None = None) -> tuple[Instance, Demonstration]:
    from cwgym.procedures.project import project
    from cwgym.procedures.stage import stage

    world = _fresh(procedure, worlds)
    instance = stage(world, procedure, seed)
    if change is not None:
        instance = change(instance)
    options = {"mode": mode, "typing": opts.typing, "width": opts.width, "height": opts.height}
    return instance, project(world, instance, options)


def _episodes(procedure: Procedure, seed: int, opts: Options, worlds: dict[str, dict]) -> Iterable[Episode]:
    """The demonstration of one seed, then its negatives."""
    instance, demo = _project(procedure, seed, opts, worlds, opts.mode)
    tool = None
    if opts.mode == "gui":
        tool = _project(procedure, seed, opts, worlds, "tool")[1]
    yield Episode(f"{procedure.id}-s{seed}", procedure, seed, instance, demo, tool)
    for number in range(opts.negatives):
        negative = _negative(instance, number, seed, opts.mode)
        if negative is None:
            continue
        _, demo = _project(procedure, seed, opts, worlds, opts.mode, lambda _fresh_instance, n=negative: n)
        yield Episode(f"{procedure.id}-s{seed}-n{number}", procedure, seed, negative, demo)


def _negative(instance: Instance, number: int, seed: int, mode: str) -> Instance | None:
    """The ``number``-th negative of a seed: the kinds alternate; when one kind has nothing
    to corrupt in this mode, the other is used; ``None`` when neither has."""
    first = KINDS[number % len(KINDS)]
    for kind in (first, *[k for k in KINDS if k != first]):
        try:
            return corrupt(instance, kind, (seed << 8) + number, mode)
        except NoCorruption:
            continue
    return None


def _describe(corruption: dict[str, Any] | None) -> str:
    if not corruption:
        return ""
    if corruption["kind"] == "skip":
        return f"skip phase {corruption['phase_index'] + 1}, {corruption['phase']!r}"
    return f"substitute {corruption['param']}: {corruption['original']!r} -> {corruption['replacement']!r}"


# -- frames --------------------------------------------------------------------------------


def write_frames(folder: Path, episode: Episode, opts: Options, worlds: dict[str, dict]) -> list[str | None]:
    """Replay the episode's actions in a freshly staged world, saving the screen each GUI
    action was chosen from; each frame's scene digest must be the recorded one, and the
    end state hash the demonstration's. Returns each step's frame path (``None`` for tool
    steps), relative to ``folder``."""
    from cwgym.procedures.stage import stage
    from cwgym.render import Renderer, to_png

    demo = episode.demo
    world = _fresh(episode.procedure, worlds)
    stage(world, episode.procedure, episode.seed)
    envs = {}
    for record in demo.sessions:
        env = world.environment(record.config)
        if env.id != record.id:
            raise DatasetError(f"{episode.id}: replay granted {env.id} where the run had {record.id}")
        envs[record.id] = env
    where = folder / "frames" / episode.id
    where.mkdir(parents=True, exist_ok=True)
    renderers: dict[str, Renderer] = {}
    paths: list[str | None] = []
    for step in demo.steps:
        path = None
        if step.kind == "gui":
            scene = world.scene(step.session_id, opts.width, opts.height)
            if str(scene.digest) != step.scene:
                raise DatasetError(
                    f"{episode.id}: step {step.index} replays to scene {scene.digest}, the run chose it from {step.scene}")
            rgba = renderers.setdefault(step.session_id, Renderer()).render(scene)
            name = f"{step.index:04d}.png"
            (where / name).write_bytes(to_png(rgba, opts.width, opts.height))
            path = f"frames/{episode.id}/{name}"
        paths.append(path)
        envs[step.session_id].step([step.action])
    if world.state_hash() != demo.state_hash:
        raise DatasetError(f"{episode.id}: the replay ends in state {world.state_hash()[:16]}, the run in {demo.state_hash[:16]}")
    return paths


# -- the summary ---------------------------------------------------------------------------


def _empty(procedure: Procedure) -> dict[str, Any]:
    return {
        "domain": procedure.domain, "episodes": 0, "verified": 0, "negatives": 0, "rejected": 0,
        "tool_verified": 0, **dict.fromkeys(SUMMED, 0),
    }


def _add(totals: dict[str, Any], episode: Episode) -> None:
    if episode.negative:
        totals["negatives"] += 1
        totals["rejected"] += not episode.demo.verification.passed
        return
    totals["episodes"] += 1
    totals["verified"] += episode.demo.verification.passed
    counts = dict(episode.demo.counts)
    if episode.tool is not None:
        counts["tool_calls"] = episode.tool.counts["tool_calls"]
        counts["tool_call_bytes"] = episode.tool.counts["tool_call_bytes"]
        totals["tool_verified"] += episode.tool.verification.passed
    elif episode.demo.mode == "tool":
        totals["tool_verified"] += episode.demo.verification.passed
    for key in SUMMED:
        totals[key] += int(counts.get(key, 0))


def _derived(totals: dict[str, Any], per_observation: int) -> dict[str, Any]:
    out = dict(totals)
    gui, episodes = totals["gui_actions"], totals["episodes"]
    out["keyboard_share"] = round(totals["key_actions"] / gui, 4) if gui else 0.0
    gui_tokens = gui * per_observation + math.ceil(totals["gui_action_bytes"] / BYTES_PER_TOKEN)
    tool_tokens = math.ceil(totals["tool_call_bytes"] / BYTES_PER_TOKEN)
    out["tokens"] = {
        "gui": gui_tokens,
        "tool": tool_tokens,
        "ratio": round(gui_tokens / tool_tokens, 1) if tool_tokens else None,
    }
    if episodes:
        out["per_episode"] = {
            "gui_actions": round(gui / episodes, 2),
            "tool_calls": round(totals["tool_calls"] / episodes, 2),
            "characters_typed": round(totals["characters_typed"] / episodes, 2),
        }
    return out


def _summary(per_procedure: dict[str, dict[str, Any]], opts: Options, result: Result) -> dict[str, Any]:
    per_observation = tokens_per_observation(opts.width, opts.height)
    overall = {"episodes": 0, "verified": 0, "negatives": 0, "rejected": 0, "tool_verified": 0, **dict.fromkeys(SUMMED, 0)}
    for totals in per_procedure.values():
        for key in overall:
            overall[key] += totals[key]
    return {
        "options": {
            "procedures": sorted(per_procedure), "episodes": opts.episodes, "seed_start": opts.seed_start,
            "negatives": opts.negatives, "frames": opts.frames, "mode": opts.mode, "typing": opts.typing,
        },
        "convention": convention(opts.width, opts.height),
        "procedures": {pid: _derived(t, per_observation) for pid, t in sorted(per_procedure.items())},
        "totals": {**_derived(overall, per_observation), "lines": result.episodes, "frames": result.frames},
        "problems": list(result.problems),
    }


def progress_bar(total: int, enabled: bool = True) -> Any:
    """A tqdm bar on stderr (a no-op object when disabled)."""
    from tqdm import tqdm

    return tqdm(total=total, file=sys.stderr, unit="episode", disable=not enabled, dynamic_ncols=True)
