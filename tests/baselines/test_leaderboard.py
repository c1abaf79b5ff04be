"""The leaderboard: process-isolated agents, verifiable submissions, expert and random scores.

The scripted expert needs the task's identity, which a sealed agent is not told: it runs
privileged here, as it does for the leaderboard's reference row.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import gymnasium as gym
import pytest

import cwgym.rl  # noqa: F401  (registers the envs)
from cwgym.cli.eval import SuiteError, evaluate, load_suite, suite_seeds
from cwgym.cli.verify import verify

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


@pytest.fixture
def small_suite(tmp_path):
    suite = {
        "kind": "leaderboard", "suite": "test-small",
        "seed": 0,
        "tasks": [
            {"env": "cwgym/easy-new-folder-v1", "seeds": [1000000, 1010000], "episodes": 2},
            {"env": "cwgym/terminal-ops-backup-script-v0", "seeds": [1000000, 1010000], "episodes": 2},
        ],
    }
    path = tmp_path / "test-small.json"
    path.write_text(json.dumps(suite))
    return str(path)


@pytest.fixture(scope="module")
def expert_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("expert")
    suite = tmp / "test-small.json"
    suite.write_text(json.dumps({
        "kind": "leaderboard", "suite": "test-small", "seed": 0,
        "tasks": [
            {"env": "cwgym/easy-new-folder-v1", "seeds": [1000000, 1010000], "episodes": 2},
            {"env": "cwgym/terminal-ops-backup-script-v0", "seeds": [1000000, 1010000], "episodes": 2},
        ],
    }))
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        results = evaluate("baselines.expert:make_agent", str(suite), tmp / "out", progress=False, privileged=True)
    finally:
        os.chdir(cwd)
    return results, tmp / "out", str(suite)


def test_leaderboard_suite_loads_and_is_not_an_env_suite():
    suite = load_suite("leaderboard-v2")
    ids = [t["env"] for t in suite["tasks"]]
    assert any(i.startswith("cwgym/easy-") for i in ids) and any(i.startswith("cwgym/terminal-") for i in ids)
    seeds = suite_seeds(suite, suite["tasks"][0])
    assert seeds == suite_seeds(suite, suite["tasks"][0]) and len(set(seeds)) == len(seeds)
    assert all(1000000 <= s < 1010000 for s in seeds)
    assert set(ids) <= set(gym.registry), sorted(set(ids) - set(gym.registry))
    from cwgym.rl import load_suites

    assert {e.suite for e in load_suites()} == {"apps", "easy", "procedures", "terminal", "web", "workflows"}
    with pytest.raises(SuiteError, match="not a leaderboard suite"):
        load_suite("easy")  # an env suite beside it is not a leaderboard


def test_leaderboard_v2_is_v1_with_the_desktop_envs_at_their_new_version():
    """v1's desktop envs were retired when the top bar began to act and every dock
    application to launch; v2 keeps v1's tasks, seeds and episodes with those envs at v1."""
    v1 = json.loads((ROOT / "envs" / "retired" / "leaderboard-v1.json").read_text())  # its envs are gone
    v2 = load_suite("leaderboard-v2")
    assert len(v1["tasks"]) == len(v2["tasks"]) and v1["seed"] == v2["seed"]
    bumped = 0
    for old, new in zip(v1["tasks"], v2["tasks"]):
        assert {k: v for k, v in old.items() if k != "env"} == {k: v for k, v in new.items() if k != "env"}
        if old["env"] != new["env"]:
            assert old["env"].endswith("-v0") and new["env"] == old["env"][:-3] + "-v1"
            assert not new["env"].startswith(("cwgym/web-", "cwgym/terminal-"))
            bumped += 1
    assert bumped == 19 + 5 + 8  # the easy tier, five library procedures, eight workflows
    web = {i for i in gym.registry if i.startswith("cwgym/web-") and not i.endswith("-pixels-v0")}
    assert len(web) >= 50 and web <= {t["env"] for t in v2["tasks"]}


def test_expert_scores_full_and_submission_verifies(expert_run):
    results, out, suite = expert_run
    assert results["overall"]["success_rate"] == 1.0
    assert all(r["mean_reward"] == 1.0 for r in results["tasks"])
    assert (out / "results.md").read_text().count("| `cwgym/") == 2
    submission = json.loads((out / "submission.json").read_text())
    record = submission["episodes"][0]
    assert {"world", "procedure", "env_id", "seed", "engine_version", "actions", "final_state_hash"} <= set(record)
    assert submission["agent_view"] == "privileged" and submission["split"] == {"kind": "public"}
    assert verify(out, suite) == []
    assert any("cannot be loaded" in p for p in verify(out))  # its suite is no leaderboard suite


