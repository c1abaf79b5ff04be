"""A trained stable-baselines3 policy as a leaderboard agent.

``CWGYM_MODEL`` names one or more ``cwgym train`` output directories (``os.pathsep``
separated); each holds ``model.zip`` and ``train.json`` (which records the algorithm, the
env id it was trained on and its ``--obs`` keys). On a task whose env has a trained model
the agent acts with ``model.predict(observation, deterministic=True)``; on any other task it
acts uniformly at random (seeded), like ``baselines.random_agent``. A ``maskable-ppo``
model predicts with ``action_masks=info["action_mask"]`` (the info of that reset or step).
Needs the ``train`` extra (and sb3-contrib for maskable models).

Which model a task is for: a sealed agent is not told the env id, so the agent recognises
the task by its instruction. Each model's env names a procedure of the public library,
whose instruction is a template (``Open {{app.label}} from the dock.``); the agent takes
the model whose template, with each placeholder read as any text, matches the whole
instruction, and whose observation space is the task's — or, for a model trained with
``--obs`` keys the task's observation lacks, whose space holds the task's keys as they are
and only extra keys that :func:`cwgym.rl.derived.derived_observation` rebuilds from
``info["elements"]`` and the instruction, as the env would. When the task is told (a
privileged run) its env id decides.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["SB3Agent", "instruction_pattern", "make_agent"]


def instruction_pattern(env_id: str) -> re.Pattern:
    """The instructions of ``env_id``'s procedure as a regular expression (placeholders match any text)."""
    import gymnasium as gym

    import cwgym.rl  # noqa: F401  (registers the envs)
    from cwgym.procedures import load_procedure

    template = load_procedure(gym.spec(env_id).kwargs["procedure"]).instruction
    return re.compile("(.+?)".join(re.escape(part) for part in re.split(r"\{\{.*?\}\}", template)), re.S)


def _algorithm(algo: str, run: str) -> Any:
    """The SB3 (or sb3-contrib) class ``train.json`` names."""
    if algo == "maskable-ppo":
        from sb3_contrib import MaskablePPO

        return MaskablePPO
    import stable_baselines3 as sb3

    classes = {"ppo": sb3.PPO, "a2c": sb3.A2C, "dqn": sb3.DQN}
    if algo not in classes:
        raise ValueError(f"{run}/train.json: unknown algo {algo!r}; known: {', '.join([*classes, 'maskable-ppo'])}")
    return classes[algo]


def _config(env_id: str, obs: list[str] | None) -> Any:
    """The configuration a model's env was trained with (its ``--obs`` over the registered one)."""
    import gymnasium as gym

    import cwgym.rl  # noqa: F401  (registers the envs)
    from cwgym.rl.config import task_config

    return task_config({**gym.spec(env_id).kwargs, **({"obs": obs} if obs else {})})


#: Observation keys the agent keeps from its own actions rather than from ``info``.
OWN_KEYS = ("pointer_held",)


def current_version(env_id: str) -> str:
    """``env_id``, or the newest registered version of the same env when ``env_id`` was
    retired (a policy trained on ``easy-append-line-v0`` plays ``easy-append-line-v1``: the
    spaces are the same, what the screen shows has moved on)."""
    import gymnasium as gym

    import cwgym.rl  # noqa: F401  (registers the envs)

    if env_id in gym.registry:
        return env_id
    name, _, version = env_id.rpartition("-v")
    versions = [int(i.rpartition("-v")[2]) for i in gym.registry if i.rpartition("-v")[0] == name and i.rpartition("-v")[2].isdigit()]
    return f"{name}-v{max(versions)}" if name and version.isdigit() and versions else env_id


