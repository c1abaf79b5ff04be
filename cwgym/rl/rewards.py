"""Reward wrappers: the procedure's verifier, read on the owner side, turned into rewards.

The agent never sees owner state; the env runs the verifier after every step that changed
the world and hands the agent only the number.

* ``sparse`` — 1 on the step the verifier first passes (the episode ends there), else 0.
  What it rewards: the finished task, nothing on the way.
* ``partial`` — the share of the procedure's checks passing, paid as it rises above the
  best share so far, scaled so that a solved episode earns 1 in total
  (``(score - best) / (1 - score at reset)``). What it rewards: each check the agent's work
  turns from failing to passing, once; undoing and redoing pays nothing more.
* ``phases`` — progress through the expert's phases as the world shows it. At reset the
  expert performs the instance through tools on a fork of the world; each phase leaves a
  *milestone*: the machine's paths it changed (content, kind, mode, or absence) and the
  windows it brought on screen (application and document, such as Files showing the
  Trash). A phase is reached when every path of its milestone holds what the expert left
  there after that phase or after any later one (so a file the expert writes in one phase
  and edits in the next still counts for both), and the agent's desktop shows each of its
  windows. Progress is the number of leading phases reached, over the number of phases
  with a milestone (1 once the verifier passes), paid as it rises like ``partial``. What
  it rewards: reaching the states the expert passes through, in the expert's order,
  including the screens a looking phase opens (a phase that changes neither files nor
  windows has no milestone).
* ``step_cost`` — subtracted from every step's reward, whatever the mode.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, NamedTuple

from cwgym.machine.filesystem import DIR, FILE, FsError
from cwgym.procedures import Verification, project

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine
    from cwgym.procedures import Instance

__all__ = [
    "REWARDS", "Milestone", "PartialReward", "PhaseReward", "Reward", "SparseReward", "expert_footprints", "reward_model",
    "window_state",
]

#: path -> every state the expert leaves there from the phase on (``None``: absent).
Footprint = dict[str, "frozenset[str | None]"]


class Milestone(NamedTuple):
    """What one phase of the expert leaves: its files' states and the windows it shows."""

    files: Footprint
    windows: frozenset[tuple[str, str]] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.files or self.windows)


class Reward:
    """A reward wrapper: ``start`` at reset, then one call per step."""

    name = ""

    def start(self, verification: Verification, world: World, instance: Instance, machine: str) -> None:
        """Called after reset with the verification of the fresh instance."""

    def __call__(self, verification: Verification, world: World, changed: bool) -> float:  # pragma: no cover
        raise NotImplementedError

    def info(self) -> dict:
        """What ``info`` reports about progress (plain data)."""
        return {}


class SparseReward(Reward):
    name = "sparse"

    def __call__(self, verification: Verification, world: World, changed: bool) -> float:
        return 1.0 if verification.passed else 0.0


class _Rising(Reward):
    """Pays the rise of a progress value in ``[0, 1]`` above its best, normalised to sum to 1."""

    def __init__(self) -> None:
        self.start_value = 0.0
        self.best = 0.0

    def _begin(self, value: float) -> None:
        self.start_value = self.best = min(value, 1.0)

    def _pay(self, value: float) -> float:
        if value <= self.best:
            return 0.0
        span = 1.0 - self.start_value
        gained = (value - self.best) / span if span > 0 else 0.0
        self.best = value
        return gained

    def info(self) -> dict:
        return {"progress": self.best}


class PartialReward(_Rising):
    name = "partial"

    def start(self, verification: Verification, world: World, instance: Instance, machine: str) -> None:
        self._begin(verification.score)

    def __call__(self, verification: Verification, world: World, changed: bool) -> float:
        return self._pay(1.0 if verification.passed else verification.score)


