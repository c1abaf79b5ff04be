"""The smoke training: a few hundred steps of `cwgym train`, end to end, and the trained agent evaluated."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

sb3 = pytest.importorskip("stable_baselines3", reason="stable-baselines3 is not installed (the train extra): no smoke training")

from cwgym.cli import train as train_cli  # noqa: E402
from cwgym.cli.eval import evaluate  # noqa: E402
from cwgym.cli.verify import verify  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _args(**kw):
    parser = argparse.ArgumentParser()
    train_cli.add_parser(parser.add_subparsers())
    argv = ["train"] + [x for k, v in kw.items() for x in (f"--{k.replace('_', '-')}", str(v))] + ["--quiet"]
    return parser.parse_args(argv)


@pytest.mark.parametrize(("algo", "vec"), [("ppo", "cwgym"), ("dqn", "cwgym"), ("ppo", "dummy")])
def test_smoke_training_writes_model_logs_and_curve(tmp_path, algo, vec):
    out = tmp_path / f"{algo}-{vec}"
    args = _args(algo=algo, env="cwgym/easy-new-folder-v1", steps=320, n_envs=2, seed=0, vec=vec, out=out, eval_episodes=1)
    assert train_cli.run(args) == 0
    for name in ("model.zip", "progress.csv", "train.json"):
        assert (out / name).is_file(), name
    assert list(out.glob("events.out.tfevents.*"))
    # cwgym's vector env has one VecMonitor for all envs; SB3's vec envs one Monitor per env
    monitors = sorted((out / "monitor").glob("*.monitor.csv"))
    assert [p.name for p in monitors] == (["0.monitor.csv"] if vec == "cwgym" else ["0.monitor.csv", "1.monitor.csv"])
    header = json.loads(monitors[0].read_text().splitlines()[0].lstrip("#"))
    assert header["env_id"] == "cwgym/easy-new-folder-v1"
    assert monitors[0].read_text().splitlines()[1] == "r,l,t,is_success"
    rows = train_cli._monitor_rows(out / "monitor")
    assert rows and all(1 <= r["l"] <= 40 for r in rows)  # per-env episodes: max_episode_steps is 40
    report = json.loads((out / "train.json").read_text())
    assert report["algo"] == algo and report["policy"] == "MultiInputPolicy" and report["test"]["episodes"] == 1
    assert report["vec"] == vec
    pytest.importorskip("matplotlib")
    assert (out / "learning_curve.png").is_file()


def test_smoke_training_on_cwgym_vec_with_a_reward_override(tmp_path):
    """``--reward`` reaches cwgym's vector env through make_vec's keyword arguments."""
    out = tmp_path / "a2c"
    assert train_cli.run(_args(algo="a2c", env="cwgym/easy-open-app-v1", steps=64, n_envs=2, seed=0, reward="partial", out=out)) == 0
    report = json.loads((out / "train.json").read_text())
    assert report["vec"] == "cwgym" and report["reward"] == "partial"
    assert train_cli._monitor_rows(out / "monitor")  # 6-step episodes: some finished


def test_trained_agent_runs_in_eval(tmp_path, monkeypatch):
    out = tmp_path / "ppo"
    assert train_cli.run(_args(algo="ppo", env="cwgym/easy-new-folder-v1", steps=256, n_envs=2, seed=1, out=out)) == 0
    suite = tmp_path / "one.json"
    suite.write_text(json.dumps({"kind": "leaderboard", "suite": "one", "seed": 0, "tasks": [{"env": "cwgym/easy-new-folder-v1", "seeds": [1000000, 1010000], "episodes": 1}]}))
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("CWGYM_MODEL", str(out))
    results = evaluate("baselines.sb3_agent:make_agent", str(suite), tmp_path / "eval", progress=False)
    assert results["overall"]["episodes"] == 1
    assert verify(tmp_path / "eval", str(suite)) == []


def test_the_same_seed_and_threads_write_the_same_progress_csv(tmp_path):
    runs = []
    for name in ("first", "second"):
        out = tmp_path / name
        args = _args(algo="ppo", env="cwgym/easy-open-app-v1", steps=256, n_envs=2, seed=3, torch_threads=1,
                     val_episodes=4, val_every=128, out=out)
        assert train_cli.run(args) == 0
        runs.append((out / "progress.csv").read_text())
    assert runs[0] == runs[1]
    assert "time/fps" not in runs[0].splitlines()[0] and "validation/success_rate" in runs[0].splitlines()[0]


def test_validation_keeps_the_best_model_and_both_are_tested(tmp_path):
    out = tmp_path / "val"
    args = _args(algo="ppo", env="cwgym/easy-open-app-v1", steps=256, n_envs=2, seed=0, val_episodes=5, val_every=64,
                 eval_episodes=3, out=out)
    assert train_cli.run(args) == 0
    report = json.loads((out / "train.json").read_text())
    lo, hi = report["validation"]["seeds"]
    assert hi - lo == 5 and report["train_seeds"][1] == lo  # validation seeds are never drawn in training
    history = report["validation"]["history"]
    assert [h["timesteps"] for h in history] == [64, 128, 192, 256]
    assert report["validation"]["best"]["success_rate"] == max(h["success_rate"] for h in history)
    assert (out / "best_model.zip").is_file()
    assert report["test"]["episodes"] == report["test_best"]["episodes"] == 3
    assert report["torch_threads"] == 1
    assert {"cwgym", "stable-baselines3", "torch", "gymnasium", "numpy", "python"} <= set(report["versions"])


def test_bad_training_options_are_one_line_errors(tmp_path):
    with pytest.raises(SystemExit, match="--val-episodes"):
        train_cli.run(_args(env="cwgym/easy-open-app-v1", steps=64, val_episodes=-1, out=tmp_path / "x"))
    with pytest.raises(SystemExit, match="--torch-threads"):
        train_cli.run(_args(env="cwgym/easy-open-app-v1", steps=64, torch_threads=0, out=tmp_path / "y"))
