"""The action interfaces: what each sends, and refusals that are outcomes, not exceptions."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest

from cwgym.rl.actions import DEFAULT_KEYS, POINTER_OPS, REFUSALS
from cwgym.rl.env import ComputerEnv

TERMINAL = "cwgym/terminal-ops-backup-script-v0"
EASY = "cwgym/easy-new-folder-v1"


def last_actions(env, n=1):
    """The agent session's last ``n`` journaled actions (owner side)."""
    entries = [e for e in env.unwrapped._episode.world.trajectory() if e["kind"] == "agent.action"]
    return [e["data"]["action"] for e in entries[-n:]]


def test_envelopes_take_one_envelope_a_list_or_done():
    env = gym.make(TERMINAL)
    env.reset(seed=1)
    one = {"family": "terminal.v1", "op": "execute", "payload": {"command": "echo one"}}
    obs, reward, terminated, _, info = env.step(json.dumps(one))
    assert info["outcome"] == {"status": "ok", "actions": 1} and obs["terminal"] == "one\n[exit 0]"
    assert reward == 0.0 and not terminated
    two = [one, {"family": "terminal.v1", "op": "execute", "payload": {"command": "false"}}]
    obs, _, _, _, info = env.step(json.dumps(two))
    assert info["outcome"]["actions"] == 2 and obs["terminal"] == "[exit 1]"
    assert last_actions(env, 2)[0]["machine"] == "workstation"  # the machine defaults to the task's
    _, reward, terminated, _, info = env.step(json.dumps({"done": True}))
    assert terminated and reward == 0.0 and info["outcome"]["status"] == "done"


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("{not json", "malformed_action"),
        ("[]", "malformed_action"),
        ('{"family": "terminal.v1"}', "malformed_action"),
        ('{"family": "terminal.v1", "op": "execute", "payload": [1]}', "malformed_action"),
        ('{"family": "terminal.v1", "op": "execute", "extra": 1}', "malformed_action"),
        ('{"family": "pointer.v1", "op": "click", "payload": {"x": 1, "y": 1}}', "action_family_not_granted"),
        (json.dumps([{"family": "terminal.v1", "op": "execute", "payload": {"command": "ls"}}] * 1025), "action_budget_exceeded"),
    ],
)
def test_a_malformed_or_ungranted_text_action_is_refused_and_nothing_is_sent(action, reason):
    env = gym.make(TERMINAL)
    env.reset(seed=1)
    before = env.unwrapped._episode.world.state_hash()
    _, reward, terminated, truncated, info = env.step(action)
    assert info["outcome"] == {"status": "refused", "reason": reason} and reason in REFUSALS
    assert info["outcomes"] == [] and reward == 0.0 and not terminated and not truncated
    assert env.unwrapped._episode.world.state_hash() == before


def test_the_screen_interface_accepts_only_pointer_and_keyboard():
    env = gym.make("cwgym/ops-backup-script-v1")
    env.reset(seed=0)
    launch = {"family": "application.v1", "op": "launch", "payload": {"kind": "terminal"}}
    assert env.step(json.dumps(launch))[4]["outcome"]["reason"] == "action_family_not_granted"
    click = {"family": "pointer.v1", "op": "click", "payload": {"x": 34, "y": 187, "width": 1280, "height": 800}}
    info = env.step(json.dumps(click))[4]
    assert info["outcome"]["status"] == "ok" and info["outcomes"][0]["effect"]["windows_opened"] == [0]


def test_a_failed_action_is_an_outcome_with_its_error_code():
    env = gym.make(TERMINAL, actions=["filesystem.v1", "terminal.v1"])
    env.reset(seed=1)
    info = env.step(json.dumps({"family": "filesystem.v1", "op": "read", "payload": {"path": "nowhere"}}))[4]
    assert info["outcome"] == {"status": "failed", "actions": 1, "errors": ["not_found"]}


def _easy(**kwargs) -> ComputerEnv:
    base = {"procedure": "easy-new-folder", "obs": ["elements", "instruction"], "max_episode_steps": 40}
    return ComputerEnv(**{**base, **kwargs})


def test_pointer_grid_clicks_the_centre_of_a_cell():
    env = _easy(interface="pointer", grid=[32, 20])
    env.reset(seed=0)
    assert env.action_space == gym.spaces.MultiDiscrete([len(POINTER_OPS), 32, 20])
    # The Files launcher is at (10..58, 105..153): column 0 (0..40), row 3 (120..160) holds it.
    info = env.step(np.array([POINTER_OPS.index("click"), 0, 3]))[4]
    assert last_actions(env)[0]["payload"] == {"x": 20, "y": 140, "width": 1280, "height": 800}
    assert info["outcomes"][0]["effect"]["windows_opened"] == [0]
    env.step(np.array([POINTER_OPS.index("wheel_down"), 10, 10]))
    assert last_actions(env)[0]["op"] == "wheel" and last_actions(env)[0]["payload"]["delta_y"] == 120


