"""``Episode``: one world's episodes, the engine under every env.

An :class:`Episode` drives one world of a :class:`~cwgym.rl.blueprint.Blueprint`:
``reset(seed)`` restores the template, stages the procedure instance the seed draws (its
setup applied to the restored template), grants the agent's session (``Episode.actor``,
an actor :class:`~cwgym.environment.Environment`) and verifies the fresh instance;
``step(action)`` decodes the action into envelopes sent through that session, verifies
the world on the owner side when the step changed it, and computes the reward.
``ComputerEnv`` wraps one episode; the vector envs run many, each in a fork of the same
template (copy-on-write).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cwgym.environment import Environment, World
from cwgym.procedures import Verification, stage
from cwgym.procedures.checks import FILE_CHECKS
from cwgym.protocol.plain import clone
from cwgym.rl.actions import DecodeContext
from cwgym.rl.blueprint import Blueprint
from cwgym.rl.config import TaskConfig
from cwgym.rl.elements import ElementTable, click_point, element_table
from cwgym.rl.masks import action_mask, mask_size
from cwgym.rl.rewards import Reward, reward_model
from cwgym.rl.text import tokens, typing_vocabulary
from cwgym.rl.verifier import check

__all__ = ["Episode", "instance_seed", "verification_info"]


def instance_seed(rng: np.random.Generator, config: TaskConfig, seed: int | None, options: dict[str, Any]) -> int:
    """The procedure seed a reset stages: ``options["instance"]``, the seed, or a draw."""
    if "instance" in options:
        value = options["instance"]
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(f"options['instance'] must be a non-negative int, got {value!r}")
        return int(value)
    if seed is not None:
        return int(seed)
    split = options.get("split")
    if split not in (None, "train", "test"):
        raise ValueError(f"options['split'] must be 'train' or 'test', got {split!r}")
    lo, hi = config.seed_range(split)
    return int(rng.integers(lo, hi, dtype=np.uint64))


class Episode:
    """One world's episodes: reset, step, observe, verify, reward.

    Attributes:
        blueprint: what the configuration's envs share (procedure, template, codecs).
        world: the owner-side world this episode runs in.
        actor: the agent's session in it (``None`` before the first reset): everything the
            agent does goes through this handle.
        instance, seed, steps: the staged procedure instance, its seed, steps taken.
        table: the element table of the current screen, when the env uses one.
        verification: the verifier's verdict on the world now.
    """

    def __init__(self, blueprint: Blueprint, world: World | None = None) -> None:
        self.blueprint = blueprint
        self.config = blueprint.config
        self.world = world if world is not None else blueprint.new_world()
        self.actor: Environment | None = None  # the agent's session (its actor handle)
        self.instance: Any = None
        self.seed: int | None = None
        self.steps = 0
        self.pointer_held = False  # the agent's last pointer action was a press not yet released
        self.ctx = DecodeContext(blueprint.machine, self.config.width, self.config.height, blueprint.grant.action_budget)
        self.table: ElementTable | None = None
        self.words: frozenset[str] = frozenset()
        self._seen: tuple[Any, frozenset[str] | None] = (None, None)  # the view and words of the table
        self.ctx.locate = self._locate
        self.channels: dict[str, Any] = {}
        self._peeked = False  # whether channels came from Runtime.peek (a scene cache's own values)
        self.verification: Verification | None = None
        self._files_only = False  # every check reads only files: re-verify when they change
        self._verified_files: bytes | None = None
        self.effect_state: str | None = None
        self._machine: bytes | None = None  # the machine's digest after the last step
        self.reward: Reward = reward_model(self.config.reward, blueprint.footprints)
        self.needs_table = blueprint.observations.wants_table or blueprint.actions.needs_table
        self.masked = mask_size(blueprint.actions) is not None  # a discrete interface: info["action_mask"]
        self._mask: np.ndarray | None = None  # the mask of the screen now, made when first asked

    # -- reset ----------------------------------------------------------------------------
    def reset(self, seed: int) -> dict[str, Any]:
        """Start the episode of ``seed``; returns the reset ``info``."""
        world = self.world
        world.restore(self.blueprint.template)
        self.instance = stage(world, self.blueprint.procedure, seed)
        self.actor = world.environment(self.blueprint.grant)
        self.seed = seed
        self.steps = 0
        self.pointer_held = False
        self.effect_state = None
        self._machine = None
        self.channels = self.actor.observe()["channels"]
        self._peeked = False  # the actor's own copy: its elements are new dicts
        self._mask = None
        if self.blueprint.actions.needs_vocabulary:
            self.ctx.vocabulary = typing_vocabulary(self.instance.instruction, self.config.vocabulary, self.config.characters)
        self.words = frozenset(tokens(self.instance.instruction))
        self.verification = self._verify(fresh=True)
        self.reward.start(self.verification, world, self.instance, self.blueprint.machine)
        self._look()
        info = self._info({"status": "reset"}, [])
        info["instruction"] = self.instance.instruction
        return info

    # -- step -----------------------------------------------------------------------------
    def step(self, action: Any) -> tuple[float, bool, bool, dict[str, Any]]:
        """One action: ``(reward, terminated, truncated, info)``."""
        if self.actor is None:
            raise RuntimeError("reset the env before stepping it")
        decoded = self.blueprint.actions.decode(action, self.ctx)
        self.steps += 1
        outcomes: list[dict] = []
        changed = False
        if decoded.refusal is not None:
            summary: dict[str, Any] = {"status": "refused", "reason": decoded.refusal}
        else:
            if decoded.envelopes:
                # owner side: the runtime's typed step, without the actor handle's copies
                runtime = self.world.runtime
                typed = runtime.step(self.actor.id, decoded.envelopes)
                # read-only: the semantic view is the scene cache's own (see Runtime.peek)
                self.channels = runtime.peek(runtime.session(self.actor.id))["channels"]
                self._peeked = True
                self._mask = None
                outcomes = [clone(o.to_plain()) for o in typed]  # the agent's own copies, in info
                self._track_pointer(decoded.envelopes, outcomes)
                for outcome in typed:
                    if outcome.effect is not None and str(outcome.effect.state) != self.effect_state:
                        self.effect_state = str(outcome.effect.state)
                        changed = True
                # the effect digests what the actor can see; a change it cannot see (a file
                # it may write but not read) still changes the machine the checks read
                machine = self.world.machine(self.blueprint.machine).digest()
                if machine != self._machine:
                    self._machine = machine
                    changed = True
            failed = [o["error"]["code"] for o in outcomes if not o["success"] and o.get("error")]
            summary = {"status": "done" if decoded.done else ("failed" if failed else "ok"), "actions": len(outcomes)}
            if failed:
                summary["errors"] = failed
        if changed:
            self.verification = self._verify()
        verification = self.verification
        reward = self.reward(verification, self.world, changed) - self.config.step_cost
        terminated = bool(verification.passed or decoded.done)
        limit = self.config.max_episode_steps
        truncated = limit is not None and self.steps >= limit
        self._look()
        return float(reward), terminated, truncated, self._info(summary, outcomes)

    def _track_pointer(self, envelopes: list[dict], outcomes: list[dict]) -> None:
        """Whether a pointer button is held after these actions: a ``down`` that went through
        holds it until an ``up`` or a click — the agent's own doing, which the screen does not
        always show (a press on a title bar changes nothing until the pointer moves)."""
        for envelope, outcome in zip(envelopes, outcomes):
            if envelope["family"] == "pointer.v1" and outcome.get("success"):
                if envelope["op"] == "down":
                    self.pointer_held = True
                elif envelope["op"] in ("up", "click", "double_click"):
                    self.pointer_held = False

    def _verify(self, fresh: bool = False) -> Verification:
        """The instance's verification now. When every check reads only files, a step
        that left the filesystem as it was keeps the verdicts it had (a click that
        selects a row cannot change them)."""
        instance = self.instance
        if fresh:
            self._files_only = not any(p.capture for p in instance.phases) and all(c.kind() in FILE_CHECKS for c in instance.verify)
            self._verified_files = None
        if self._files_only:
            files = self.world.machine(instance.machine).fs.digest()
            if files == self._verified_files and self.verification is not None:
                return self.verification
            self._verified_files = files
        return check(self.world, instance)

    # -- observing --------------------------------------------------------------------------
    def _look(self) -> None:
        if self.needs_table:
            view = self.semantic_view()
            if self.table is not None and view is self._seen[0] and self.words is self._seen[1]:
                return  # a refused action sent nothing: the same view, the same table
            self._seen = (view, self.words)
            # the view is the scene cache's own (Runtime.peek) or, after a reset, the actor's copy
            self.table = element_table(view, self.config.elements, self.config.skip_roles, self.words, shared=self._peeked)
            self.ctx.table = self.table

    def action_mask(self) -> np.ndarray | None:
        """Which actions of the interface can do something now (:mod:`cwgym.rl.masks`);
        ``None`` for an interface without a discrete space. Read-only: made once per screen."""
        if not self.masked:
            return None
        if self._mask is None:
            self._mask = action_mask(self.blueprint.actions, self)
            self._mask.flags.writeable = False
        return self._mask

    def _locate(self, interaction: str) -> tuple[int, int] | None:
        return click_point(self.world.scene(self.actor.id, self.config.width, self.config.height), interaction)

    def observe(self, out: dict[str, np.ndarray] | None = None) -> dict[str, Any]:
        return self.blueprint.observations.encode(self, out)

    def semantic_view(self) -> dict | None:
        """The agent's ``semantic.v1`` view of its machine's screen (``None`` without one)."""
        return self.channels.get("semantic.v1", {}).get(self.blueprint.machine)

    def terminal(self) -> dict | None:
        """The session's ``terminal.v1`` latch on its machine (``None`` before any command)."""
        latch = self.channels.get("terminal.v1")
        return latch.get(self.blueprint.machine) if isinstance(latch, dict) else None

    def _info(self, summary: dict[str, Any], outcomes: list[dict]) -> dict[str, Any]:
        info: dict[str, Any] = {
            "outcome": summary,
            "outcomes": outcomes,
            "verification": verification_info(self.verification, self.config.reveal),
            "seed": self.seed,
            "step": self.steps,
        }
        info.update(self.reward.info())
        if self.table is not None and self.blueprint.observations.wants_table:
            info["elements"] = [_own_row(row) for row in self.table.rows]  # the rows are read-only views
        if self.blueprint.actions.needs_vocabulary:
            info["vocabulary"] = list(self.ctx.vocabulary)
        if self.masked:
            info["action_mask"] = self.action_mask().copy()  # each info its own array
        return info

    # -- pickling -------------------------------------------------------------------------
    def state(self) -> dict[str, Any] | None:
        """What continues this episode in another process (``None`` before the first reset)."""
        if self.actor is None:
            return None
        reward = dict(self.reward.__dict__)
        reward.pop("cache", None)
        return {
            "seed": self.seed,
            "steps": self.steps,
            "session": self.actor.id,
            "snapshot": self.world.export_snapshot(),
            "channels": self.channels,
            "effect_state": self.effect_state,
            "pointer_held": self.pointer_held,
            "reward": reward,
        }

    def resume(self, state: dict[str, Any]) -> None:
        """Continue an episode :meth:`state` described, in this episode's world."""
        self.world.restore(self.blueprint.template)
        self.instance = stage(self.world, self.blueprint.procedure, state["seed"])
        self.world.import_snapshot(state["snapshot"])
        self.actor = self.world.session(state["session"])
        self.seed = state["seed"]
        self.steps = state["steps"]
        self.channels = state["channels"]
        self._peeked = False
        self._mask = None
        self.effect_state = state["effect_state"]
        self.pointer_held = state.get("pointer_held", False)
        self._machine = None
        self.reward.__dict__.update(state["reward"])
        if self.blueprint.actions.needs_vocabulary:
            self.ctx.vocabulary = typing_vocabulary(self.instance.instruction, self.config.vocabulary, self.config.characters)
        self.words = frozenset(tokens(self.instance.instruction))
        self.verification = self._verify(fresh=True)
        self._look()


def verification_info(verification: Verification | None, reveal: bool = False) -> dict[str, Any]:
    """The verification as ``info`` carries it: verdicts only, unless ``reveal``.

    Expected and found values (and reasons, which quote them) can give the answer away, so
    they appear only with ``reveal``.
    """
    if verification is None:
        return {}
    if reveal:
        return verification.to_plain()
    return {
        "passed": verification.passed,
        "score": verification.score,
        "checks": [{"kind": c.kind, "subject": c.subject, "passed": c.passed} for c in verification.checks],
    }


def _own_row(row: dict[str, Any]) -> dict[str, Any]:
    """A copy of an element row for ``info``: its dicts are the agent's, not the view's."""
    own = row.copy()
    own["bounds"] = own["bounds"].copy()
    return own
