"""Behaviour cloning: warm-start a stable-baselines3 policy on the procedure expert's play.

:func:`expert_transitions` plays the expert (:func:`cwgym.rl.expert_rollout`) through an
env's own interface on training seeds and keeps what it saw and did; :func:`clone` then
raises the policy's log-likelihood of those actions (its actor only: the value head is
left to reinforcement learning) before PPO or A2C carries on from there. Only training
seeds are used, so the held-out test seeds stay unseen.

stable-baselines3 and torch are the optional ``train`` extra: nothing that ``import cwgym``
imports may import this module.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from cwgym.rl.expert import expert_rollout

__all__ = ["clone", "expert_transitions"]


def expert_transitions(env_id: str, seeds: range, **overrides: Any) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """The expert's ``(observations, actions)`` on ``seeds`` of ``env_id``, stacked per key.

    Raises:
        ValueError: a seed whose demonstration cannot be played through the env's interface.
    """
    env = gym.make(env_id, **overrides)
    observations: list[dict[str, np.ndarray]] = []
    actions: list[Any] = []
    for seed in seeds:
        for transition in expert_rollout(env, seed):
            observations.append(transition.observation)
            actions.append(transition.action)
    env.close()
    if not actions:
        raise ValueError(f"the expert made no steps on seeds {seeds.start}..{seeds.stop - 1} of {env_id}")
    stacked = {key: np.stack([o[key] for o in observations]) for key in observations[0]}
    return stacked, np.asarray(actions)


def clone(model: Any, observations: dict[str, np.ndarray], actions: np.ndarray, *, epochs: int = 10,
          batch_size: int = 64, seed: int = 0) -> dict[str, Any]:
    """Fit ``model``'s policy to the expert's actions; returns the loss and accuracy reached.

    ``model`` is an SB3 ``PPO`` or ``A2C`` (an actor-critic policy with an optimizer). Each
    epoch goes through the transitions in an order drawn from ``seed``. The accuracy is the
    share of transitions where the policy's most likely action is the expert's.

    Raises:
        ValueError: a model without an action distribution (``DQN``).
    """
    import torch

    policy = model.policy
    if not hasattr(policy, "get_distribution"):
        raise ValueError(f"behaviour cloning needs an actor-critic policy (PPO, A2C), not {type(policy).__name__}")
    rng = np.random.default_rng(seed)
    count = len(actions)
    policy.set_training_mode(True)
    losses: list[float] = []
    for _ in range(epochs):
        losses = []
        order = rng.permutation(count)
        for start in range(0, count, batch_size):
            rows = order[start : start + batch_size]
            obs, _ = policy.obs_to_tensor({key: value[rows] for key, value in observations.items()})
            log_prob = policy.get_distribution(obs).log_prob(torch.as_tensor(actions[rows], device=policy.device))
            loss = -log_prob.mean()
            policy.optimizer.zero_grad()
            loss.backward()
            policy.optimizer.step()
            losses.append(float(loss.detach()))
    policy.set_training_mode(False)
    with torch.no_grad():
        obs, _ = policy.obs_to_tensor(observations)
        predicted = policy.get_distribution(obs).mode().cpu().numpy()
    matches = np.all(predicted.reshape(count, -1) == actions.reshape(count, -1), axis=1)
    loss = round(float(np.mean(losses)), 4) if losses else None  # the last epoch's mean
    return {"transitions": count, "epochs": epochs, "loss": loss, "accuracy": round(float(matches.mean()), 4)}
