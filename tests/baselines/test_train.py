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


@pytest.mark.parametrize("algo", ["ppo", "dqn"])
def test_smoke_training_writes_model_logs_and_curve(tmp_path, algo):
    out = tmp_path / algo
    args = _args(algo=algo, env="cwgym/easy-new-folder-v0", steps=320, n_envs=2, seed=0, out=out, eval_episodes=1)
    assert train_cli.run(args) == 0
    for name in ("model.zip", "progress.csv", "train.json"):
        assert (out / name).is_file(), name
    assert list(out.glob("events.out.tfevents.*"))
    assert len(list((out / "monitor").glob("*.monitor.csv"))) == 2
    report = json.loads((out / "train.json").read_text())
    assert report["algo"] == algo and report["policy"] == "MultiInputPolicy" and report["test"]["episodes"] == 1
    pytest.importorskip("matplotlib")
    assert (out / "learning_curve.png").is_file()


def test_trained_agent_runs_in_eval(tmp_path, monkeypatch):
    out = tmp_path / "ppo"
    assert train_cli.run(_args(algo="ppo", env="cwgym/easy-new-folder-v0", steps=256, n_envs=2, seed=1, out=out)) == 0
    suite = tmp_path / "one.json"
    suite.write_text(json.dumps({"suite": "one", "seed": 0, "tasks": [{"env": "cwgym/easy-new-folder-v0", "seeds": [1000000, 1010000], "episodes": 1}]}))
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("CWGYM_MODEL", str(out))
    results = evaluate("baselines.sb3_agent:make_agent", str(suite), tmp_path / "eval", progress=False)
    assert results["overall"]["episodes"] == 1
    assert verify(tmp_path / "eval", str(suite)) == []
