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

__all__ = ["clone", "discounted_returns", "expert_transitions"]


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


def discounted_returns(rewards: np.ndarray, dones: np.ndarray, gamma: float) -> np.ndarray:
    """Each step's discounted return to the end of its episode (``dones`` marks each
    episode's last step): what a critic should predict on a demonstration."""
    out = np.zeros(len(rewards), dtype=np.float32)
    running = 0.0
    for i in range(len(rewards) - 1, -1, -1):
        running = float(rewards[i]) + (0.0 if dones[i] else gamma * running)
        out[i] = running
    return out


def clone(model: Any, observations: dict[str, np.ndarray], actions: np.ndarray, *, epochs: int = 10,
          batch_size: int = 64, seed: int = 0, returns: np.ndarray | None = None) -> dict[str, Any]:
    """Fit ``model``'s policy to the expert's actions; returns the loss and accuracy reached.

    ``model`` is an SB3 ``PPO``, ``A2C`` or sb3-contrib ``MaskablePPO`` (an actor-critic
    policy with an optimizer). Each epoch goes through the transitions in an order drawn
    from ``seed``. The accuracy is the share of transitions where the policy's most likely
    action is the expert's.

    With ``returns`` (each transition's discounted return, :func:`discounted_returns`) the
    critic is fitted to them as well. Without it, reinforcement learning starts from a
    critic that knows nothing: on ``easy-new-folder`` the first PPO update then scores the
    cloned policy's early steps below its later ones (normalised advantages of a value
    near 0) and undoes the cloning (100% after cloning, 0% on the test seeds 50,000 steps later).

    Raises:
        ValueError: a model without an action distribution (``DQN``), or ``returns`` of
            another length than ``actions``.
    """
    import torch

    policy = model.policy
    if not hasattr(policy, "get_distribution"):
        raise ValueError(f"behaviour cloning needs an actor-critic policy (PPO, A2C, MaskablePPO), not {type(policy).__name__}")
    count = len(actions)
    if returns is not None and len(returns) != count:
        raise ValueError(f"clone: {len(returns)} returns for {count} actions")
    rng = np.random.default_rng(seed)
    policy.set_training_mode(True)
    losses: list[float] = []
    value_losses: list[float] = []
    for _ in range(epochs):
        losses, value_losses = [], []
        order = rng.permutation(count)
        for start in range(0, count, batch_size):
            rows = order[start : start + batch_size]
            obs, _ = policy.obs_to_tensor({key: value[rows] for key, value in observations.items()})
            log_prob = policy.get_distribution(obs).log_prob(torch.as_tensor(actions[rows], device=policy.device))
            loss = -log_prob.mean()
            losses.append(float(loss.detach()))
            if returns is not None:
                target = torch.as_tensor(returns[rows], device=policy.device).float()
                value_loss = torch.nn.functional.mse_loss(policy.predict_values(obs).flatten(), target)
                value_losses.append(float(value_loss.detach()))
                loss = loss + value_loss
            policy.optimizer.zero_grad()
            loss.backward()
            policy.optimizer.step()
    policy.set_training_mode(False)
    with torch.no_grad():
        obs, _ = policy.obs_to_tensor(observations)
        predicted = policy.get_distribution(obs).mode().cpu().numpy()
    matches = np.all(predicted.reshape(count, -1) == actions.reshape(count, -1), axis=1)
    loss = round(float(np.mean(losses)), 4) if losses else None  # the last epoch's mean
    report = {"transitions": count, "epochs": epochs, "loss": loss, "accuracy": round(float(matches.mean()), 4)}
    if returns is not None:
        report["value_loss"] = round(float(np.mean(value_losses)), 4) if value_losses else None
    return report