@pytest.mark.parametrize("edit", ["action", "score", "seed", "results", "hash"])
def test_edited_submission_is_rejected_naming_the_episode(expert_run, tmp_path, edit):
    _, out, suite = expert_run
    for name in ("submission.json", "results.json"):
        (tmp_path / name).write_text((out / name).read_text())
    submission = json.loads((tmp_path / "submission.json").read_text())
    record = submission["episodes"][1]
    name = record["episode"]
    if edit == "action":
        record["actions"][0] = (record["actions"][0] + 1) % 100
    elif edit == "score":
        record["return"] = 0.5
    elif edit == "seed":
        record["seed"] += 1
        record["episode"] = name = f"{record['env_id']}#{record['seed']}"
    elif edit == "hash":
        assert len(record["state_hashes"]) == record["steps"]
        record["state_hashes"][0] = "0" * 64
    (tmp_path / "submission.json").write_text(json.dumps(submission))
    if edit == "results":
        results = json.loads((tmp_path / "results.json").read_text())
        results["tasks"][0]["success_rate"] = 0.25
        (tmp_path / "results.json").write_text(json.dumps(results))
        name = results["tasks"][0]["env_id"]
    problems = verify(tmp_path, suite)
    assert problems and any(name in p for p in problems), problems
    if edit == "hash":
        assert problems == [f"episode {name}: the state hash after step 1 differs from the replay's"]


def test_a_submission_without_state_hashes_is_checked_by_its_final_hash(expert_run, tmp_path):
    """Submissions written before ``state_hashes`` was recorded still verify."""
    _, out, suite = expert_run
    (tmp_path / "results.json").write_text((out / "results.json").read_text())
    submission = json.loads((out / "submission.json").read_text())
    for record in submission["episodes"]:
        del record["state_hashes"]
    (tmp_path / "submission.json").write_text(json.dumps(submission))
    assert verify(tmp_path, suite) == []


def test_random_scores_nothing(small_suite, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    results = evaluate("baselines.random_agent:make_agent", small_suite, tmp_path, progress=False)
    assert results["overall"]["success_rate"] == 0.0
    assert verify(tmp_path, small_suite) == []


def test_agent_process_cannot_reach_owner_state(small_suite, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    probe = tmp_path / "probe.jsonl"
    monkeypatch.setenv("CWGYM_PROBE_OUT", str(probe))
    evaluate(f"{HERE / 'probe_agent.py'}:make_agent", small_suite, tmp_path / "out", episodes=1, progress=False)
    reports = [json.loads(line) for line in probe.read_text().splitlines()]
    assert len(reports) == 2
    for r in reports:
        assert r["pid"] != os.getpid() and r["ppid"] == os.getpid()  # a real child process
        assert r["owner_received"] == [] and r["snapshot_like"] == []
        assert r["owner_alive"] == []  # no World, Environment or env anywhere in the child
        assert not any(t.startswith("cwgym") for t in r["received_types"])


def test_an_agent_that_crashes_stops_the_eval_with_its_traceback(small_suite, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    with pytest.raises((RuntimeError, ModuleNotFoundError)):
        evaluate("no_such_module_xyz:make_agent", small_suite, tmp_path, progress=False)
    assert sys.modules.get("no_such_module_xyz") is None


def test_verify_command_exits_1_naming_the_episode(expert_run, tmp_path, capsys):
    import argparse

    from cwgym.cli import verify as verify_cli

    _, out, suite = expert_run
    submission = json.loads((out / "submission.json").read_text())
    submission["episodes"][0]["final_state_hash"] = "0" * 64
    (tmp_path / "submission.json").write_text(json.dumps(submission))
    parser = argparse.ArgumentParser()
    verify_cli.add_parser(parser.add_subparsers())
    assert verify_cli.run(parser.parse_args(["verify", str(tmp_path), "--suite", suite])) == 1
    err = capsys.readouterr().err
    assert submission["episodes"][0]["episode"] in err and "final_state_hash" in err and "REJECTED" in err
    assert verify_cli.run(parser.parse_args(["verify", str(out), "--suite", suite])) == 0


def test_the_sb3_agent_recognises_its_task_from_the_instruction():
    """A sealed agent is not told the env id: the SB3 baseline picks its model by the instruction's template."""
    from types import SimpleNamespace

    import gymnasium as gym

    from baselines.sb3_agent import SB3Agent, instruction_pattern

    ids = ["cwgym/easy-open-app-v1", "cwgym/easy-close-window-v1", "cwgym/ops-backup-script-v1"]
    envs = {e: gym.make(e) for e in [*ids, "cwgym/terminal-ops-backup-script-v0"]}
    agent = object.__new__(SB3Agent)
    agent.models = {e: SimpleNamespace(observation_space=envs[e].observation_space) for e in ids}
    agent.patterns = {e: instruction_pattern(e) for e in ids}
    for env_id, env in envs.items():
        _, info = env.reset(seed=1000003)
        task = {"instruction": info["instruction"], "observation_space": env.observation_space}
        expected = env_id if env_id in ids else None  # the terminal variant: same template, another observation space
        assert agent.recognise(task) == expected, (env_id, info["instruction"])
    assert agent.recognise({"env_id": "cwgym/easy-open-app-v1", "instruction": ""}) == "cwgym/easy-open-app-v1"
