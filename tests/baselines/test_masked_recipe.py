"""docs/baselines.md's masked attention agent learns the task it is shown on (slow: a few minutes).

    python -m pytest -m slow tests/baselines/test_masked_recipe.py

The commands are read from the page, so the page cannot drift from what works.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (the train extra)")

from cwgym.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _commands() -> tuple[list[str], list[str]]:
    page = (ROOT / "docs" / "baselines.md").read_text()
    section = page[page.index("### The masked attention agent"):]
    block = section[section.index("```text\n") + 8 : section.index("```", section.index("```text\n") + 8)]
    lines = block.replace("\\\n", " ").splitlines()
    dataset = next(line for line in lines if line.startswith("cwgym dataset"))
    train = next(line for line in lines if line.startswith("cwgym train"))
    return dataset.split()[1:], train.split()[1:]


@pytest.mark.slow
def test_the_masked_recipe_learns_easy_new_folder(tmp_path):
    dataset, train = _commands()
    rewrite = {"runs/demos": str(tmp_path / "demos"), "runs/masked-new-folder": str(tmp_path / "agent")}
    assert main([rewrite.get(a, a) for a in dataset] + ["--no-progress"]) == 0
    assert main([rewrite.get(a, a) for a in train] + ["--quiet"]) == 0
    report = json.loads((tmp_path / "agent" / "train.json").read_text())
    assert report["algo"] == "maskable-ppo" and report["network"] == "attention"
    assert report["bc"]["accuracy"] == 1.0
    assert report["test"]["episodes"] == 200 and report["test"]["success_rate"] >= 0.9, report["test"]


def test_the_pages_commands_parse():
    """The slow test's commands are on the page (checked in the default run)."""
    dataset, train = _commands()
    assert dataset[0] == "dataset" and "--procedures" in dataset
    assert train[0] == "train" and re.search(r"--algo maskable-ppo", " ".join(train))
