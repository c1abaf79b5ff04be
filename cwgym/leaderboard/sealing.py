"""What the agent is shown: the task at a reset, and the ``info`` keys it may read.

A *sealed* agent (the default of ``cwgym eval``) is told what a person at the computer
would be told: the instruction, the step limit, and the descriptions of its action and
observation spaces. It is not told the env id, the procedure, the world, the seed or the
env's configuration, which would let it rebuild the task and its verifier in its own
process. A *privileged* agent (``cwgym eval --privileged``, for reference agents such as
the scripted expert) is also told those; its results say so.

Whatever the view, ``info`` reaches the agent only through :data:`AGENT_INFO`, the one
allow-list of actor-visible keys. The verifier's verdicts (``verification``), the seed and
the shaping rewards' progress (``progress``, ``phases``, ``phases_reached``, which follow
the verifier's score) never cross; neither does an action effect's ``state``, a digest of
the whole machine that a copy of the task could be matched against.
"""

from __future__ import annotations

from typing import Any

from cwgym.leaderboard.space_codec import describe_space

__all__ = ["AGENT_INFO", "EFFECT_KEYS", "OUTCOME_KEYS", "agent_info", "task_view"]

#: The ``info`` keys the agent receives, and why each is the actor's to see.
AGENT_INFO: dict[str, str] = {
    "instruction": "the task as the user states it (at a reset)",
    "outcome": "how the interface took the action: ok, failed (with error codes), refused (with the reason) or done",
    "outcomes": "each envelope's result as the actor's Environment returns it (success, value, error, the effect's changed tags)",
    "step": "how many steps the episode has taken",
    "elements": "the rows of the element table (id, role, label, bounds, state) the observation's numbers stand for",
    "vocabulary": "the words the type-token actions type, by index",
    "action_mask": "which actions can do something on the screen now, from the element table, the focus and hit testing (cwgym.rl.masks)",
}
#: The keys of one entry of ``outcomes`` that cross.
OUTCOME_KEYS = ("index", "success", "value", "error")
#: The keys of an outcome's ``effect`` that cross (its ``state`` digest does not).
EFFECT_KEYS = ("changed", "windows_opened", "windows_closed", "focused_window", "url")


def _outcome(outcome: dict[str, Any]) -> dict[str, Any]:
    out = {k: outcome[k] for k in OUTCOME_KEYS if k in outcome}
    effect = outcome.get("effect")
    if isinstance(effect, dict):
        out["effect"] = {k: effect[k] for k in EFFECT_KEYS if k in effect}
    return out


def agent_info(info: dict[str, Any]) -> dict[str, Any]:
    """The part of an env's ``info`` the agent receives: the :data:`AGENT_INFO` keys only."""
    out = {key: info[key] for key in AGENT_INFO if key in info}
    if "outcomes" in out:
        out["outcomes"] = [_outcome(o) for o in out["outcomes"]]
    return out


def task_view(env: Any, instruction: str, privileged: bool = False, identity: dict[str, Any] | None = None) -> dict[str, Any]:
    """The task an agent is told at a reset of ``env`` (a ``gym.make`` env).

    Sealed: ``instruction``, ``max_episode_steps``, ``action_space`` and
    ``observation_space`` (descriptions, see :mod:`~cwgym.leaderboard.space_codec`).
    Privileged: ``identity`` too (env id, procedure, world, machine, seed, configuration).
    """
    task = {
        "instruction": instruction,
        "max_episode_steps": env.spec.max_episode_steps if env.spec else None,
        "action_space": describe_space(env.action_space),
        "observation_space": describe_space(env.observation_space),
    }
    if privileged:
        task.update(identity or {})
    return task
