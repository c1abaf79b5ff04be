"""The README's first training example learns what it says it learns (slow: a few minutes).

    python -m pytest -m slow tests/baselines/test_first_example.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("stable_baselines3", reason="stable-baselines3 is not installed (the train extra)")

from cwgym.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_readme_training_command_reaches_the_stated_success(tmp_path):
    readme = (ROOT / "README.md").read_text()
    command = re.search(r"^cwgym (train --algo ppo --env cwgym/easy-open-app-v1 .*)$", readme, re.M).group(1)
    argv = [*command.replace("runs/first-agent", str(tmp_path / "first-agent")).split(), "--quiet"]
    assert main(argv) == 0
    report = json.loads((tmp_path / "first-agent" / "train.json").read_text())
    assert report["test"]["episodes"] == 200
    assert report["test"]["success_rate"] >= 0.95, report["test"]
