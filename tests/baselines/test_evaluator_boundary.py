"""The evaluator boundary: plain frames only, hostile agents contained, sealed tasks, hidden splits, refusals."""

from __future__ import annotations

import ast
import hashlib
import json
import os
import pickle
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import msgspec
import numpy as np
import pytest
from gymnasium import spaces

from cwgym.cli import main
from cwgym.cli.eval import evaluate, load_suite, replay_episode
from cwgym.cli.verify import verify
from cwgym.leaderboard.actions import InvalidAction, checked_action
from cwgym.leaderboard.agent_process import AgentFault
from cwgym.leaderboard.sealing import AGENT_INFO, EFFECT_KEYS, agent_info
from cwgym.leaderboard.space_codec import build_space, describe_space
from cwgym.leaderboard.splits import Split, suite_seeds
from cwgym.leaderboard.wire import MAX_REPLY_BYTES, Action, decode_message, decode_reply, encode

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
HOSTILE = f"{HERE / 'hostile_agent.py'}:make_agent"
REPORTER = f"{HERE / 'reporter_agent.py'}:make_agent"
RANDOM = f"{ROOT / 'baselines' / 'random_agent.py'}:make_agent"
SECRET = b"a-test-secret-of-32-bytes-or-so!"


def _suite(folder: Path, tasks: list[tuple[str, int]], name: str = "test-boundary") -> str:
    path = folder / f"{name}.json"
    path.write_text(json.dumps({
        "kind": "leaderboard", "suite": name, "seed": 0,
        "tasks": [{"env": env, "seeds": [1000000, 1010000], "episodes": n} for env, n in tasks],
    }))
    return str(path)


def _keys(value, found: set) -> set:
    if isinstance(value, dict):
        found.update(value)
        for v in value.values():
            _keys(v, found)
    elif isinstance(value, list):
        for v in value:
            _keys(v, found)
    return found


# -- the wire ---------------------------------------------------------------------------------
def test_observations_cross_as_arrays_and_replies_never_unpickle(tmp_path):
    frame = np.arange(84 * 84 * 3, dtype=np.uint8).reshape(84, 84, 3)
    table = np.linspace(0, 1, 96 * 15, dtype=np.float32).reshape(96, 15)
    got = decode_message(encode({"pixels": frame, "elements": table, "instruction": "Open Files."}))
    assert got["pixels"].dtype == np.uint8 and np.array_equal(got["pixels"], frame) and got["pixels"].flags.writeable
    assert got["elements"].dtype == np.float32 and np.array_equal(got["elements"], table)
    assert got["instruction"] == "Open Files."
    assert decode_reply(encode({"type": "action", "seq": 3, "action": [1, 2]})) == Action(seq=3, action=[1, 2])
    marker = tmp_path / "marker"
    from hostile_agent import payload

    evil = payload(marker)
    for data in (evil, encode({"type": "action", "seq": 1, "action": frame}), encode({"type": "shell", "seq": 1})):
        with pytest.raises((msgspec.DecodeError, msgspec.ValidationError, ValueError)):
            decode_reply(data)
    assert not marker.exists()
    with pytest.raises(TypeError):
        encode({"x": object()})
    with pytest.raises(TypeError):
        encode(np.array([None], dtype=object))


def test_the_evaluator_side_holds_no_pickle_and_no_connection_recv():
    files = [*sorted((ROOT / "cwgym" / "leaderboard").glob("*.py")), ROOT / "cwgym" / "cli" / "eval.py", ROOT / "cwgym" / "cli" / "verify.py"]
    problems = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            problems += [f"{path.name} imports {n}" for n in names if n.split(".")[0] in ("pickle", "marshal", "shelve", "multiprocessing", "dill")]
            if isinstance(node, ast.Attribute) and node.attr == "recv":
                problems.append(f"{path.name}:{node.lineno} .{node.attr}")
    assert problems == []


