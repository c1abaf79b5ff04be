"""Tiny inputs for the viewer's tests: an expert eval run on three easy envs and a
two-seed dataset with negatives, each made once per session, and sites built from them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SUITE = {
    "kind": "leaderboard",
    "suite": "viewer-tiny",
    "seed": 0,
    "tasks": [
        {"env": "cwgym/easy-open-app-v1", "seeds": [1000000, 1010000], "episodes": 1},
        {"env": "cwgym/easy-new-folder-v1", "seeds": [1000000, 1010000], "episodes": 1},
        {"env": "cwgym/terminal-ops-backup-script-v0", "seeds": [1000000, 1010000], "episodes": 1},
    ],
}


@pytest.fixture(scope="session")
def eval_run(tmp_path_factory) -> Path:
    """A ``cwgym eval --privileged`` folder of the expert: 3 episodes (1, 4 and 5 steps)."""
    from cwgym.cli.eval import evaluate

    folder = tmp_path_factory.mktemp("viewer-eval")
    suite = folder / "suite.json"
    suite.write_text(json.dumps(SUITE))
    evaluate("baselines.expert:make_agent", str(suite), folder / "run", progress=False, privileged=True)
    return folder / "run"


@pytest.fixture(scope="session")
def dataset_dir(tmp_path_factory) -> Path:
    """A ``cwgym dataset`` folder: easy-new-folder on seeds 0 and 1, a negative each."""
    from cwgym.procedures.dataset import Options, generate

    folder = tmp_path_factory.mktemp("viewer-dataset") / "data"
    generate(folder, Options(procedures=["easy-new-folder"], episodes=2, negatives=1))
    return folder


@pytest.fixture(scope="session")
def eval_site(eval_run, tmp_path_factory) -> Path:
    """The site of :func:`eval_run` with the changed frames."""
    from cwgym.viewer import build_site

    out = tmp_path_factory.mktemp("viewer-site") / "site"
    result = build_site(eval_run, out, "changed")
    assert result.divergences == []
    return out

