"""The corpus's state hashes, scene digests, observations and frames never move by accident.

A refactor keeps every value of ``corpus.json``; a deliberate behaviour change regenerates
it (``python tests/determinism/corpus.py --write``) and says why in its commit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from corpus import GOLDEN, desktop_session, expert_episode, office_session

HERE = Path(__file__).parent


@pytest.fixture(scope="module")
def golden() -> dict:
    return json.loads(GOLDEN.read_text())


def test_every_bundled_env_is_in_the_corpus(golden):
    # the bundled suites' ids, not the registry's: a test or a docs example may register more
    from cwgym.rl.specs import env_ids

    assert sorted(golden["experts"]) == sorted(env_ids())


@pytest.mark.parametrize("env_id", sorted(json.loads(GOLDEN.read_text())["experts"]))
def test_expert_episodes_are_unchanged(golden, env_id):
    assert expert_episode(env_id) == golden["experts"][env_id]


def test_the_desktop_session_is_unchanged(golden):
    assert desktop_session() == golden["desktop"]


def test_the_office_session_is_unchanged(golden):
    assert office_session() == golden["office"]


def test_a_fresh_process_with_another_hash_seed_builds_the_same_corpus(golden):
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import corpus; "
        "print(json.dumps({'desktop': corpus.desktop_session(), 'office': corpus.office_session()}, sort_keys=True))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code, str(HERE)], capture_output=True, text=True, env=env, check=True)
    fresh = json.loads(out.stdout)
    assert fresh == {"desktop": golden["desktop"], "office": golden["office"]}