def test_space_descriptions_rebuild_equal_spaces():
    import gymnasium as gym

    import cwgym.rl  # noqa: F401

    built = [gym.make(e) for e in ("cwgym/easy-new-folder-v1", "cwgym/easy-drag-window-v1", "cwgym/terminal-ops-backup-script-v0")]
    others = [
        spaces.OneOf([spaces.Discrete(3), spaces.MultiDiscrete([2, 3])]),
        spaces.Box(0, np.array([1.0, 2.0], dtype=np.float32)),
        spaces.Box(0, 255, (4, 4, 3), dtype=np.uint8),
        spaces.MultiBinary([2, 3]),
        spaces.Tuple([spaces.Discrete(2, start=-1)]),
    ]
    for space in [s for env in built for s in (env.action_space, env.observation_space)] + others:
        description = describe_space(space)
        assert json.loads(json.dumps(description)) == description
        assert build_space(description) == space


def test_actions_are_read_strictly_and_checked_against_the_space():
    discrete = spaces.Discrete(5)
    assert checked_action(discrete, 4) == 4
    for bad in (True, 4.0, "4", b"\x80", [4], 5, -1, None):
        with pytest.raises(InvalidAction):
            checked_action(discrete, bad)
    pointer = spaces.MultiDiscrete([3, 16, 20])
    assert np.array_equal(checked_action(pointer, [1, 2, 3]), [1, 2, 3])
    for bad in ([1.5, 2, 3], [1, 2], [3, 0, 0], "1,2,3"):
        with pytest.raises(InvalidAction):
            checked_action(pointer, bad)
    both = spaces.OneOf([discrete, pointer])
    assert checked_action(both, [1, [0, 0, 0]])[0] == 1
    with pytest.raises(InvalidAction):
        checked_action(both, [2, 0])
    text = spaces.Text(8, min_length=0, charset="\tabc\n")
    assert checked_action(text, "abc") == "abc"
    with pytest.raises(InvalidAction) as refused:
        checked_action(text, "abd" * 1000)
    reason = AgentFault(f"invalid action: {refused.value}", broken=False).reason  # as an episode records it
    assert "\n" not in reason and len(reason) <= 300


def test_info_crosses_through_the_allow_list_only():
    info = {
        "outcome": {"status": "ok", "actions": 1},
        "outcomes": [{"index": 0, "success": True, "value": None, "error": None, "effect": {"changed": ["window.opened"], "state": "123"}}],
        "verification": {"passed": False, "checks": [{"kind": "file_exists", "subject": "Travel", "passed": False}]},
        "seed": 1000001, "step": 1, "progress": 0.5, "phases_reached": 1, "phases": 2, "instruction": "Open Files.",
    }
    shown = agent_info(info)
    assert set(shown) == {"outcome", "outcomes", "step", "instruction"} and set(shown) <= set(AGENT_INFO)
    assert shown["outcomes"][0]["effect"] == {"changed": ["window.opened"]} and "state" not in EFFECT_KEYS
    assert info["outcomes"][0]["effect"]["state"] == "123"  # the env's own info is left as it was


# -- agents in their processes -------------------------------------------------------------------
def test_a_hostile_agent_fails_only_its_own_episodes(tmp_path, monkeypatch):
    from hostile_agent import ATTACKS, MARKER, payload

    notes = tmp_path / "notes"
    notes.mkdir()
    monkeypatch.setenv("CWGYM_HOSTILE_DIR", str(notes))
    suite = _suite(tmp_path, [("cwgym/easy-open-app-v1", len(ATTACKS))])
    monkeypatch.chdir(tmp_path)  # away from the repository: the agent is named by its file
    results = evaluate(HOSTILE, suite, tmp_path / "out", progress=False, step_timeout=5)

    assert not (notes / MARKER).exists()  # nothing the agent sent was unpickled
    records = json.loads((tmp_path / "out" / "submission.json").read_text())["episodes"]
    reasons = {attack: record["failure"] for attack, record in zip(ATTACKS, records)}
    assert "malformed reply" in reasons["pickle_frame"]
    assert "invalid action" in reasons["pickle_action"] and "bytes" in reasons["pickle_action"]
    assert "oversized reply" in reasons["huge"] and str(MAX_REPLY_BYTES) in reasons["huge"]
    assert "timeout" in reasons["hang"] and "killed" in reasons["hang"]
    assert "the agent raised in reset: RuntimeError: the hostile agent gives up" in reasons["raise"]
    assert "Traceback" in records[ATTACKS.index("raise")]["failure_detail"]
    assert "exit status 3" in reasons["exit"]
    assert reasons["snoop"] is None and reasons["honest"] is None  # the evaluator went on, with fresh processes
    assert all(not r["success"] for r in records if r["failure"])
    assert results["overall"]["failures"] == len(ATTACKS) - 2

    snoop = json.loads((notes / "snoop.json").read_text())
    assert snoop["frames_walked"] > 0 and snoop["objects"] > 1000  # it did look
    assert snoop["owner_objects"] == [] and snoop["module_globals"] == [] and snoop["worlds"] == 0

    assert verify(tmp_path / "out", suite) == []  # failed episodes replay like the others
    pickle.loads(payload(tmp_path / "proof"))  # and the payload is live: unpickled, it writes its file
    assert (tmp_path / "proof").exists()


