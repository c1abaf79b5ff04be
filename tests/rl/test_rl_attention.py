"""The element-table attention extractor: shapes, padding, empty tables, determinism, gradients."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (the train extra)")
pytest.importorskip("stable_baselines3", reason="stable-baselines3 is not installed (the train extra)")

from gymnasium import spaces  # noqa: E402

import cwgym.rl  # noqa: E402,F401
from cwgym.rl.attention import ElementAttentionExtractor, attention_policy_kwargs  # noqa: E402
from cwgym.rl.elements import LABEL_BUCKETS, bucket  # noqa: E402
from cwgym.rl.text import token_id  # noqa: E402

ENV = "cwgym/easy-new-folder-v1"
K, T = 96, 64


def _space(*optional: str) -> spaces.Dict:
    entries = {"elements": spaces.Box(0.0, 1.0, (K, 15), np.float32), "instruction_tokens": spaces.Box(0.0, 1.0, (T,), np.float32)}
    extra = {"instruction_shown": (T,), "focus_tokens": (T,), "element_values": (K, 2), "pointer_held": (1,), "caret": (10,)}
    entries.update({key: spaces.Box(0.0, 1.0, extra[key], np.float32) for key in optional})
    return spaces.Dict(entries)


def _played(steps: int = 12) -> list[dict[str, np.ndarray]]:
    """Observations of easy-new-folder under masked random play: tables of different lengths."""
    env = gym.make(ENV)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    seen = [obs]
    for _ in range(steps - 1):
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            obs, info = env.reset(seed=1)
        seen.append(obs)
    env.close()
    return seen


def _batch(observations: list[dict[str, np.ndarray]]) -> dict[str, torch.Tensor]:
    return {key: torch.as_tensor(np.stack([o[key] for o in observations])) for key in observations[0]}


def _extractor(space: spaces.Dict, seed: int = 0, **kwargs) -> ElementAttentionExtractor:
    torch.manual_seed(seed)
    return ElementAttentionExtractor(space, **kwargs)


def test_features_are_each_rows_encoding_then_a_summary():
    observations = _played()
    extractor = _extractor(gym.make(ENV).observation_space, d=16, heads=2, row_features=4)
    assert extractor.features_dim == K * 4 + 16
    features = extractor(_batch(observations))
    assert features.shape == (len(observations), K * 4 + 16)
    for i, obs in enumerate(observations):  # an empty row's block is zero, a present row's is not
        blocks = features[i, : K * 4].reshape(K, 4)
        present = obs["elements"][:, 0] > 0
        assert present.any() and not present.all()
        assert torch.all(blocks[~torch.as_tensor(present)] == 0)
        assert torch.all(blocks[torch.as_tensor(present)].abs().sum(dim=1) > 0)


def test_a_samples_features_do_not_depend_on_its_batch():
    """Rows and tokens past every sample's last one are skipped: the padding must not leak."""
    observations = _played()
    lengths = [int(o["elements"][:, 0].sum()) for o in observations]
    short, long = int(np.argmin(lengths)), int(np.argmax(lengths))
    assert lengths[short] < lengths[long]
    extractor = _extractor(gym.make(ENV).observation_space)
    alone = extractor(_batch([observations[short]]))
    together = extractor(_batch([observations[short], observations[long]]))[:1]
    assert torch.allclose(alone, together, atol=1e-5)


def test_a_large_batch_attends_in_groups_and_comes_back_in_order():
    observations = _played(40)
    assert len({int(o["elements"][:, 0].sum()) for o in observations}) > 2
    extractor = _extractor(gym.make(ENV).observation_space)
    assert len(observations) > 2 * extractor.group  # grouped by table length
    grouped = extractor(_batch(observations))
    one_by_one = torch.cat([extractor(_batch([o])) for o in observations])
    assert torch.allclose(grouped, one_by_one, atol=1e-5)


@pytest.mark.parametrize("training", [True, False])
def test_an_empty_table_and_instruction_give_no_nan(training):
    extractor = _extractor(_space("instruction_shown", "focus_tokens", "element_values"))
    extractor.train(training)
    empty = {key: torch.zeros((3, *space.shape)) for key, space in extractor._observation_space.spaces.items()}
    features = extractor(empty)
    assert features.shape == (3, extractor.features_dim) and torch.isfinite(features).all()
    assert torch.all(features[:, : K * 8] == 0)  # no row, no row encoding
    if training:
        features.sum().backward()
        assert all(torch.isfinite(p.grad).all() for p in extractor.parameters() if p.grad is not None)


def test_the_same_seed_builds_the_same_extractor_and_features():
    batch = _batch(_played(6))
    space = gym.make(ENV).observation_space
    first, second, other = _extractor(space, 3), _extractor(space, 3), _extractor(space, 4)
    assert all(torch.equal(a, b) for a, b in zip(first.state_dict().values(), second.state_dict().values()))
    assert torch.equal(first(batch), second(batch))
    assert not torch.equal(first(batch), other(batch))