class PhaseReward(_Rising):
    name = "phases"

    def __init__(self, cache: dict | None = None) -> None:
        super().__init__()
        self.cache = cache if cache is not None else {}
        self.milestones: list[Milestone] = []
        self.machine = ""
        self.reached = 0

    def start(self, verification: Verification, world: World, instance: Instance, machine: str) -> None:
        key = (instance.id, instance.seed)
        if key not in self.cache:
            if len(self.cache) >= 256:
                self.cache.pop(next(iter(self.cache)))
            self.cache[key] = [f for f in expert_footprints(world, instance, machine) if f]
        self.milestones = self.cache[key]
        self.machine = machine
        self.reached = 0
        self._begin(self._progress(verification, world))

    def _progress(self, verification: Verification, world: World) -> float:
        if verification.passed:
            self.reached = len(self.milestones)
            return 1.0
        if not self.milestones:
            return 0.0
        machine = world.machine(self.machine)
        shown = window_state(world, self.machine) if any(m.windows for m in self.milestones) else frozenset()
        reached = 0
        for milestone in self.milestones:
            if any(path_state(machine, path) not in allowed for path, allowed in milestone.files.items()):
                break
            if not milestone.windows <= shown:
                break
            reached += 1
        self.reached = max(self.reached, reached)
        return reached / len(self.milestones)

    def __call__(self, verification: Verification, world: World, changed: bool) -> float:
        if not changed:
            return 0.0
        return self._pay(self._progress(verification, world))

    def info(self) -> dict:
        return {"progress": self.best, "phases_reached": self.reached, "phases": len(self.milestones)}


REWARDS = {"sparse": SparseReward, "partial": PartialReward, "phases": PhaseReward}


def reward_model(name: str, cache: dict | None = None) -> Reward:
    """A fresh reward wrapper by mode name (``phases`` shares ``cache`` between envs)."""
    if name == "phases":
        return PhaseReward(cache)
    return REWARDS[name]()


# -- footprints -----------------------------------------------------------------------


def _inode_state(inode) -> str:
    mode = f"{inode.mode & 0o7777:o}"
    if inode.kind == DIR:
        return f"dir:{mode}"
    if inode.kind == FILE:
        return f"file:{mode}:" + hashlib.sha256(inode.data).hexdigest()[:32]
    return f"{inode.kind}:{mode}:{inode.target or ''}"


def path_state(machine: Machine, path: str) -> str | None:
    """What is at ``path`` (not following a final symlink): kind, mode and content digest, or ``None``."""
    fs = machine.fs
    try:
        return _inode_state(fs.inodes[fs.resolve(path, follow=False)])
    except (FsError, KeyError):
        return None


def tree_state(machine: Machine) -> dict[str, str]:
    """Every path of the machine with :func:`path_state`'s value."""
    return {path: _inode_state(inode) for path, inode in machine.fs.iter_tree("/")}


def window_state(world: World, machine: str) -> frozenset[tuple[str, str]]:
    """The windows the machine's current desktop shows, as ``(application, document)``."""
    return frozenset((w["app"], w["document"] or "") for w in world.windows(machine) if not w["minimized"])


def expert_footprints(world: World, instance: Instance, machine: str) -> list[Milestone]:
    """Each phase's milestone on ``machine`` when the expert performs ``instance``.

    ``world`` is the freshly staged world (left unchanged: the expert runs on forks). The
    demonstration is made through tools; its recorded actions are then replayed phase by
    phase on a second fork to see what each phase changed: each changed path keeps the
    states the expert leaves it in from then on, and each window the phase brought on
    screen is the window the agent's desktop must show. A phase after a failure has an
    empty milestone.
    """
    demo = project(world.fork(), instance, {"mode": "tool"})
    replay = world.fork()
    sessions = {record.id: replay.environment(record.config) for record in demo.sessions}
    target = replay.machine(machine)
    by_phase: dict[int, list] = {}
    for step in demo.steps:
        by_phase.setdefault(step.phase_index, []).append(step)
    states = [tree_state(target)]
    shown = [window_state(replay, machine)]
    for index in range(len(instance.phases)):
        for step in by_phase.get(index, []):
            sessions[step.session_id].step([step.action])
        states.append(tree_state(target))
        shown.append(window_state(replay, machine))
    milestones: list[Milestone] = []
    for index in range(1, len(states)):
        before, after = states[index - 1], states[index]
        changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
        files = {p: frozenset(s.get(p) for s in states[index:]) for p in changed}
        milestones.append(Milestone(files, shown[index] - shown[index - 1]))
    return milestones