def test_a_sealed_agent_is_told_the_instruction_and_nothing_of_the_task_behind_it(tmp_path, monkeypatch):
    report = tmp_path / "report.jsonl"
    monkeypatch.setenv("CWGYM_REPORT_OUT", str(report))
    suite = _suite(tmp_path, [("cwgym/easy-new-folder-v1", 1), ("cwgym/terminal-ops-backup-script-v0", 1)])
    evaluate(REPORTER, suite, tmp_path / "out", progress=False)
    text = report.read_text()
    lines = [json.loads(line) for line in text.splitlines()]
    resets = [line for line in lines if line["method"] == "reset"]
    assert len(resets) == 2 and {line["method"] for line in lines} == {"reset", "act", "end"}
    for reset in resets:
        assert set(reset["task"]) == {"instruction", "max_episode_steps", "action_space", "observation_space"}
        assert reset["task"]["instruction"] and reset["task"]["instruction"] == reset["info"]["instruction"]
    assert resets[0]["task"]["action_space"] == "Discrete(131)"
    infos = [line["info"] for line in lines]
    assert set().union(*infos) <= set(AGENT_INFO) and any("outcome" in i for i in infos)
    assert all(set(o.get("effect", {})) <= set(EFFECT_KEYS) for i in infos for o in i.get("outcomes", []))
    forbidden = {"verification", "checks", "seed", "procedure", "env_id", "world", "config", "progress", "phases", "phases_reached"}
    assert _keys(lines, set()).isdisjoint(forbidden)
    assert "checks" not in text and "verification" not in text
    for record in json.loads((tmp_path / "out" / "submission.json").read_text())["episodes"]:
        assert str(record["seed"]) not in text
        assert record["procedure"] not in text


