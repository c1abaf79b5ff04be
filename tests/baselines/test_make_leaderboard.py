"""``baselines/make_leaderboard.py`` writes LEADERBOARD.md from verified eval directories only."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from baselines.make_leaderboard import main
from cwgym.cli.eval import evaluate

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("board")
    suite = tmp / "test-board.json"
    suite.write_text(json.dumps({
        "kind": "leaderboard", "suite": "test-board", "seed": 0,
        "tasks": [{"env": "cwgym/easy-open-app-v1", "seeds": [1000000, 1010000], "episodes": 2}],
    }))
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        for name in ("expert", "random_agent"):  # the expert needs the task's identity: privileged
            evaluate(f"baselines.{name}:make_agent", str(suite), tmp / name, progress=False, privileged=name == "expert")
    finally:
        os.chdir(cwd)
    return tmp, str(suite)


def test_verified_runs_become_rows(runs, tmp_path):
    tmp, suite = runs
    out = tmp_path / "LEADERBOARD.md"
    assert main([f"expert={tmp / 'expert'}", f"random={tmp / 'random_agent'}", "--suite", suite, "--out", str(out)]) == 0
    page = out.read_text()
    assert "| scripted expert | `baselines.expert:make_agent` | 2 | 100.0% |" in page
    assert "| random | `baselines.random_agent:make_agent` | 2 |" in page
    rows = {line.split(" | ")[0]: line for line in page.splitlines() if line.startswith("| ")}
    assert "| privileged: told the task and its seed |" in rows["| scripted expert"]
    assert "| sealed |" in rows["| random"]
    assert "cwgym eval --agent baselines.expert:make_agent --suite test-board --out runs/expert --privileged" in page
    assert (tmp_path / "leaderboard" / "expert.md").read_text().startswith("# baselines.expert:make_agent")


def test_a_tampered_submission_is_refused(runs, tmp_path, capsys):
    tmp, suite = runs
    forged = tmp_path / "forged"
    forged.mkdir()
    for item in (tmp / "random_agent").iterdir():
        (forged / item.name).write_bytes(item.read_bytes())
    submission = json.loads((forged / "submission.json").read_text())
    episode = submission["episodes"][0]
    episode["rewards"][-1], episode["return"], episode["success"] = 1.0, 1.0, True  # a claimed win
    (forged / "submission.json").write_text(json.dumps(submission))
    assert main([f"forged={forged}", "--suite", suite, "--out", str(tmp_path / "L.md")]) == 1
    err = capsys.readouterr().err
    assert "does not verify" in err and episode["episode"] in err
    assert not (tmp_path / "L.md").exists()


def test_rows_must_name_a_directory(tmp_path, capsys):
    assert main(["expert", "--out", str(tmp_path / "L.md")]) == 2
    assert "NAME=DIR" in capsys.readouterr().err