def test_pointer_box_maps_fractions_of_the_viewport():
    env = _easy(interface="pointer-box", viewport=[640, 400], pointer_ops=["click", "move"])
    env.reset(seed=0)
    env.step(np.array([0.9, 0.5, 0.25], dtype=np.float32))
    action = last_actions(env)[0]
    assert action["op"] == "move" and action["payload"] == {"x": 320, "y": 100, "width": 640, "height": 400}
    assert env.step(np.array([np.nan, 0, 0], dtype=np.float32))[4]["outcome"]["reason"] == "malformed_action"


def test_click_element_clicks_the_row_where_hit_testing_reaches_it():
    env = _easy(interface="click-element", elements=16)
    _, info = env.reset(seed=0)
    assert len(info["elements"]) < 16  # the dock, the top bar and the desktop's Home icon
    assert env.step(15)[4]["outcome"] == {"status": "refused", "reason": "empty_element"}
    row = next(i for i, e in enumerate(info["elements"]) if e["id"] == "shell:launch:files")
    info = env.step(row)[4]
    action = last_actions(env)[0]
    assert action["family"] == "pointer.v1" and action["op"] == "click"
    assert set(action["payload"]) == {"x", "y", "width", "height"}  # a point, never a target id
    assert info["outcomes"][0]["effect"]["windows_opened"] == [0]


def test_a_control_under_another_window_is_listed_but_refused_when_unreachable():
    env = _easy(interface="click-element+keys", keys=["Meta+Up"], elements=96)
    env.reset(seed=0)
    episode = env._episode
    episode.actor.step([{"family": "application.v1", "op": "launch", "machine": "workstation", "payload": {"kind": "files"}}])
    episode.actor.step([{"family": "keyboard.v1", "op": "key", "machine": "workstation", "payload": {"key": "Meta+Up"}}])
    episode.channels = episode.actor.observe()["channels"]
    episode._look()
    rows = episode.table.rows
    hidden = next((i for i, e in enumerate(rows) if e["id"] == "shell:icon:home"), None)
    assert hidden is not None, "the Home icon is still listed under the maximized window"
    assert env.step(hidden)[4]["outcome"] == {"status": "refused", "reason": "unreachable_element"}


def test_keys_and_type_token():
    env = _easy(interface="keys+type-token", keys=["Enter", "ctrl+s"], vocabulary=8)
    _, info = env.reset(seed=0)
    vocabulary = info["vocabulary"]
    assert vocabulary[0] == " " and vocabulary[1:4] == ["Open", "Files", "from"] and len(vocabulary) == 8
    assert env.action_space == gym.spaces.Discrete(2 + 8)
    env.step(1)
    assert last_actions(env)[0] == {"family": "keyboard.v1", "op": "key", "machine": "workstation", "payload": {"key": "ctrl+s"}}
    env.step(2 + 2)
    assert last_actions(env)[0]["payload"] == {"text": "Files"}
    short = _easy(interface="type-token", vocabulary=40)
    _, info = short.reset(seed=0)
    assert short.step(39)[4]["outcome"] == {"status": "refused", "reason": "not_in_vocabulary"}
    assert DEFAULT_KEYS and _easy(interface="keys").action_space == gym.spaces.Discrete(len(DEFAULT_KEYS))


def test_a_flat_combination_is_index_ranges_in_order_and_oneof_is_pairs():
    flat = _easy(interface="click-element+keys+done", keys=["Enter"], elements=8)
    assert flat.action_space == gym.spaces.Discrete(8 + 1 + 1)
    flat.reset(seed=0)
    flat.step(8)
    assert last_actions(flat)[0]["payload"] == {"key": "Enter"}
    _, reward, terminated, _, info = flat.step(9)
    assert terminated and reward == 0.0 and info["outcome"]["status"] == "done"
    oneof = _easy(interface="pointer+keys", combine="oneof", keys=["Enter"])
    assert isinstance(oneof.action_space, gym.spaces.OneOf)
    oneof.reset(seed=0)
    oneof.step((1, 0))
    assert last_actions(oneof)[0]["payload"] == {"key": "Enter"}
    assert oneof.step((7, 0))[4]["outcome"]["reason"] == "malformed_action"


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"interface": "teleport"}, "unknown action interface"),
        ({"interface": "keys", "keys": ["Hyper+q"]}, "not a key name"),
        ({"interface": "pointer-box+keys"}, "cannot join a flat combination"),
        ({"interface": "keys", "actions": ["pointer.v1"]}, "keyboard.v1"),
        ({"interface": "click-element", "observations": ["pixels.v1"], "obs": ["instruction"]}, "semantic.v1"),
        ({"interface": "pointer", "pointer_ops": ["teleport"]}, "pointer_ops"),
    ],
)
def test_an_interface_the_grant_or_the_grammar_cannot_carry_is_refused_at_construction(kwargs, match):
    with pytest.raises(ValueError, match=match):
        _easy(**kwargs)