def test_a_hidden_split_derives_its_seeds_from_the_secret_and_records_only_its_hash(tmp_path, monkeypatch, capsys):
    suite_path = _suite(tmp_path, [("cwgym/easy-open-app-v1", 2)])
    suite = load_suite(suite_path)
    task = suite["tasks"][0]
    hidden = Split(SECRET).seeds(suite, task)
    assert hidden == Split(SECRET).seeds(suite, task) and len(set(hidden)) == 2
    assert all(1000000 <= s < 1010000 for s in hidden)
    assert hidden != suite_seeds(suite, task) and hidden != Split(SECRET + b"x").seeds(suite, task)
    assert Split().seeds(suite, task) == suite_seeds(suite, task)

    report = tmp_path / "report.jsonl"
    monkeypatch.setenv("CWGYM_REPORT_OUT", str(report))
    monkeypatch.setenv("CWGYM_TEST_SECRET", SECRET.decode())
    out = tmp_path / "hidden"
    assert main(["eval", "--agent", REPORTER, "--suite", suite_path, "--out", str(out), "--secret-env", "CWGYM_TEST_SECRET", "--quiet"]) == 0
    split = {"kind": "hidden", "secret_sha256": hashlib.sha256(SECRET).hexdigest()}
    submission = json.loads((out / "submission.json").read_text())
    assert submission["split"] == split and json.loads((out / "results.json").read_text())["split"] == split
    assert all("seed" not in e for e in submission["episodes"]) and [e["episode"] for e in submission["episodes"]] == [
        "cwgym/easy-open-app-v1#hidden-0", "cwgym/easy-open-app-v1#hidden-1"]
    for seed in hidden:
        assert str(seed) not in (out / "submission.json").read_text() and str(seed) not in report.read_text()
    assert "hidden split" in (out / "results.md").read_text()
    resets = [json.loads(line) for line in report.read_text().splitlines() if '"method": "reset"' in line]
    assert all("CWGYM_TEST_SECRET" not in r["environment"] and "CWGYM_REPORT_OUT" in r["environment"] for r in resets)

    capsys.readouterr()
    assert main(["verify", str(out), "--suite", suite_path]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "hidden split" in err and "--secret-file" in err
    wrong = tmp_path / "wrong.key"
    wrong.write_bytes(b"another-secret-of-enough-bytes\n")
    assert main(["verify", str(out), "--suite", suite_path, "--secret-file", str(wrong)]) == 2
    assert "not the one" in capsys.readouterr().err
    key = tmp_path / "hidden.key"
    key.write_bytes(SECRET + b"\n")
    assert main(["verify", str(out), "--suite", suite_path, "--secret-file", str(key)]) == 0
    assert "hidden split" in capsys.readouterr().out

    assert main(["eval", "--agent", RANDOM, "--suite", suite_path, "--out", str(tmp_path / "p"), "--privileged", "--secret-file", str(key)]) == 2
    assert "--privileged" in capsys.readouterr().err
    short = tmp_path / "short.key"
    short.write_bytes(b"short")
    assert main(["eval", "--agent", RANDOM, "--suite", suite_path, "--out", str(tmp_path / "s"), "--secret-file", str(short)]) == 2
    assert "at least 16" in capsys.readouterr().err


# -- refusals and agent names -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--tasks", "cwgym/easy-new-foldr-v0"], ["'cwgym/easy-new-foldr-v0'", "cwgym list"]),
        (["--tasks", "cwgym/easy-open-app-v1,cwgym/easy-close-window-v1"], ["'cwgym/easy-close-window-v1'", "not one of the suite's tasks"]),
        (["--suite", "no-such-suite"], ["unknown suite 'no-such-suite'", "leaderboard-v2"]),
        (["--agent", "no/such/agent.py:make_agent"], ["no agent file no/such/agent.py"]),
        (["--agent", "no_such_module_xyz:make_agent"], ["no module 'no_such_module_xyz'"]),
        (["--agent", f"{HERE / 'hostile_agent.py'}:no_factory"], ["has no factory 'no_factory'"]),
        (["--agent", "baselines.random_agent"], ["path/to/agent.py:factory or module:factory"]),
        (["--step-timeout", "0"], ["--step-timeout"]),
        (["--agent-launcher", "no-such-launcher-xyz --flag"], ["cannot start no-such-launcher-xyz"]),
        (["--agent-launcher", "'unbalanced"], ["--agent-launcher", "quotation"]),
    ],
    ids=["mistyped-task", "task-not-in-suite", "unknown-suite", "missing-file", "missing-module", "missing-factory", "no-factory", "timeout", "missing-launcher", "bad-launcher"],
)
def test_eval_refuses_in_one_line_with_status_2(tmp_path, monkeypatch, capsys, argv, says):
    suite = _suite(tmp_path, [("cwgym/easy-open-app-v1", 1)])
    monkeypatch.chdir(tmp_path)
    options = {"--agent": RANDOM, "--suite": suite, "--out": str(tmp_path / "out")}
    options.update(dict(zip(argv[::2], argv[1::2])))
    assert main(["eval", *[x for kv in options.items() for x in kv], "--quiet"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert all(s in err for s in says), err
    assert not (tmp_path / "out").exists()


def test_an_agent_file_runs_from_any_directory_and_verify_refuses_partial_runs(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "agents"
    folder.mkdir()
    shutil.copyfile(ROOT / "baselines" / "random_agent.py", folder / "my_agent.py")
    suite = _suite(tmp_path, [("cwgym/easy-open-app-v1", 2), ("cwgym/easy-close-window-v1", 1)])
    monkeypatch.chdir(tmp_path)
    assert main(["eval", "--agent", "agents/my_agent.py:make_agent", "--suite", suite, "--out", "full", "--quiet"]) == 0
    assert main(["verify", "full", "--suite", suite]) == 0
    capsys.readouterr()

    assert main(["eval", "--agent", "agents/my_agent.py:make_agent", "--suite", suite, "--out", "part", "--episodes", "1", "--quiet"]) == 0
    assert main(["verify", "part", "--suite", suite]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "incomplete" in err and "2 episodes of cwgym/easy-open-app-v1" in err

    empty = tmp_path / "empty"
    empty.mkdir()
    submission = json.loads((tmp_path / "full" / "submission.json").read_text())
    (empty / "submission.json").write_text(json.dumps({**submission, "episodes": []}))
    assert main(["verify", str(empty), "--suite", suite]) == 2
    assert "no episodes" in capsys.readouterr().err


def test_a_log_cut_short_must_record_why(tmp_path):
    from cwgym.cli.verify import COMPARED, COMPARED_IF_RECORDED
    from cwgym.leaderboard.splits import suite_seeds

    suite = _suite(tmp_path, [("cwgym/easy-open-app-v1", 1)])
    evaluate(RANDOM, suite, tmp_path / "run", progress=False)
    submission = json.loads((tmp_path / "run" / "submission.json").read_text())
    record = submission["episodes"][0]
    assert record["steps"] >= 2 and record["failure"] is None  # the seeded random agent's episode, cut short below
    record["actions"] = record["actions"][:1]
    seed = suite_seeds(load_suite(suite), load_suite(suite)["tasks"][0])[0]
    record.update({key: value for key, value in replay_episode(record, seed).items() if key in COMPARED + COMPARED_IF_RECORDED})
    (tmp_path / "run" / "results.json").unlink()
    (tmp_path / "run" / "submission.json").write_text(json.dumps(submission))
    assert verify(tmp_path / "run", suite) == [f"episode {record['episode']}: its log stops before the episode ended, yet it records no agent failure"]
    record["failure"], record["success"] = "step 1: timeout: the agent took more than 60 s to answer; its process was killed", False
    (tmp_path / "run" / "submission.json").write_text(json.dumps(submission))
    assert verify(tmp_path / "run", suite) == []


SANDBOX = ("unshare", "--user", "--map-root-user", "--pid", "--fork", "--mount-proc")


def _sandbox_works() -> bool:
    try:
        return subprocess.run([*SANDBOX, "true"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def test_a_launcher_sandbox_keeps_the_evaluators_environment_from_the_agent(tmp_path):
    """Without an OS sandbox a same-user agent can read the evaluator's /proc/PID/environ (the
    limit docs/reference/security.md states); started through unshare's new PID namespace it cannot."""
    if not _sandbox_works():
        pytest.skip("unshare cannot make a user and PID namespace on this machine")
    suite = _suite(tmp_path, [("cwgym/easy-open-app-v1", 1)])
    seen = {}
    for name, extra in (("plain", []), ("sandboxed", ["--agent-launcher", shlex.join(SANDBOX)])):
        report = tmp_path / f"{name}.jsonl"
        env = {**os.environ, "CWGYM_TEST_SECRET": SECRET.decode(), "CWGYM_REPORT_OUT": str(report)}
        argv = ["eval", "--agent", REPORTER, "--suite", suite, "--out", str(tmp_path / name), "--secret-env", "CWGYM_TEST_SECRET", "--quiet", *extra]
        subprocess.run([sys.executable, "-m", "cwgym.cli", *argv], env=env, check=True, capture_output=True, timeout=600)
        seen[name] = json.loads(report.read_text().splitlines()[0])
    assert "CWGYM_TEST_SECRET" not in seen["plain"]["environment"]
    assert "CWGYM_TEST_SECRET" in seen["plain"]["parent_environment"]
    assert "CWGYM_TEST_SECRET" not in seen["sandboxed"]["environment"] and seen["sandboxed"]["parent_environment"] is None
    submission = json.loads((tmp_path / "sandboxed" / "submission.json").read_text())
    assert submission["agent_launcher"] == shlex.join(SANDBOX) and submission["episodes"][0]["failure"] is None