class SB3Agent:
    def __init__(self, runs: list[str], seed: int = 0) -> None:
        self.models: dict[str, Any] = {}
        self.meta: dict[str, dict[str, Any]] = {}
        for run in runs:
            meta = json.loads((Path(run) / "train.json").read_text())
            cls = _algorithm(meta["algo"], run)
            env_id = current_version(meta["env"])
            self.models[env_id] = cls.load(str(Path(run) / "model.zip"), device="cpu")
            self.meta[env_id] = meta
        self.patterns = {env_id: instruction_pattern(env_id) for env_id in self.models}
        self.rng = np.random.default_rng(seed)
        self.model: Any = None
        self.env_id: str | None = None
        self.space: Any = None
        self.derive: list[str] = []  # the model's keys this task's observation lacks
        self.config: Any = None  # the model's env configuration, to rebuild them
        self.instruction = ""

    def missing_keys(self, env_id: str, space: Any) -> list[str] | None:
        """The keys of ``env_id``'s model that an observation of ``space`` lacks and that can
        be rebuilt (``[]``: the spaces are equal), or ``None`` when the model does not fit it."""
        from gymnasium import spaces

        model_space = self.models[env_id].observation_space
        if model_space == space:
            return []
        if not (isinstance(model_space, spaces.Dict) and isinstance(space, spaces.Dict)):
            return None
        if any(key not in model_space.spaces or model_space[key] != sub for key, sub in space.spaces.items()):
            return None
        from cwgym.rl.derived import DERIVABLE

        missing = [key for key in model_space.spaces if key not in space.spaces]
        return missing if all(key in DERIVABLE or key in OWN_KEYS for key in missing) else None

    def recognise(self, task: dict[str, Any]) -> str | None:
        """The env id of the one model whose instruction template and observation keys fit the task."""
        if "env_id" in task:
            return task["env_id"]
        fits = [
            env_id
            for env_id, pattern in self.patterns.items()
            if pattern.fullmatch(task["instruction"]) and self.missing_keys(env_id, task["observation_space"]) is not None
        ]
        return fits[0] if len(fits) == 1 else None

    def reset(self, task: dict[str, Any], observation: Any, info: dict[str, Any]) -> None:
        self.env_id = self.recognise(task)
        self.model = self.models.get(self.env_id)
        self.derive = []
        if self.model is not None:
            missing = self.missing_keys(self.env_id, task["observation_space"])
            if missing is None:
                raise ValueError(f"the model of {self.env_id} was trained on {self.model.observation_space}, "
                                 f"which the task's {task['observation_space']} does not fit")
            self.derive = missing
            if missing:
                self.config = _config(self.env_id, self.meta[self.env_id].get("obs"))
        self.instruction = task["instruction"]
        self.held = False  # pointer_held: a press of its own not yet released
        self.pressed: str | None = None  # the pointer operation of its last action
        self.space = task["action_space"]
        self.space.seed(int(self.rng.integers(2**31 - 1)))

    def observe(self, observation: Any, info: dict[str, Any]) -> Any:
        """``observation`` with the model's keys it lacks rebuilt from ``info["elements"]``."""
        if not self.derive:
            return observation
        from cwgym.rl.derived import derived_observation

        derivable = [key for key in self.derive if key not in OWN_KEYS]
        rebuilt = {}
        if derivable:
            if "elements" not in info:
                raise ValueError(f"rebuilding {', '.join(derivable)} needs info['elements'], which this step's info lacks")
            rebuilt = derived_observation(derivable, self.config, self.instruction, info["elements"])
        if "pointer_held" in self.derive:
            rebuilt["pointer_held"] = np.array([float(self.held)], dtype=np.float32)
        return {**observation, **rebuilt}

    def _track(self, info: dict[str, Any]) -> None:
        """``pointer_held`` as the env keeps it: a ``down`` that went through holds the button
        until an ``up`` or a click (the outcome of the last action says whether it went through)."""
        outcomes = info.get("outcomes") or []
        if self.pressed is not None and outcomes and all(o.get("success") for o in outcomes):
            if self.pressed == "down":
                self.held = True
            elif self.pressed in ("up", "click", "double_click"):
                self.held = False
        self.pressed = None

    def _pointer_op(self, action: Any) -> str | None:
        """The pointer operation of an action of a pointer-grid interface (``None`` otherwise)."""
        config = self.config
        if config is None or config.interface != "pointer":
            return None
        ops = config.pointer_ops or ()
        index = int(np.asarray(action).reshape(-1)[0])
        return ops[index] if 0 <= index < len(ops) else None

    def act(self, observation: Any, reward: float, info: dict[str, Any]) -> Any:
        if self.model is None:
            return self.space.sample()
        masks: dict[str, Any] = {}
        if self.meta[self.env_id]["algo"] == "maskable-ppo":
            if "action_mask" not in info:
                raise ValueError(f"the maskable model of {self.env_id} needs info['action_mask'], which this step's info lacks")
            masks["action_masks"] = np.asarray(info["action_mask"], dtype=bool)
        self._track(info)
        action, _ = self.model.predict(self.observe(observation, info), deterministic=True, **masks)
        if "pointer_held" in self.derive:
            self.pressed = self._pointer_op(action)
        return int(action) if np.ndim(action) == 0 else action


def make_agent() -> SB3Agent:
    runs = [r for r in os.environ.get("CWGYM_MODEL", "").split(os.pathsep) if r]
    if not runs:
        raise ValueError("baselines.sb3_agent needs CWGYM_MODEL: one or more `cwgym train --out` directories")
    return SB3Agent(runs, int(os.environ.get("CWGYM_AGENT_SEED", "0")))
