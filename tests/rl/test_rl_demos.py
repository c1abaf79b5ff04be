"""``cwgym dataset`` output replayed as transitions for behaviour cloning (``cwgym.rl.demos``)."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

from cwgym.procedures.dataset import Options, generate
from cwgym.rl.demos import load_transitions
from cwgym.rl.imitation import expert_transitions

FOLDER = "cwgym/easy-new-folder-v1"  # four steps: Files, New Folder, type the name, Enter
APP = "cwgym/easy-open-app-v1"  # one click on the launcher the instruction names


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    """Five seeds of each procedure, each seed followed by its negatives."""
    out = tmp_path_factory.mktemp("dataset")
    result = generate(out, Options(procedures=["easy-new-folder", "easy-open-app"], episodes=5, negatives=1))
    assert not result.problems
    return out


def lines(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "episodes.jsonl").read_text().splitlines()]


def line_number(source: str) -> int:
    return int(source.rsplit(":", 1)[1])


def test_the_envs_demonstrations_are_loaded_and_the_negatives_skipped(dataset):
    records = lines(dataset)
    negatives = [n for n, r in enumerate(records, 1) if r["kind"] == "negative" and r["procedure"] == "easy-new-folder"]
    assert len(negatives) == 5
    demos = load_transitions(dataset, FOLDER)
    used = [line_number(s) for s in demos.sources]
    assert used == [n for n, r in enumerate(records, 1) if r["kind"] == "demonstration" and r["procedure"] == "easy-new-folder"]
    assert not set(used) & set(negatives)
    assert all(s.startswith(str(dataset / "episodes.jsonl")) for s in demos.sources)
    assert [records[n - 1]["seed"] for n in used] == [0, 1, 2, 3, 4]
    assert demos.actions.shape == (20,) and demos.observations["elements"].shape == (20, 96, 15)
    assert demos.observations["instruction_tokens"].shape == (20, 64)
    ends = np.zeros(20, dtype=bool)
    ends[3::4] = True
    assert np.array_equal(demos.dones, ends) and np.array_equal(demos.episode_starts, np.roll(ends, 1))
    assert demos.rewards.dtype == np.float32 and np.array_equal(demos.rewards, ends.astype(np.float32))  # sparse: 1 at the end

    apps = load_transitions(dataset / "episodes.jsonl", APP)  # the file itself works as well as its folder
    assert apps.actions.shape == (5,) and apps.dones.all() and apps.episode_starts.all()
    assert {records[line_number(s) - 1]["procedure"] for s in apps.sources} == {"easy-open-app"}


def test_episodes_takes_the_first_ones_in_file_order(dataset):
    every = load_transitions(dataset, FOLDER)
    two = load_transitions(dataset, FOLDER, episodes=2)
    assert two.sources == every.sources[:2]
    assert np.array_equal(two.actions, every.actions[:8]) and np.array_equal(two.dones, every.dones[:8])
    for bad in (0, -1, True, 1.5):
        with pytest.raises(ValueError, match="episodes must be a positive int"):
            load_transitions(dataset, FOLDER, episodes=bad)


@pytest.mark.parametrize("env_id", [FOLDER, APP])
def test_the_transitions_are_the_experts_for_the_same_seeds(dataset, env_id):
    demos = load_transitions(dataset, env_id)
    observations, actions = expert_transitions(env_id, range(5))
    assert np.array_equal(demos.actions, actions)
    assert observations.keys() == demos.observations.keys()
    assert all(np.array_equal(observations[key], demos.observations[key]) for key in observations)


def test_overrides_reach_the_env(dataset):
    demos = load_transitions(dataset, FOLDER, episodes=1, interface="screen", preset="text")
    sent = [json.loads(a) for a in demos.actions]
    assert [a["family"] for a in sent] == ["pointer.v1", "pointer.v1", "keyboard.v1", "keyboard.v1"]
    assert np.array_equal(demos.actions, expert_transitions(FOLDER, range(1), interface="screen", preset="text")[1])


def test_cloning_fits_the_loaded_actions(dataset):
    pytest.importorskip("stable_baselines3")
    import torch
    from stable_baselines3 import PPO

    from cwgym.rl.imitation import clone

    torch.set_num_threads(1)
    apps = load_transitions(dataset, APP)
    model = PPO("MultiInputPolicy", gym.make(APP), n_steps=64, batch_size=32, learning_rate=1e-2, seed=0, device="cpu",
                policy_kwargs={"net_arch": [64, 64]})
    before = clone(model, apps.observations, apps.actions, epochs=0)
    after = clone(model, apps.observations, apps.actions, epochs=100, batch_size=8)
    assert before["accuracy"] <= 0.4 and after["accuracy"] == 1.0  # the launcher the instruction names, of 96 rows

    folders = load_transitions(dataset, FOLDER)
    model = PPO("MultiInputPolicy", gym.make(FOLDER), n_steps=64, batch_size=32, learning_rate=3e-3, seed=0, device="cpu",
                policy_kwargs={"net_arch": [64, 64]})
    fitted = clone(model, folders.observations, folders.actions, epochs=50, batch_size=8)
    # the screens before typing the name and before Enter differ in one cell (the text box's
    # hashed value), which this small policy does not separate at this budget
    assert fitted["transitions"] == 20 and fitted["accuracy"] >= 0.75


def test_a_human_recording_is_a_demonstration(dataset, tmp_path):
    from cwgym.cli.play import Player
    from cwgym.rl.expert import expert_demonstration

    player = Player(FOLDER, seed=3)
    for step in expert_demonstration(gym.make(FOLDER, interface="screen", preset="text"), 3).steps:
        player.send([step.action])
    record = player.record()
    assert record["kind"] == "human" and record["verdict"]["passed"]
    (tmp_path / "episodes.jsonl").write_text(json.dumps(record) + "\n")
    demos = load_transitions(tmp_path, FOLDER, interface="screen", preset="text")
    assert demos.sources == [f"{tmp_path / 'episodes.jsonl'}:1"]
    assert np.array_equal(demos.actions, expert_transitions(FOLDER, range(3, 4), interface="screen", preset="text")[1])
    # a person's click names a point, not a control: the element rows cannot express it
    with pytest.raises(ValueError, match=r"episodes\.jsonl:1: .*cannot be expressed in interface"):
        load_transitions(tmp_path, FOLDER)


# -- errors ------------------------------------------------------------------------------------


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"empty[/\\]episodes\.jsonl: no such file"):
        (tmp_path / "empty").mkdir()
        load_transitions(tmp_path / "empty", FOLDER)
    with pytest.raises(FileNotFoundError, match=r"nothing\.jsonl: no such file"):
        load_transitions(tmp_path / "nothing.jsonl", FOLDER)


def test_malformed_lines_are_named(dataset, tmp_path):
    text = (dataset / "episodes.jsonl").read_text().splitlines()
    cases = {
        "{not json": r"episodes\.jsonl:3: not a JSON line",
        "[1, 2]": r"episodes\.jsonl:3: an episode is a JSON object, got list",
        '{"procedure": "easy-new-folder", "seed": 9}': r"episodes\.jsonl:3: the episode has no kind, mode, viewport, steps, verdict",
    }
    for broken, message in cases.items():
        (tmp_path / "episodes.jsonl").write_text("\n".join([*text[:2], broken, *text[3:]]) + "\n")
        with pytest.raises(ValueError, match=message):
            load_transitions(tmp_path, FOLDER)
    bad_step = json.loads(text[0])
    bad_step["steps"][1] = {"action": "click"}
    (tmp_path / "episodes.jsonl").write_text(json.dumps(bad_step) + "\n")
    with pytest.raises(ValueError, match=r"episodes\.jsonl:1: episode easy-new-folder-s0: step 1 is not a step"):
        load_transitions(tmp_path, FOLDER)


def test_a_dataset_without_the_procedure_names_what_it_has(dataset):
    with pytest.raises(ValueError, match=r"no verified demonstration of procedure 'easy-close-window'; "
                                         r"demonstrations it has: easy-new-folder \(5\), easy-open-app \(5\)"):
        load_transitions(dataset, "cwgym/easy-close-window-v1")


def test_another_viewport_or_mode_does_not_fit(tmp_path):
    generate(tmp_path / "small", Options(procedures=["easy-open-app"], episodes=1, width=1024, height=768))
    with pytest.raises(ValueError, match=r"small[/\\]episodes\.jsonl:1: episode easy-open-app-s0 was recorded at "
                                         r"viewport 1024x768, but cwgym/easy-open-app-v1 sees 1280x800"):
        load_transitions(tmp_path / "small", APP)
    assert load_transitions(tmp_path / "small", APP, viewport=[1024, 768]).actions.shape == (1,)

    generate(tmp_path / "tool", Options(procedures=["easy-new-folder"], episodes=1, mode="tool"))
    with pytest.raises(ValueError, match=r"tool[/\\]episodes\.jsonl:1: episode easy-new-folder-s0 was performed in mode "
                                         r"'tool', but .* takes gui actions \(make the dataset with --mode gui\)"):
        load_transitions(tmp_path / "tool", FOLDER)


def test_another_world_seed_does_not_fit(dataset):
    with pytest.raises(ValueError, match=r"episodes\.jsonl:1: episode easy-new-folder-s0 ran in world "
                                         r"'ubuntu-workstation' seed 0, but .* seed 1"):
        load_transitions(dataset, FOLDER, world_seed=1)


def test_a_step_the_interface_cannot_express_is_named(dataset):
    with pytest.raises(ValueError, match=r"episodes\.jsonl:1: episode easy-new-folder-s0: step 2 .*keyboard\.v1 type.* "
                                         r"cannot be expressed in interface 'click-element'"):
        load_transitions(dataset, FOLDER, interface="click-element")


def test_a_replay_that_does_not_pass_is_named(dataset, tmp_path):
    records = lines(dataset)
    cut = records[2]  # easy-new-folder-s1, without its Enter
    cut["steps"] = cut["steps"][:-1]
    (tmp_path / "episodes.jsonl").write_text("\n".join(json.dumps(r) for r in [records[0], records[1], cut]) + "\n")
    with pytest.raises(ValueError, match=r"episodes\.jsonl:3: episode easy-new-folder-s1: the replay through "
                                         r"'click-element\+keys\+type-token' does not pass the verifier after 3 actions"):
        load_transitions(tmp_path, FOLDER)
    other = records[0]
    other["instruction"] = "Make a folder named Elsewhere."
    (tmp_path / "episodes.jsonl").write_text(json.dumps(other) + "\n")
    with pytest.raises(ValueError, match=r"episodes\.jsonl:1: .*seed 0 stages another instance in the env"):
        load_transitions(tmp_path, FOLDER)
