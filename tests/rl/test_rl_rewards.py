"""The reward wrappers: what each pays for, on the expert's path and off it."""

from __future__ import annotations

import json
import pickle

import gymnasium as gym
import pytest

import cwgym.rl.episode as episode_module
from cwgym.rl.expert import expert_rollout
from cwgym.rl.verifier import check

BACKUP = "cwgym/terminal-ops-backup-script-v0"  # 5 phases (the first only reads), 4 checks


def command(text: str) -> str:
    return json.dumps({"family": "terminal.v1", "op": "execute", "payload": {"command": text}})


def test_sparse_pays_once_when_verified():
    rewards = [t.reward for t in expert_rollout(gym.make(BACKUP), 2)]
    assert rewards == [0.0, 0.0, 0.0, 0.0, 1.0]


def test_partial_pays_each_check_as_it_first_passes():
    transitions = expert_rollout(gym.make(BACKUP, reward="partial"), 2)
    assert [t.reward for t in transitions] == [0.0, 0.25, 0.25, 0.25, 0.25]
    assert [t.info["progress"] for t in transitions] == [0.0, 0.25, 0.5, 0.75, 1.0]


def test_partial_pays_the_rise_over_the_score_at_reset_and_never_twice():
    env = gym.make(BACKUP, reward="partial")
    env.reset(seed=2)
    script = env.unwrapped._episode.instance.procedure.id
    assert script == "ops-backup-script"
    demo = [t.action for t in expert_rollout(env, 2)]
    env.reset(seed=2)
    env.step(demo[1])  # moves the script out of Downloads: one check passes
    undo = env.step(command("mv ~/bin/backup-*.sh ~/Downloads/"))[1]
    redo = env.step(demo[1])[1]
    assert undo == 0.0 and redo == 0.0  # undoing costs nothing here, redoing pays nothing more


def test_phases_follow_the_experts_footprints_in_order():
    transitions = expert_rollout(gym.make(BACKUP, reward="phases"), 2)
    assert [t.reward for t in transitions] == [0.0, 0.25, 0.25, 0.25, 0.25]
    assert [t.info["phases_reached"] for t in transitions] == [0, 1, 2, 3, 4]
    assert transitions[-1].info["phases"] == 4  # the reading phase changes neither files nor windows


def test_phases_pay_nothing_for_a_later_phase_done_first():
    env = gym.make(BACKUP, reward="phases")
    demo = [t.action for t in expert_rollout(env, 2)]
    env.reset(seed=2)
    _, reward, _, _, info = env.step(demo[4])  # the crontab line before moving the script
    assert reward == 0.0 and info["phases_reached"] == 0


def test_phases_pay_for_the_screen_a_looking_phase_opens():
    """Opening the Trash in Files changes no file; its milestone is the window it shows."""
    restore = "cwgym/easy-restore-trash-v1"
    transitions = expert_rollout(gym.make(restore, reward="phases"), 1000003)
    assert [t.reward for t in transitions] == [0.0, 0.5, 0.0, 0.5]  # Files at home, the Trash, the file, Restore
    assert [t.info["phases_reached"] for t in transitions] == [0, 1, 1, 2]
    env = gym.make(restore, reward="phases")
    _, info = env.reset(seed=1000003)
    launcher = next(i for i, e in enumerate(info["elements"]) if e["id"] == "shell:launch:files")
    _, reward, _, _, info = env.step(launcher)  # Files shows the home folder, not the Trash
    assert reward == 0.0 and info["phases_reached"] == 0


def test_a_step_cost_is_taken_every_step():
    transitions = expert_rollout(gym.make(BACKUP, reward="partial", step_cost=0.01), 2)
    assert [t.reward for t in transitions] == pytest.approx([-0.01, 0.24, 0.24, 0.24, 0.24])
    env = gym.make(BACKUP, step_cost=0.5)
    env.reset(seed=0)
    assert env.step("nonsense")[1] == -0.5  # refused actions cost too


def test_declaring_done_ends_the_episode_with_the_verifiers_reward():
    env = gym.make(BACKUP)
    demo = [t.action for t in expert_rollout(env, 5)]
    env.reset(seed=5)
    for action in demo[:-1]:
        env.step(action)
    last = json.loads(demo[-1])
    _, reward, terminated, _, info = env.step(json.dumps([last, {"done": True}]))
    assert terminated and reward == 1.0 and info["outcome"]["status"] == "done"
    env.reset(seed=5)
    _, reward, terminated, _, _ = env.step(json.dumps({"done": True}))
    assert terminated and reward == 0.0


def test_a_pickled_env_keeps_its_reward_state():
    env = gym.make(BACKUP, reward="phases")
    demo = [t.action for t in expert_rollout(env, 2)]
    env.reset(seed=2)
    env.step(demo[0])
    env.step(demo[1])
    copy = pickle.loads(pickle.dumps(env))
    for action in demo[2:]:
        assert env.step(action)[1:4] == copy.step(action)[1:4]
    fresh = pickle.loads(pickle.dumps(gym.make(BACKUP)))  # never reset: rebuilt from its arguments
    assert fresh.reset(seed=2)[0]["instruction"] == env.reset(seed=2)[0]["instruction"]


def test_file_checks_are_rerun_only_when_files_change(monkeypatch):
    """easy-rename-file checks only files: a step that changes the screen but not the
    filesystem keeps the verdicts, and they always equal a fresh verification."""
    calls = []
    monkeypatch.setattr(episode_module, "check", lambda world, instance: calls.append(1) or check(world, instance))
    env = gym.make("cwgym/easy-rename-file-v1")
    episode = env.unwrapped._episode
    env.reset(seed=3)
    env.action_space.seed(0)
    changed = 0
    for _ in range(100):
        before = episode.effect_state
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        changed += episode.effect_state != before
        assert episode.verification.to_plain() == check(episode.world, episode.instance).to_plain()
        if terminated or truncated:
            env.reset(seed=3)
    assert changed >= 10 and len(calls) < changed / 2  # most changes were on screen only
    transitions = expert_rollout(env, seed=5)
    assert transitions[-1].terminated and episode.verification.passed
    assert episode.verification.to_plain() == check(episode.world, episode.instance).to_plain()
