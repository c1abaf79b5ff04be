"""Action masks (cwgym.rl.masks): what they hide is exactly what the env would refuse or
what cannot reach a control, they are batched by every vector env, and sb3-contrib reads
them. (That they never hide the expert's next action is checked with every expert
episode in test_rl_experts.py.)"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from rl_kit import IDS, mask_allows, same, short

from cwgym.rl.actions import ClickElementCodec, FlatCodec, TypeTokenCodec
from cwgym.rl.expert import expert_rollout

#: refusals a mask exists to prevent: an action the mask lets through must never get one
MASKED_REFUSALS = {"empty_element", "unreachable_element", "not_in_vocabulary"}
DISCRETE = [i for i in IDS if isinstance(gym.spec(i).kwargs.get("interface"), str) and gym.spec(i).kwargs["interface"] not in ("envelopes", "screen")]


def _sample(space: gym.spaces.Space, mask: np.ndarray, rng: np.random.Generator):
    """A uniformly random action among those the mask allows."""
    if isinstance(space, gym.spaces.Discrete):
        return int(rng.choice(np.flatnonzero(mask)))
    out, at = [], 0
    for n in space.nvec:
        out.append(int(rng.choice(np.flatnonzero(mask[at : at + n]))))
        at += n
    return np.array(out, dtype=space.dtype)


def _parts(env):
    codec = env.unwrapped.action_codec
    return list(zip(codec.parts, codec.offsets)) if isinstance(codec, FlatCodec) else [(codec, 0)]


@pytest.mark.parametrize("env_id", DISCRETE, ids=short)
def test_masked_random_play_is_never_refused_for_what_the_mask_hides(env_id):
    env = gym.make(env_id)
    rng = np.random.default_rng(7)
    _, info = env.reset(seed=1_000_005)
    for _ in range(25):
        mask = info["action_mask"]
        assert mask.dtype == np.bool_ and mask.any()
        assert same(mask, env.unwrapped.action_masks())
        action = _sample(env.action_space, mask, rng)
        assert mask_allows(mask, env.action_space, action)
        _, _, terminated, truncated, info = env.step(action)
        assert info["outcome"].get("reason") not in MASKED_REFUSALS, info["outcome"]
        if terminated or truncated:
            _, info = env.reset()


def test_typing_is_masked_until_a_text_field_has_the_focus():
    env = gym.make("cwgym/easy-new-folder-v1")
    (typing, offset), = [(p, o) for p, o in _parts(env) if isinstance(p, TypeTokenCodec)]
    transitions = expert_rollout(env, 3)  # open Files, New Folder, type the name, Enter
    _, first = env.reset(seed=3)
    masks = [first["action_mask"], *(t.info["action_mask"] for t in transitions)]
    typing_allowed = [bool(m[offset : offset + typing.size].any()) for m in masks]
    assert typing_allowed[:2] == [False, False]  # the desktop, then Files with the list focused
    assert typing_allowed[2]  # the new folder's name field has the focus
    vocabulary = transitions[1].info["vocabulary"]
    slots = masks[2][offset : offset + typing.size]
    assert list(slots) == [i < len(vocabulary) and bool(vocabulary[i]) for i in range(typing.size)]


def test_a_control_under_a_window_is_masked_and_clicking_it_is_refused():
    env = gym.make("cwgym/easy-open-app-v1")
    seed = 59  # the Terminal opens over the Text Editor's toolbar
    (rows, offset), = [(p, o) for p, o in _parts(env) if isinstance(p, ClickElementCodec)]
    transitions = expert_rollout(env, seed)
    env.reset(seed=seed)
    _, _, _, _, info = env.step(transitions[0].action)  # Terminal opens over the Text Editor
    elements, mask = info["elements"], info["action_mask"][offset : offset + rows.size]
    masked = [e["id"] for k, e in enumerate(elements) if not mask[k]]
    assert masked and all(m.startswith("window:0:content:") for m in masked)  # the editor's toolbar, under window 1
    assert "window:0:content:editor-text:0" not in masked  # partly covered, still reachable
    assert not mask[len(elements) :].any()  # empty rows
    env.reset(seed=seed)
    env.step(transitions[0].action)
    hidden = next(k for k, e in enumerate(elements) if e["id"] == "window:0:content:find")
    _, _, _, _, after = env.step(offset + hidden)
    assert after["outcome"] == {"status": "refused", "reason": "unreachable_element"}


def test_every_vector_env_batches_the_same_masks_as_single_envs():
    env_id, seeds = "cwgym/easy-restore-trash-v1", 100
    rng = np.random.default_rng(3)
    actions = [rng.integers(0, 98, size=3) for _ in range(12)]
    runs = {}
    for name, make in {
        "sync": lambda: gym.make_vec(env_id, num_envs=3, vectorization_mode="sync"),
        "cwgym": lambda: gym.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point"),
        "shared-memory": lambda: gym.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point", workers=2),
    }.items():
        venv = make()
        _, info = venv.reset(seed=seeds)
        masks = [info["action_mask"]]
        for action in actions:
            *_, info = venv.step(action)
            masks.append(info["action_mask"])
        if name != "sync":
            assert same(venv.action_masks(), masks[-1])
        venv.close()
        runs[name] = masks
    assert same(runs["cwgym"], runs["sync"]) and same(runs["shared-memory"], runs["sync"])


def test_sb3_contrib_reads_the_masks_through_sb3vecenv():
    utils = pytest.importorskip("sb3_contrib.common.maskable.utils")
    from cwgym.rl.sb3 import Sb3VecEnv

    for mode in ("vector_entry_point", "sync"):
        venv = Sb3VecEnv(gym.make_vec("cwgym/easy-open-app-v1", num_envs=2, vectorization_mode=mode))
        venv.seed(5)
        venv.reset()
        assert utils.is_masking_supported(venv)
        masks = utils.get_action_masks(venv)
        assert masks.shape == (2, venv.action_space.n) and masks.dtype == np.bool_
        assert same(masks[0], venv.reset_infos[0]["action_mask"])
        venv.close()


def test_the_mask_is_refused_where_there_is_none():
    env = gym.make("cwgym/easy-open-app-v1")
    with pytest.raises(gym.error.ResetNeeded):
        env.unwrapped.action_masks()
    text = gym.make("cwgym/easy-open-app-v1", interface="envelopes", preset="llm", obs=["instruction"])
    _, info = text.reset(seed=0)
    assert "action_mask" not in info
    with pytest.raises(ValueError, match="no action mask"):
        text.unwrapped.action_masks()
    venv = gym.make_vec("cwgym/easy-open-app-v1", num_envs=2, vectorization_mode="vector_entry_point")
    with pytest.raises(ValueError, match="reset the env first"):
        venv.action_masks()


@pytest.mark.parametrize("viewport", [None, [84, 84]], ids=["native", "scaled"])
def test_the_masks_reachability_answers_as_reachable_point_on_played_screens(viewport):
    # Scene.reaching answers for all controls at once, skipping the hit tests of nodes under a
    # window's background; on real screens (windows over windows, rows over lists; scaled
    # nodes at a small viewport) its answers are those of asking reachable_point node by node
    extra = {} if viewport is None else {"viewport": viewport, "obs": ["pixels", "instruction"]}
    env = gym.make("cwgym/easy-rename-file-v1", **extra)
    rng = np.random.default_rng(3)
    _, info = env.reset(seed=1_000_011)
    episode = env.unwrapped._episode
    covered = 0
    for _ in range(60):
        scene = episode.world.scene(episode.actor.id, episode.config.width, episode.config.height)
        wanted = {n.interaction for n in scene.painted() if n.interaction is not None}
        expected: dict[str, bool] = {}
        for n in scene.painted():
            if n.interaction is not None:
                expected[n.interaction] = expected.get(n.interaction, False) or scene.reachable_point(n.id) is not None
        on_screen = {k: v for k, v in scene.reaching(wanted).items()}
        assert {k: v for k, v in expected.items() if k in on_screen} == on_screen
        assert not any(v for k, v in expected.items() if k not in on_screen)  # absent: nothing of it on screen
        covered += sum(not v for v in on_screen.values())
        _, _, terminated, truncated, info = env.step(_sample(env.action_space, info["action_mask"], rng))
        if terminated or truncated:
            _, info = env.reset()
    assert covered > 20  # windows covered controls often enough to test the shortcut
