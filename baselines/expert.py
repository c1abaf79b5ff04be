"""The scripted expert: plays the procedure's own gestures through the env's interface.

It is a *privileged* reference agent: it needs the task's identity, which a sealed agent
is never told, so it runs with ``cwgym eval --privileged`` (and raises on a sealed task,
which fails the episode with that reason). What it receives then, as plain data through
``cwgym eval``'s frames: at reset the task — env id, procedure id, world name, machine, the
instance seed, the env's configuration, the instruction and its spaces — and the first
observation and ``info``; then every observation, reward and the allow-listed ``info``. It
never receives the evaluator's ``World``.

What it does with it: the procedure file and the world definition are public files of the
repository, so the agent builds its *own* copy of the task (``gymnasium.make(env_id)`` in
its own process: a private model of the computer, not the evaluated one), has the
procedure's expert perform instance ``seed`` there (``cwgym.rl.expert_rollout``: the
procedure engine projects the phases into gestures, then they are translated into the
env's action interface — element rows, key indices, vocabulary slots, JSON envelopes), and
sends those actions one per step. Each observation it receives is compared with the one
its model predicts; ``diverged`` counts the steps where they differ (0 on every run so
far: the engine is deterministic), and after a divergence the agent keeps playing its plan.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["ExpertAgent", "make_agent"]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(np.asarray(a), np.asarray(b))
    return a == b


class ExpertAgent:
    def __init__(self) -> None:
        self.models: dict[str, Any] = {}
        self.plan: list[Any] = []
        self.expected: list[Any] = []
        self.at = 0
        self.diverged = 0
        self.fallback: Any = 0

    def _model(self, env_id: str) -> Any:
        if env_id not in self.models:
            import gymnasium as gym

            import cwgym.rl  # noqa: F401  (registers the envs)

            self.models[env_id] = gym.make(env_id)
        return self.models[env_id]

    def reset(self, task: dict[str, Any], observation: Any, info: dict[str, Any]) -> None:
        from cwgym.rl.expert import expert_rollout

        if "seed" not in task or "env_id" not in task:
            raise RuntimeError("the scripted expert replays the task's procedure on its seed, which a sealed agent is not told: run it with cwgym eval --privileged")
        transitions = expert_rollout(self._model(task["env_id"]), task["seed"])
        self.plan = [t.action for t in transitions]
        self.expected = [t.observation for t in transitions]
        self.at = 0
        self.fallback = '{"done": true}' if isinstance(self.plan[0] if self.plan else None, str) else 0

    def act(self, observation: Any, reward: float, info: dict[str, Any]) -> Any:
        if self.at >= len(self.plan):
            return self.fallback
        if not _same(observation, self.expected[self.at]):
            self.diverged += 1
        action = self.plan[self.at]
        self.at += 1
        return action


def make_agent() -> ExpertAgent:
    return ExpertAgent()