def test_gradients_reach_every_parameter():
    observations = _played(8)
    batch = _batch(observations)
    batch["elements"][:, 0, 13] = bucket("Garden") / LABEL_BUCKETS  # a field with a value
    rows = batch["elements"][:, :, 0] > 0
    batch["element_values"] = torch.stack([rows.float(), torch.zeros_like(rows, dtype=torch.float32)], dim=-1)
    batch["instruction_shown"] = (batch["instruction_tokens"] > 0).float() * torch.tensor([1.0, 0.0] * (T // 2))
    batch["focus_tokens"] = batch["instruction_tokens"].roll(1, dims=1)
    extractor = _extractor(_space("instruction_shown", "focus_tokens", "element_values"))
    (extractor(batch) ** 2).sum().backward()
    for name, parameter in extractor.named_parameters():
        assert parameter.grad is not None and parameter.grad.abs().sum() > 0, name


def test_ids_are_read_back_from_the_scaled_columns():
    """The row's label embedding is its bucket's and an instruction word's its token id's."""
    obs = _played(1)[0]
    env = gym.make(ENV)
    _, info = env.reset(seed=0)
    row = next(i for i, r in enumerate(info["elements"]) if r.get("label") == "Files")
    assert round(float(obs["elements"][row, 2]) * LABEL_BUCKETS) == bucket("Files")
    extractor = _extractor(env.observation_space, d=16, row_features=4)
    batch = _batch([obs])
    before = extractor(batch).detach()
    with torch.no_grad():
        extractor.label.weight[bucket("Files") + 1] += 1.0  # a neighbouring id: nothing changes
    assert torch.equal(extractor(batch), before)
    with torch.no_grad():
        extractor.label.weight[bucket("Files")] += 1.0
    after = extractor(batch).detach()
    assert (after - before)[0, : K * 4].reshape(K, 4)[row].abs().sum() > 0
    instruction = {round(float(v) * 4095) for v in obs["instruction_tokens"]}
    assert token_id("dock", 4096) in instruction and token_id("trash", 4096) not in instruction
    with torch.no_grad():
        extractor.token.weight[token_id("trash", 4096)] += 1.0  # not a word of the instruction
    assert torch.equal(extractor(batch), after)
    with torch.no_grad():
        extractor.token.weight[token_id("dock", 4096)] += 1.0  # a word of the instruction
    assert not torch.allclose(extractor(batch), after)


def test_optional_keys_are_used():
    batch = _batch(_played(2))
    extractor = _extractor(_space("instruction_shown", "focus_tokens", "element_values", "pointer_held", "caret"))
    base = {**batch, "instruction_shown": torch.zeros(2, T), "focus_tokens": torch.zeros(2, T), "element_values": torch.zeros(2, K, 2),
            "pointer_held": torch.zeros(2, 1), "caret": torch.zeros(2, 10)}
    reference = extractor(base)
    for key, value in (("instruction_shown", torch.ones(2, T)), ("focus_tokens", batch["instruction_tokens"]),
                       ("element_values", torch.ones(2, K, 2)), ("pointer_held", torch.ones(2, 1)),
                       ("caret", torch.ones(2, 10))):
        assert not torch.allclose(extractor({**base, key: value}), reference), key


def test_grid_maps_put_each_row_where_its_centre_is():
    """With a pointer grid the features end in a map per axis: a row's scores land in the
    column and grid row its centre falls in, and nowhere else."""
    batch = _batch(_played(2))
    extractor = _extractor(_space(), d=16, heads=2, row_features=4, grid=(16, 20), grid_channels=3)
    assert extractor.features_dim == K * 4 + 16 + 3 * (16 + 20)
    features = extractor(batch)
    columns = features[:, K * 4 + 16 :][:, : 3 * 16].reshape(2, 3, 16)
    rows = features[:, K * 4 + 16 :][:, 3 * 16 :].reshape(2, 3, 20)
    table = batch["elements"][0]
    present = table[:, 0] > 0.5
    occupied = set(torch.clamp((table[present, 7] * 16).long(), 0, 15).tolist())
    assert {c for c in range(16) if columns[0, :, c].abs().sum() > 0} <= occupied
    assert columns[0].abs().sum() > 0 and rows[0].abs().sum() > 0
    moved = {k: v.clone() for k, v in batch.items()}
    first = int(torch.nonzero(present)[0])
    moved["elements"][0, first, 7] = 0.99  # move one control to the last column (its bounds as they were)
    after = extractor(moved)[:, K * 4 + 16 :][:, : 3 * 16].reshape(2, 3, 16)
    assert not torch.allclose(after[0, :, 15], columns[0, :, 15])
    with pytest.raises(ValueError, match="grid"):
        ElementAttentionExtractor(_space(), grid=(16,))


def test_bad_spaces_are_named():
    with pytest.raises(ValueError, match="instruction_tokens"):
        ElementAttentionExtractor(spaces.Dict({"elements": spaces.Box(0.0, 1.0, (K, 15), np.float32)}))
    with pytest.raises(ValueError, match="15 columns"):
        ElementAttentionExtractor(spaces.Dict({"elements": spaces.Box(0.0, 1.0, (K, 14), np.float32),
                                               "instruction_tokens": spaces.Box(0.0, 1.0, (T,), np.float32)}))
    with pytest.raises(ValueError, match="multiple of heads"):
        ElementAttentionExtractor(_space(), d=30, heads=4)
    with pytest.raises(ValueError, match="element_values"):
        ElementAttentionExtractor(spaces.Dict({**_space().spaces, "element_values": spaces.Box(0.0, 1.0, (K, 3), np.float32)}))


def test_the_policy_kwargs_train_a_maskable_policy():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    env = gym.make("cwgym/easy-open-app-v1")
    model = sb3_contrib.MaskablePPO("MultiInputPolicy", env, policy_kwargs=attention_policy_kwargs(), n_steps=16, batch_size=8,
                                    n_epochs=1, seed=0, device="cpu")
    assert isinstance(model.policy.features_extractor, ElementAttentionExtractor)
    assert model.policy.action_net.in_features == K * 8 + 32  # the logits straight from the row encodings
    model.learn(16)
    obs, info = env.reset(seed=5)
    action, _ = model.predict(obs, deterministic=True, action_masks=info["action_mask"])
    assert info["action_mask"][int(action)]
