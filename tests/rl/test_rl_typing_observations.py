"""The typing observation keys (``instruction_shown``, ``focus_tokens``, ``element_values``)
tell the step before typing a name from the step after it, where the element table differs
only in a hashed value; and an agent that gets only ``info["elements"]`` and the
instruction rebuilds them, and ``elements`` and ``instruction_tokens``, exactly as the env
observes them (:mod:`cwgym.rl.derived`)."""

from __future__ import annotations

from types import SimpleNamespace

import gymnasium as gym
import numpy as np
import pytest

import cwgym.rl  # noqa: F401  (registers the envs)
from cwgym.rl.config import task_config
from cwgym.rl.derived import DERIVABLE, DerivedObservation, RowsView, derived_observation
from cwgym.rl.elements import FEATURES, ElementTable
from cwgym.rl.expert import expert_rollout
from cwgym.rl.observation_keys import OBSERVATION_KEYS
from cwgym.rl.text import scaled_token_ids, tokens

OBS = ["elements", "instruction", "instruction_shown", "focus_tokens", "element_values"]
NEW = ("instruction_shown", "focus_tokens", "element_values")


class Recorder(gym.Wrapper):
    """Keeps every ``(observation, info)`` the env returns, from resets and steps."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.seen: list[tuple[dict, dict]] = []

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        self.seen.append((obs, info))
        return obs, info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.seen.append((obs, info))
        return obs, reward, terminated, truncated, info


def _focused(rows: list[dict]) -> int | None:
    return next((k for k, row in enumerate(rows) if row.get("focused")), None)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_typing_the_folder_name_changes_the_new_keys_and_shows_the_name(seed):
    env = gym.make("cwgym/easy-new-folder-v1", obs=OBS)
    assert set(NEW) <= set(env.observation_space.spaces)
    transitions = expert_rollout(env, seed)
    episode = env.unwrapped.episode
    name = episode.instance.params["name"]
    # the transition whose action typed the name: after it, the focused field holds it
    typed = next(i for i, t in enumerate(transitions) if any(r.get("focused") and r.get("value") == name for r in t.info["elements"]))
    before_typing = transitions[typed].observation
    before_enter = transitions[typed + 1].observation
    assert typed + 2 == len(transitions) and transitions[-1].terminated  # Enter is the last step, and it ends the task
    for key in NEW:
        assert not np.array_equal(before_typing[key], before_enter[key]), key

    at = tokens(episode.instance.instruction).index(name.lower())
    assert before_typing["instruction_shown"][at] == 0.0
    assert before_enter["instruction_shown"][at] == 1.0
    # the focused field's text in the instruction's id space: the name's id, then padding
    assert before_enter["focus_tokens"][0] == before_enter["instruction_tokens"][at]
    assert not before_enter["focus_tokens"][1:].any()
    row = _focused(transitions[typed].info["elements"])
    assert before_typing["element_values"][row].tolist() == [1.0, 0.0]  # "Untitled Folder": not asked for
    assert before_enter["element_values"][row].tolist() == [1.0, 1.0]


INSTRUCTION = "Make a new folder named Garden."  # make a new folder named garden .


def _row(ident: str, role: str, label: str, value: str | None = None, focused: bool = False) -> dict:
    row = {"id": ident, "role": role, "label": label, "bounds": {"x": 0, "y": 0, "width": 10, "height": 10},
           "enabled": True, "focused": focused}
    if value is not None:
        row["value"] = value
    return row


ROWS = [
    _row("shell:new", "button", "New Folder"),
    _row("files:name", "textbox", "Folder Name", "Garden", focused=True),
    _row("files:row", "row", "Music/", "folder", focused=True),  # focused too, but not the first
    _row("files:search", "searchbox", "Search", "zebra stripes"),
    _row("files:blank", "textbox", "Note", "   "),
]


def _encode(name: str, rows: list[dict], instruction: str = INSTRUCTION, out: np.ndarray | None = None, **config):
    c = task_config({"procedure": "easy-new-folder", "tokens": 10, "elements": 6, **config})
    key = OBSERVATION_KEYS[name](c)
    episode = SimpleNamespace(instance=SimpleNamespace(instruction=instruction), table=ElementTable(np.zeros((6, len(FEATURES))), rows))
    value = key.encode(episode, out)
    assert value in key.space
    return value


def test_instruction_shown_marks_the_instruction_words_a_label_or_value_shows():
    # make, a, named, "." are on no row; new and folder are a label's, garden a value's
    assert _encode("instruction_shown", ROWS).tolist() == [0, 0, 1, 1, 0, 1, 0, 0, 0, 0]
    assert _encode("instruction_shown", ROWS[:1]).tolist() == [0, 0, 1, 1, 0, 0, 0, 0, 0, 0]
    assert _encode("instruction_shown", []).tolist() == [0] * 10
    assert _encode("instruction_shown", ROWS, tokens=4).tolist() == [0, 0, 1, 1]  # the instruction's first tokens
    out = np.full(10, 0.5, dtype=np.float32)
    assert _encode("instruction_shown", ROWS, out=out) is out and out.tolist() == [0, 0, 1, 1, 0, 1, 0, 0, 0, 0]


def test_focus_tokens_is_the_first_focused_rows_value_in_the_instruction_id_space():
    garden = scaled_token_ids("Garden", 10, 4096)
    assert np.array_equal(_encode("focus_tokens", ROWS), garden)
    assert garden[0] > 0 and not garden[1:].any()
    assert _encode("focus_tokens", ROWS)[0] == _encode("instruction_tokens", ROWS)[5]  # the same id as the word asked for
    assert np.array_equal(_encode("focus_tokens", ROWS[2:]), scaled_token_ids("folder", 10, 4096))
    assert not _encode("focus_tokens", [ROWS[0], _row("x", "list", "Files", focused=True), ROWS[1]]).any()  # no value
    assert not _encode("focus_tokens", [ROWS[0], ROWS[3]]).any()  # nothing focused
    out = np.ones(10, dtype=np.float32)
    assert _encode("focus_tokens", ROWS, out=out) is out and np.array_equal(out, garden)
    typed = _encode("focus_tokens", [_row("t", "textbox", "Name", "new Garden folder", focused=True)])
    assert np.array_equal(typed, scaled_token_ids("new Garden folder", 10, 4096)) and np.count_nonzero(typed) == 3


def test_element_values_marks_rows_with_a_value_and_values_the_instruction_spells():
    assert _encode("element_values", ROWS).tolist() == [
        [0, 0],  # no value
        [1, 1],  # Garden
        [1, 1],  # folder
        [1, 0],  # zebra stripes: not the instruction's words
        [1, 0],  # spaces: a value without words
        [0, 0],  # padding
    ]
    assert not _encode("element_values", []).any()
    assert _encode("element_values", ROWS, instruction="Open Music")[1:3].tolist() == [[1, 0], [1, 0]]
    out = np.ones((6, 2), dtype=np.float32)
    assert _encode("element_values", ROWS, out=out) is out and out[5].tolist() == [0, 0]


@pytest.mark.parametrize("env_id", ["cwgym/easy-new-folder-v1", "cwgym/easy-rename-file-v1"])
def test_derived_observation_rebuilds_the_envs_entries_from_info_and_the_instruction(env_id):
    env = Recorder(gym.make(env_id, obs=OBS))
    config = env.unwrapped.config
    derive = DerivedObservation(DERIVABLE, config)
    assert set(DERIVABLE) <= set(env.observation_space.spaces)  # instruction became instruction_tokens
    for seed in (0, 1):
        env.seen.clear()
        transitions = expert_rollout(env, seed)
        assert len(env.seen) == len(transitions) + 1 > 3
        screen = env.unwrapped.episode.semantic_view()["screen"]
        instruction = env.seen[0][1]["instruction"]  # the agent's copy, from the reset's info
        for step, (obs, info) in enumerate(env.seen):
            derived = derive(instruction, info["elements"], screen=(screen["width"], screen["height"]))
            assert list(derived) == list(DERIVABLE)
            for key in DERIVABLE:
                assert derived[key].dtype == obs[key].dtype and np.array_equal(derived[key], obs[key]), (seed, step, key)
        last = env.seen[-1]
        assert np.array_equal(derived_observation(NEW, config, instruction, last[1]["elements"])["element_values"],
                              last[0]["element_values"])


def test_underivable_keys_and_bad_input_are_refused_naming_them():
    config = task_config({"procedure": "easy-new-folder", "elements": 6})
    for name in ("pixels", "instruction", "a11y", "terminal_tokens", "smell"):
        with pytest.raises(ValueError, match=rf"observation key '{name}' cannot be derived .*derivable: instruction_shown, "):
            derived_observation(["focus_tokens", name], config, INSTRUCTION, ROWS)
    with pytest.raises(ValueError, match=r"'elements' needs screen=\(width, height\)"):
        derived_observation(["elements"], config, INSTRUCTION, ROWS)
    with pytest.raises(ValueError, match=r"rows\[1\] has no 'bounds' dict"):
        derived_observation(["elements"], config, INSTRUCTION, [ROWS[0], {"id": "x", "label": "X"}], screen=(1280, 800))
    with pytest.raises(ValueError, match=r"screen must be \(width, height\)"):
        derived_observation(["elements"], config, INSTRUCTION, ROWS, screen=(1280, 0))
    with pytest.raises(ValueError, match=r"rows\[2\] must be an element dict, got str"):
        derived_observation(["focus_tokens"], config, INSTRUCTION, [*ROWS[:2], "row"])
    with pytest.raises(ValueError, match=r"rows must be a list of element dicts .*got dict"):
        derived_observation(["focus_tokens"], config, INSTRUCTION, ROWS[0])
    with pytest.raises(ValueError, match=r"got 7 rows, more than the configuration's elements \(6\)"):
        derived_observation(["focus_tokens"], config, INSTRUCTION, ROWS + ROWS[:2])
    with pytest.raises(ValueError, match="instruction must be a string, got NoneType"):
        derived_observation(["focus_tokens"], config, None, ROWS)


def test_a_rows_view_is_all_the_derivable_keys_read():
    view = RowsView(INSTRUCTION, ElementTable(np.zeros((0, len(FEATURES)), dtype=np.float32), ROWS))
    config = task_config({"procedure": "easy-new-folder", "tokens": 10, "elements": 6})
    for name in NEW:
        assert np.array_equal(OBSERVATION_KEYS[name](config).encode(view, None), _encode(name, ROWS)), name


def test_pointer_held_tells_the_press_of_a_drag_from_the_moment_before_it():
    env = gym.make("cwgym/easy-drag-window-v1", obs=["elements", "instruction", "pointer_held"])
    ops = env.unwrapped.config.pointer_ops  # down, move, up
    transitions = expert_rollout(env, 0)  # press on the title bar, move it into the right half
    assert [ops[t.action[0]] for t in transitions] == ["down", "move"]
    assert [float(t.observation["pointer_held"][0]) for t in transitions] == [0.0, 1.0]
    before, after = (t.observation for t in transitions)
    assert np.array_equal(before["elements"], after["elements"])  # the press alone shows nothing
    obs, _ = env.reset(seed=0)
    assert obs["pointer_held"][0] == 0.0
    press, release = transitions[0].action, np.array([ops.index("up"), *transitions[0].action[1:]])
    env.step(press)
    obs, *_ = env.step(press)  # pressed twice: still held
    assert obs["pointer_held"][0] == 1.0
    obs, *_ = env.step(release)
    assert obs["pointer_held"][0] == 0.0
