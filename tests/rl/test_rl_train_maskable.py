"""`cwgym train --algo maskable-ppo`: the attention policy, --obs, masks in validation and
evaluation, cloning, the refusals, and the trained model as a leaderboard agent."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces

pytest.importorskip("stable_baselines3", reason="stable-baselines3 is not installed (the train extra)")
sb3_contrib = pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed")

from cwgym.cli import train as train_cli  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ENV = "cwgym/easy-open-app-v1"


def _args(*argv: str, **kw) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    train_cli.add_parser(parser.add_subparsers())
    options = [x for k, v in kw.items() for x in (f"--{k.replace('_', '-')}", str(v))]
    return parser.parse_args(["train", *options, *argv, "--quiet"])


def _maskable(out: Path, *argv: str, **kw) -> dict:
    args = _args("--policy", "attention", *argv, algo="maskable-ppo", env=ENV, n_envs=2, seed=0, out=out, **kw)
    assert train_cli.run(args) == 0
    return json.loads((out / "train.json").read_text())


def test_smoke_maskable_ppo_with_attention(tmp_path):
    started = time.perf_counter()
    out = tmp_path / "run"
    report = _maskable(out, "--obs", "elements", "instruction", steps=512, val_episodes=3, val_every=256, eval_episodes=3)
    assert time.perf_counter() - started < 120  # seconds on an idle core; generous for a shared machine
    assert report["algo"] == "maskable-ppo" and report["policy"] == "MultiInputPolicy" and report["network"] == "attention"
    assert report["obs"] == ["elements", "instruction"]
    kwargs = report["policy_kwargs"]
    assert kwargs["features_extractor_class"] == "cwgym.rl.attention.ElementAttentionExtractor"
    assert kwargs["features_extractor_kwargs"] == {"d": 32, "heads": 2, "row_features": 8, "token_vocab": 4096}
    assert report["test"]["episodes"] == report["test_best"]["episodes"] == 3
    assert [h["timesteps"] for h in report["validation"]["history"]] == [256, 512]
    model = sb3_contrib.MaskablePPO.load(out / "model.zip", device="cpu")
    from cwgym.rl.attention import ElementAttentionExtractor

    assert isinstance(model.policy.features_extractor, ElementAttentionExtractor)


def test_mlp_policy_and_param_policy_kwargs_are_recorded(tmp_path):
    out = tmp_path / "mlp"
    args = _args("--param", 'policy_kwargs={"net_arch": [32]}', algo="maskable-ppo", env=ENV, steps=64, n_envs=2,
                 val_episodes=0, out=out)
    assert train_cli.run(args) == 0
    report = json.loads((out / "train.json").read_text())
    assert report["network"] == "mlp" and report["obs"] is None and report["policy_kwargs"] == {"net_arch": [32]}
    out = tmp_path / "wide"
    report = _maskable(out, "--param", 'policy_kwargs={"features_extractor_kwargs": {"d": 16}}', steps=64, val_episodes=0)
    assert report["policy_kwargs"]["features_extractor_kwargs"] == {"d": 16, "heads": 2, "row_features": 8, "token_vocab": 4096}


class _Recorder:
    """A model whose ``predict`` records what it was given and clicks the first unmasked row."""

    def __init__(self, maskable: bool) -> None:
        self.masks: list[np.ndarray] = []
        self.calls = 0
        if maskable:
            self.predict = self._masked

    def _masked(self, obs, state=None, episode_start=None, deterministic=False, action_masks=None):
        self.masks.append(np.array(action_masks))
        return np.int64(np.flatnonzero(action_masks)[0]), None

    def predict(self, obs, state=None, episode_start=None, deterministic=False):
        self.calls += 1
        return np.int64(0), None


def test_validation_and_evaluation_give_a_maskable_model_the_envs_masks():
    model = _Recorder(maskable=True)
    assert train_cli.takes_masks(model)
    train_cli.success_on_seeds(model, ENV, range(3, 5))
    env = gym.make(ENV)
    expected = []
    for seed in (3, 4):  # replay: the masks given are the env's, step by step
        _, info = env.reset(seed=seed)
        while True:
            expected.append(info["action_mask"])
            _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            if terminated or truncated:
                break
    assert len(model.masks) == len(expected) and all(np.array_equal(a, b) for a, b in zip(model.masks, expected))
    plain = _Recorder(maskable=False)
    assert not train_cli.takes_masks(plain)
    train_cli.evaluate_policy_on_test(plain, ENV, 1, {"obs": ["elements", "instruction"]})
    assert plain.calls >= 1


def test_cloning_the_expert_into_a_maskable_attention_policy(tmp_path):
    report = _maskable(tmp_path / "bc", steps=32, val_episodes=0, bc_episodes=6, bc_epochs=100)
    bc = report["bc"]
    assert bc["episodes"] == 6 and bc["seeds"] == [0, 6] and bc["transitions"] == 6 and bc["accuracy"] == 1.0


def test_cloning_a_dataset_directory(tmp_path):
    pytest.importorskip("cwgym.rl.demos", reason="cwgym.rl.demos is not there yet")
    from cwgym.procedures.dataset import Options, generate

    generate(tmp_path / "data", Options(procedures=["easy-open-app"], episodes=4))
    report = _maskable(tmp_path / "demos", "--demos", str(tmp_path / "data"), steps=32, val_episodes=0, demo_episodes=3,
                       bc_epochs=100)
    assert report["bc"]["demos"] == str(tmp_path / "data") and report["bc"]["episodes"] == 3
    assert report["bc"]["transitions"] == 3 and report["bc"]["accuracy"] == 1.0
    assert report["bc"]["value_loss"] is not None  # the critic is fitted to the demonstrations' returns


class _Plain(gym.Env):
    """A ``Discrete`` env without action masks (it takes cwgym's keyword arguments and ignores them)."""

    observation_space = spaces.Dict({"x": spaces.Box(0.0, 1.0, (2,), np.float32)})
    action_space = spaces.Discrete(2)

    def __init__(self, **kwargs) -> None:
        pass

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        return {"x": np.zeros(2, np.float32)}, {}

    def step(self, action):
        return {"x": np.zeros(2, np.float32)}, 0.0, True, False, {}


PLAIN = "cwgym-test/plain-v0"
BOX = "cwgym-test/easy-open-app-pointer-box-v0"


@pytest.fixture(scope="module", autouse=True)
def _test_envs():
    spec = gym.spec(ENV)
    gym.register(PLAIN, entry_point=_Plain)
    gym.register(BOX, entry_point=spec.entry_point, vector_entry_point=spec.vector_entry_point,
                 kwargs={**spec.kwargs, "interface": "pointer-box"}, max_episode_steps=spec.max_episode_steps)
    yield
    for env_id in (PLAIN, BOX):
        gym.registry.pop(env_id, None)


@pytest.mark.parametrize(
    ("argv", "kw", "message"),
    [
        ((), {"algo": "maskable-ppo", "env": BOX}, "Discrete or MultiDiscrete"),
        ((), {"algo": "maskable-ppo", "env": PLAIN, "vec": "dummy"}, "no action_masks"),
        (("--policy", "attention", "--obs", "instruction"), {"algo": "ppo", "env": ENV}, "elements and instruction_tokens"),
        (("--policy", "attention"), {"algo": "a2c", "env": PLAIN, "vec": "dummy"}, "elements and instruction_tokens"),
        (("--demos", "somewhere"), {"env": ENV, "bc_episodes": 2}, "not both"),
        ((), {"env": ENV, "demo_episodes": 2}, "--demo-episodes needs --demos"),
        (("--demos", "somewhere"), {"env": ENV, "algo": "dqn"}, "actor-critic"),
        ((), {"env": ENV, "algo": "maskable-ppo", "param": "policy_kwargs=3"}, "JSON object"),
    ],
)
def test_refusals_are_one_line_errors(tmp_path, argv, kw, message):
    with pytest.raises(SystemExit, match=message):
        train_cli.run(_args(*argv, steps=64, n_envs=1, val_episodes=0, out=tmp_path / "x", **kw))


def test_a_missing_dataset_is_a_one_line_error(tmp_path):
    pytest.importorskip("cwgym.rl.demos", reason="cwgym.rl.demos is not there yet")
    with pytest.raises(SystemExit, match="--demos"):
        train_cli.run(_args("--demos", str(tmp_path / "nothing"), env=ENV, algo="maskable-ppo", steps=64, n_envs=1,
                            val_episodes=0, out=tmp_path / "x"))


@pytest.mark.parametrize("extra", [[], ["instruction_shown", "focus_tokens", "element_values"]])
def test_the_maskable_agent_plays_in_eval(tmp_path, monkeypatch, extra):
    """Sealed, over the evaluator boundary, the agent does what the model does in process:
    it predicts with the env's masks and (with extra --obs keys) rebuilds them as the env would."""
    from cwgym.cli.eval import evaluate
    from cwgym.cli.verify import verify

    if extra:
        pytest.importorskip("cwgym.rl.derived", reason="cwgym.rl.derived is not there yet")
    out = tmp_path / "run"
    obs = ["elements", "instruction", *extra]
    _maskable(out, *(("--obs", *obs) if extra else ()), steps=16, val_episodes=0, bc_episodes=24, bc_epochs=100)
    suite = tmp_path / "one.json"
    suite.write_text(json.dumps({"kind": "leaderboard", "suite": "one", "seed": 0,
                                 "tasks": [{"env": ENV, "seeds": [1000000, 1010000], "episodes": 4}]}))
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("CWGYM_MODEL", str(out))
    results = evaluate("baselines.sb3_agent:make_agent", str(suite), tmp_path / "eval", progress=False)
    assert results["overall"]["episodes"] == 4
    records = json.loads((tmp_path / "eval" / "submission.json").read_text())["episodes"]
    assert all(r["failure"] is None for r in records)  # the agent never raised nor sent a bad action
    model = sb3_contrib.MaskablePPO.load(out / "model.zip", device="cpu")
    in_process = [train_cli.success_on_seeds(model, ENV, range(r["seed"], r["seed"] + 1), {"obs": obs}) for r in records]
    assert [float(r["success"]) for r in records] == in_process and sum(in_process) >= 2  # the model, not random play
    assert verify(tmp_path / "eval", str(suite)) == []


def test_the_agent_acts_with_the_masks_and_rebuilds_missing_keys(tmp_path, monkeypatch):
    """In process: the agent predicts with info's mask, and a model trained with extra --obs
    keys is recognised on the registered env's observation, the keys rebuilt from info."""
    monkeypatch.syspath_prepend(str(ROOT))
    from baselines.sb3_agent import SB3Agent

    extra = ["instruction_shown", "focus_tokens", "element_values"]
    try:
        from cwgym.rl.derived import DERIVABLE
    except ImportError:
        pytest.skip("cwgym.rl.derived is not there yet")
    assert set(extra) <= set(DERIVABLE)
    out = tmp_path / "extra"
    report = _maskable(out, "--obs", "elements", "instruction", *extra, steps=64, val_episodes=0, eval_episodes=1)
    assert report["obs"] == ["elements", "instruction", *extra]
    agent = SB3Agent([str(out)])
    env = gym.make(ENV)  # the registered env: none of the extra keys
    obs, info = env.reset(seed=1000000)
    task = {"instruction": info["instruction"], "observation_space": env.observation_space, "action_space": env.action_space}
    assert agent.recognise(task) == ENV
    agent.reset(task, obs, info)
    assert sorted(agent.derive) == sorted(extra)
    full = gym.make(ENV, obs=["elements", "instruction", *extra])
    full_obs, _ = full.reset(seed=1000000)
    rebuilt = agent.observe(obs, info)
    assert set(rebuilt) == set(full_obs) and all(np.array_equal(rebuilt[k], full_obs[k]) for k in full_obs)
    seen = []
    agent.model.predict = lambda o, deterministic, action_masks: (seen.append((o, action_masks)), (np.int64(3), None))[1]
    assert agent.act(obs, 0.0, info) == 3
    assert set(seen[0][0]) == set(full_obs) and np.array_equal(seen[0][1], info["action_mask"])
    other = {**task, "observation_space": gym.make(ENV, elements=64).observation_space}
    assert agent.recognise(other) is None  # a key the task gives differs from the model's: no fit


def test_the_agent_keeps_pointer_held_from_its_own_presses():
    """``pointer_held`` is not in ``info``: the agent keeps it as the env does, from the
    pointer operations it sent and whether they went through."""
    from baselines.sb3_agent import SB3Agent
    from cwgym.rl.config import task_config

    agent = object.__new__(SB3Agent)
    agent.derive = ["pointer_held"]
    agent.config = task_config(dict(gym.spec("cwgym/easy-drag-window-v1").kwargs))
    agent.held, agent.pressed = False, None
    ops = agent.config.pointer_ops  # down, move, up
    seen = []
    for op, success in (("down", False), ("down", True), ("move", True), ("up", True)):
        agent.pressed = agent._pointer_op(np.array([ops.index(op), 0, 0]))
        agent._track({"outcomes": [{"success": success}]})
        seen.append(float(agent.observe({}, {})["pointer_held"][0]))
    assert seen == [0.0, 1.0, 1.0, 0.0]
