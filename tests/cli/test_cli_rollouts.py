"""``cwgym rollouts``: an in-process agent's episodes are the same bytes on one worker as on two
Ray workers, ``cwgym verify`` replays them and names a tampered episode, the agent is sealed as
under ``cwgym eval``, and bad input is one line with exit status 2."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from cwgym.cli import main
from cwgym.leaderboard.sealing import AGENT_INFO
from cwgym.rl.rollouts import ROLLOUTS_FORMAT

ROOT = Path(__file__).resolve().parents[2]
RANDOM = "baselines.random_agent:make_instance_agent"
EXPERT = "baselines.expert:make_agent"
#: Each run: options, and the seeds its episodes play.
CASES = {
    "random": (["--env", "cwgym/easy-open-app-v1", "--agent", RANDOM, "--episodes", "3", "--seed", "5", "--frames"], [5, 6, 7]),
    "expert": (["--env", "cwgym/easy-new-folder-v1", "--agent", EXPERT, "--privileged", "--episodes", "3"], [0, 1, 2]),
}
#: An agent that writes what it is told to CWGYM_TOLD_OUT, one JSON line a call, and clicks row 0.
TELLING_AGENT = '''
import json, os

class Agent:
    def _tell(self, **what):
        with open(os.environ["CWGYM_TOLD_OUT"], "a") as out:
            out.write(json.dumps(what) + "\\n")

    def reset(self, task, observation, info):
        self._tell(call="reset", task=sorted(task), space=type(task["action_space"]).__name__,
                   seed=task.get("seed"), info=sorted(info), observation=type(observation).__name__)

    def act(self, observation, reward, info):
        self._tell(call="act", info=sorted(info))
        return 0

    def end(self, observation, reward, terminated, truncated, info):
        self._tell(call="end", terminated=terminated, truncated=truncated)

def make_agent():
    return Agent()
'''


def rollouts(*options: str, out: Path) -> int:
    return main(["rollouts", *options, "--out", str(out), "--no-progress"])


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by its relative path, with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray")
    cwd = os.getcwd()
    os.chdir(ROOT)  # the workers start here, where `baselines` imports from
    try:
        ray.init(address="local", num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1")
    finally:
        os.chdir(cwd)
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module", params=list(CASES))
def played(request, tmp_path_factory, ray_cluster):
    """One case played twice: on one worker in this process, and on two Ray workers."""
    options, seeds = CASES[request.param]
    tmp = tmp_path_factory.mktemp(request.param)
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        assert rollouts(*options, "--workers", "1", out=tmp / "local") == 0
        assert ray_cluster.is_initialized()
        assert rollouts(*options, "--workers", "2", out=tmp / "ray") == 0
    finally:
        os.chdir(cwd)
    return request.param, seeds, tmp / "local", tmp / "ray"


def test_one_worker_and_two_ray_workers_write_the_same_bytes(played):
    case, seeds, local, on_ray = played
    here, there = tree(local), tree(on_ray)
    episodes = [f"episodes/{i}-{s}.json" for i, s in enumerate(seeds)]
    assert set(episodes) | {"rollouts.json"} <= set(here)
    assert sorted(here) == sorted(there)
    assert [name for name in here if here[name] != there[name]] == []
    if case == "random":  # the screen after the reset and after each of the 6 steps
        assert [n for n in here if n.startswith("frames/0-5/")] == [f"frames/0-5/{k}.png" for k in range(7)]
        assert here["frames/0-5/0.png"].startswith(b"\x89PNG")


def test_the_episodes_are_eval_records_of_their_own_seeds(played):
    case, seeds, local, _ = played
    index = json.loads((local / "rollouts.json").read_text())
    assert index["format"] == ROLLOUTS_FORMAT and index["seeds"] == seeds and index["episodes"] == 3
    assert index["agent_view"] == ("privileged" if case == "expert" else "sealed")
    assert "workers" not in json.dumps(index) and "wall" not in json.dumps(index)
    records = [json.loads((local / f["file"]).read_text()) for f in index["files"]]
    for i, (record, seed) in enumerate(zip(records, seeds)):
        assert (record["index"], record["seed"], record["episode"]) == (i, seed, f"{record['env_id']}#{seed}")
        assert len(record["actions"]) == len(record["rewards"]) == len(record["infos"]) == len(record["state_hashes"]) == record["steps"]
        assert set(record["reset_info"]) <= set(AGENT_INFO) and "instruction" in record["reset_info"]
        assert all(set(info) <= set(AGENT_INFO) for info in record["infos"])
    assert len({r["final_state_hash"] for r in records}) == 3  # each seed its own task instance
    if case == "random":  # a fresh agent per episode still plays each instance its own way
        assert len({tuple(map(str, r["actions"])) for r in records}) == 3
    expected = 1.0 if case == "expert" else 0.0
    assert index["summary"]["overall"]["success_rate"] == expected
    assert all(r["success"] == (case == "expert") for r in records)


@pytest.mark.parametrize("edit", ["action", "hash", "unlisted"])
def test_verify_accepts_the_rollouts_and_names_a_tampered_episode(played, tmp_path, capsys, edit):
    _, seeds, local, _ = played
    assert main(["verify", str(local)]) == 0
    assert "3 rollouts" in capsys.readouterr().out
    copy = tmp_path / "copy"
    for name, data in tree(local).items():
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_bytes(data)
    name = f"episodes/1-{seeds[1]}.json"
    record = json.loads((copy / name).read_text())
    if edit == "action":
        record["actions"][0] = 0 if record["actions"][0] != 0 else 1  # row 0 is the dock's Show Apps button, 1 a launcher
    elif edit == "hash":
        record["state_hashes"][-1] = "0" * 64
    else:
        name = f"episodes/9-{seeds[0] + 9}.json"
    (copy / name).write_text(json.dumps(record))
    assert main(["verify", str(copy)]) == 1
    err = capsys.readouterr().err
    assert "REJECTED" in err and name in err, err
    if edit == "hash":
        assert f"{name}: the state hash after step {record['steps']} differs from the replay's" in err


def test_the_agent_is_sealed_as_under_eval_unless_privileged(tmp_path, monkeypatch):
    agent = tmp_path / "telling.py"
    agent.write_text(TELLING_AGENT)
    monkeypatch.chdir(tmp_path)
    for view in ("sealed", "privileged"):
        told = tmp_path / f"{view}.jsonl"
        monkeypatch.setenv("CWGYM_TOLD_OUT", str(told))
        extra = ["--privileged"] if view == "privileged" else []
        assert rollouts("--env", "cwgym/easy-open-app-v1", "--agent", f"{agent}:make_agent", "--episodes", "2", "--seed", "3",
                        "--max-steps", "2", *extra, out=tmp_path / view) == 0
        calls = [json.loads(line) for line in told.read_text().splitlines()]
        resets = [c for c in calls if c["call"] == "reset"]
        assert len(resets) == 2 and all(r["space"] == "Discrete" and r["observation"] == "dict" for r in resets)
        assert all(set(c["info"]) <= set(AGENT_INFO) for c in calls if "info" in c)
        if view == "sealed":
            assert resets[0]["task"] == ["action_space", "instruction", "max_episode_steps", "observation_space"]
            assert all(r["seed"] is None for r in resets)
        else:
            assert {"env_id", "seed", "procedure"} <= set(resets[0]["task"]) and [r["seed"] for r in resets] == [3, 4]
        ends = [c for c in calls if c["call"] == "end"]
        assert len(ends) == 2 and all(e["truncated"] or e["terminated"] for e in ends)
        record = json.loads((tmp_path / view / "episodes/0-3.json").read_text())
        assert record["max_episode_steps"] == 2 and record["steps"] <= 2
        assert main(["verify", str(tmp_path / view)]) == 0  # cut at --max-steps, and replayed so


def test_an_agent_that_raises_fails_its_episode_and_the_run_goes_on(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the expert raises on a sealed task: it needs the seed
    assert rollouts("--env", "cwgym/easy-open-app-v1", "--agent", EXPERT, "--episodes", "2", out=tmp_path / "run") == 0
    index = json.loads((tmp_path / "run" / "rollouts.json").read_text())
    assert index["summary"]["overall"]["failures"] == 2
    record = json.loads((tmp_path / "run" / "episodes/0-0.json").read_text())
    assert record["failure"].startswith("step 0: the agent raised in reset: RuntimeError") and not record["success"]
    assert main(["verify", str(tmp_path / "run")]) == 0


def test_out_must_be_new_or_empty_and_overwrite_replaces_only_rollouts(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    options = ["--env", "cwgym/easy-open-app-v1", "--agent", RANDOM, "--episodes", "1", "--max-steps", "1"]
    out = tmp_path / "run"
    assert rollouts(*options, out=out) == 0
    first = tree(out)
    assert rollouts(*options, "--seed", "4", out=out) == 2
    assert "--out" in capsys.readouterr().err and tree(out) == first  # nothing mixed in
    assert rollouts(*options, "--seed", "4", "--overwrite", out=out) == 0
    assert sorted(tree(out)) == ["episodes/0-4.json", "rollouts.json"]
    (out / "notes.txt").write_text("mine")
    assert rollouts(*options, "--overwrite", out=out) == 2
    assert "notes.txt" in capsys.readouterr().err and (out / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize(
    ("options", "says"),
    [
        (["--env", "cwgym/easy-open-ap-v1"], ["unknown env id 'cwgym/easy-open-ap-v1'", "cwgym/easy-open-app-v1"]),
        (["--agent", "baselines.random_agent"], ["path/to/agent.py:factory or module:factory"]),
        (["--agent", "no_such_module_xyz:make_agent"], ["no module 'no_such_module_xyz'"]),
        (["--agent", "baselines.random_agent:no_factory"], ["has no factory 'no_factory'"]),
        (["--agent", "no/such/agent.py:make_agent"], ["no agent file no/such/agent.py"]),
        (["--episodes", "0"], ["--episodes", "at least 1"]),
        (["--workers", "0"], ["--workers", "at least 1"]),
        (["--max-steps", "7"], ["--max-steps 7", "step limit of 6"]),
        (["--address", "127.0.0.1:1"], ["--address 127.0.0.1:1", "cannot reach"]),
        (["--address", "no port"], ["is not host:port"]),
    ],
    ids=["env", "spec", "module", "factory", "file", "episodes", "workers", "max-steps", "unreachable", "address"],
)
def test_bad_input_is_one_line_with_status_2(tmp_path, monkeypatch, capsys, options, says):
    monkeypatch.chdir(ROOT)
    given = {"--env": "cwgym/easy-open-app-v1", "--agent": RANDOM, "--episodes": "2"}
    given.update(dict(zip(options[::2], options[1::2])))
    assert rollouts(*[x for kv in given.items() for x in kv], out=tmp_path / "out") == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert all(s in err for s in says), err
    assert not (tmp_path / "out").exists()


def test_without_ray_more_workers_say_how_to_install_it(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as if it were not installed
    assert rollouts("--env", "cwgym/easy-open-app-v1", "--agent", RANDOM, "--episodes", "2", "--workers", "2", out=tmp_path / "out") == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "pip install 'cwgym[ray]'" in err, err
    assert not (tmp_path / "out").exists()


def test_more_workers_than_the_cluster_has_cpus_is_refused_before_the_folder_is_made(ray_cluster, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert rollouts("--env", "cwgym/easy-open-app-v1", "--agent", RANDOM, "--episodes", "2", "--workers", "3", out=tmp_path / "out") == 2
    err = capsys.readouterr().err
    assert "--workers 3: the Ray cluster has 2 CPUs" in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "out").exists() and ray_cluster.is_initialized()  # the test's cluster is left as it was
