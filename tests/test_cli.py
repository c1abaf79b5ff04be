"""The cwgym command: the demo (the README's main job), worlds, render; `--data` for a clone's
own procedures and suites; user errors in one line with exit status 2; defaults in --help."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import pytest

from cwgym import resources
from cwgym.cli import build_parser, main
from cwgym.cli.common import EXIT_BUG, HelpFormatter, data_folder

ROOT = Path(__file__).resolve().parents[1]


def test_demo_runs_and_replays_identically(capsys):
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "final state hash" in out and "(identical)" in out
    assert "machine_not_granted" in out


def test_worlds_lists_the_default(capsys):
    assert main(["worlds"]) == 0
    assert "ubuntu-workstation (default)" in capsys.readouterr().out


def test_render_writes_a_png_after_actions(tmp_path, capsys):
    actions = tmp_path / "steps.json"
    actions.write_text(json.dumps([{"family": "application.v1", "op": "launcher", "payload": {}}]))
    out = tmp_path / "screen.png"
    assert main(["render", "--actions", str(actions), "--size", "320x200", "--out", str(out)]) == 0
    from PIL import Image

    with Image.open(out) as image:
        assert image.size == (320, 200)
    assert "320x200" in capsys.readouterr().out


# -- --data: a clone's own procedures and suites ------------------------------------------------
@pytest.fixture
def clone(tmp_path) -> Path:
    """A data folder as a clone with one new procedure and a suite extending ``easy``."""
    folder = tmp_path / "clone"
    shutil.copytree(ROOT / "worlds", folder / "worlds")
    (folder / "procedures" / "mine").mkdir(parents=True)
    (folder / "envs").mkdir()
    shutil.copy(ROOT / "envs" / "easy.json", folder / "envs" / "easy.json")
    procedure = json.loads((ROOT / "procedures" / "easy" / "easy-new-folder.json").read_text())
    procedure.update(id="mine-new-folder", domain="mine", title="My folder task")
    (folder / "procedures" / "mine" / "mine-new-folder.json").write_text(json.dumps(procedure))
    suite = {"suite": "mine", "extends": "easy", "defaults": {"max_episode_steps": 12},
             "envs": [{"name": "mine-new-folder", "procedure": "mine-new-folder", "title": "My folder task",
                       "interface": "click-element+keys+type-token", "keys": ["Enter"]}]}
    (folder / "envs" / "mine.json").write_text(json.dumps(suite))
    return folder


def test_data_option_finds_a_clones_procedures_and_suites_on_every_level(clone, capsys):
    assert main(["--data", str(clone), "list", "--suite", "mine", "--json"]) == 0
    [row] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert row["id"] == "cwgym/mine-new-folder-v0" and row["max_episode_steps"] == 12
    assert row["kwargs"]["preset"] == "sb3" and row["kwargs"]["elements"] == 96  # easy's defaults, inherited
    assert main(["procedure", "list", "--data", str(clone)]) == 0
    assert capsys.readouterr().out.startswith("mine-new-folder ")
    assert main(["procedure", "debug", "mine-new-folder", "--mode", "tool", "--data", str(clone)]) == 0
    assert "verification: passed" in capsys.readouterr().out


def test_data_option_leaves_the_process_as_it_was(clone, capsys):
    before = dict(os.environ)
    ids = sorted(i for i in gym.registry if i.startswith("cwgym/"))
    assert main(["--data", str(clone), "list"]) == 0
    assert "cwgym/mine-new-folder-v0" in capsys.readouterr().out
    assert "cwgym/mine-new-folder-v0" not in gym.registry
    assert sorted(i for i in gym.registry if i.startswith("cwgym/")) == ids
    assert dict(os.environ) == before


def test_the_data_folder_is_given_to_the_command_and_its_envs(clone):
    with data_folder(str(clone)) as root:
        assert root == clone.resolve() and os.environ[resources.ENV_VAR] == str(root)
        env = gym.make("cwgym/mine-new-folder-v0")
        _, info = env.reset(seed=0)
        assert "new folder named" in info["instruction"] and env.spec.max_episode_steps == 12
        assert "cwgym/terminal-ops-backup-script-v0" not in gym.registry  # not a suite of the clone
    assert "cwgym/terminal-ops-backup-script-v0" in gym.registry


def test_cwgym_data_is_honoured_from_outside_the_checkout(clone, tmp_path):
    env = {**os.environ, resources.ENV_VAR: str(clone), "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "cwgym.cli", "list", "--suite", "mine"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "cwgym/mine-new-folder-v0" in out.stdout and "My folder task" in out.stdout


# -- user errors: one line, exit status 2, no traceback -------------------------------------------
def _files(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "bad.json").write_text('{"id": ')
    (tmp_path / "invalid-world.json").write_text(json.dumps({"id": "w", "computers": [{"id": "a", "profile": "mac"}]}))
    (tmp_path / "object.json").write_text('{"family": "pointer.v1"}')
    (tmp_path / "nodata").mkdir()
    broken = tmp_path / "broken"
    shutil.copytree(ROOT / "worlds", broken / "worlds")
    (broken / "envs").mkdir()
    (broken / "envs" / "loop.json").write_text(json.dumps({"extends": "loop", "envs": []}))
    return {"TMP": str(tmp_path), "BROKEN": str(broken)}


USER_ERRORS = [
    ([], ["the following arguments are required: COMMAND", "cwgym --help"]),
    (["demo", "--seed", "x"], ["cwgym demo: argument --seed: invalid int value: 'x'", "cwgym demo --help"]),
    (["demo", "--world", "atlantis"], ["no world 'atlantis'", "ubuntu-workstation"]),
    (["demo", "--world", "{TMP}/bad.json"], ["bad.json: not a readable JSON file"]),
    (["demo", "--world", "{TMP}/invalid-world.json"], ["not a valid world definition", "$.computers[0]"]),
    (["demo", "--png", "{TMP}/no/such/folder.png"], ["--png", "no folder"]),
    (["worlds", "--data", "{TMP}/missing"], ["--data {TMP}/missing: no such folder"]),
    (["--data", "{TMP}/nodata", "worlds"], ["no worlds/ folder", "it holds none of them"]),
    (["--data", "{BROKEN}", "list"], ["loop.json: 'extends' makes a cycle (loop -> loop)"]),
    (["list", "--suite", "esy"], ["no such suite; did you mean 'easy'?"]),
    (["list", "--suite", "leaderboard-v2"], ["a leaderboard suite", "cwgym eval"]),
    (["list", "cwgym/easy-new-fodler-v0"], ["unknown env id 'cwgym/easy-new-fodler-v0'", "cwgym/easy-new-folder-v1", "`cwgym list`"]),
    (["list", "--suite", "easy", "cwgym/terminal-ops-backup-script-v0"], ["an env of suite terminal, not of --suite easy"]),
    (["render", "--out", "x.png", "--size", "12"], ["argument --size: a size looks like 1280x800, got '12'"]),
    (["render", "--out", "{TMP}/x.png", "--actions", "{TMP}/missing.json"], ["--actions {TMP}/missing.json: no such file"]),
    (["render", "--out", "{TMP}/x.png", "--actions", "{TMP}/bad.json"], ["--actions {TMP}/bad.json: not valid JSON (line 1"]),
    (["render", "--out", "{TMP}/x.png", "--actions", "{TMP}/object.json"], ["it must hold a list of action envelopes"]),
    (["render", "--out", "{TMP}/x.png", "--machine", "nope"], ["--machine 'nope'", "workstation"]),
    (["render", "--out", "{TMP}/no/such/x.png"], ["--out", "no folder"]),
    (["procedure", "debug", "legal-engagment-letter"], ["no procedure 'legal-engagment-letter'; did you mean legal-engagement-letter"]),
    (["procedure", "debug", "ops-backup-script", "--upto", "0"], ["argument --upto: must be at least 1"]),
    (["procedure", "nope"], ["invalid choice: 'nope'"]),
    (["dataset", "--out", "{TMP}/d", "--episodes", "0"], ["argument --episodes: must be at least 1, got 0"]),
    (["dataset", "--out", "{TMP}/d", "--procedures", "nope"], ["no procedure 'nope'", "cwgym procedure list"]),
    (["dataset", "--out", "{TMP}/bad.json"], ["a file, not a folder"]),
    (["eval", "--agent", "baselines.random_agent:make_agent", "--out", "{TMP}/e", "--suite", "nope"], ["unknown suite 'nope'"]),
    (["verify", "{TMP}/missing"], ["submission.json"]),
]


@pytest.mark.parametrize(("argv", "says"), USER_ERRORS, ids=[" ".join(argv) or "(no command)" for argv, _ in USER_ERRORS])
def test_a_user_error_is_one_line_and_exit_status_2(argv, says, tmp_path, capsys):
    names = _files(tmp_path)

    def fill(text: str) -> str:
        for key, value in names.items():
            text = text.replace("{" + key + "}", value)
        return text

    assert main([fill(a) for a in argv]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    assert lines[0].startswith("cwgym")
    for text in says:
        assert fill(text) in lines[0]


def test_an_unknown_env_id_for_training_suggests_the_closest(tmp_path, capsys):
    pytest.importorskip("stable_baselines3")
    code = main(["train", "--env", "cwgym/easy-new-fodler-v0", "--out", str(tmp_path / "run"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "cwgym/easy-new-folder-v1" in err and "`cwgym list`" in err


def test_a_user_error_from_outside_the_checkout_has_no_traceback(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(resources.ENV_VAR, None)
    out = subprocess.run([sys.executable, "-m", "cwgym.cli", "demo", "--world", "atlantis"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 2 and out.stderr.strip().splitlines() == [
        "cwgym demo: no world 'atlantis'; known worlds: company, small-office, ubuntu-apps, ubuntu-workstation, web-tasks (or give a world.json path)"]


def test_an_internal_error_shows_its_traceback_and_says_it_is_a_bug(monkeypatch, capsys):
    from cwgym.cli import worlds

    def broken(args):
        raise RuntimeError("something inside broke")

    monkeypatch.setattr(worlds, "run", broken)
    assert main(["worlds"]) == EXIT_BUG
    err = capsys.readouterr().err
    assert "Traceback" in err and "RuntimeError: something inside broke" in err
    assert err.strip().splitlines()[-1].startswith("cwgym worlds: internal error: this is a bug in cwgym")


# -- --help ---------------------------------------------------------------------------------------
def _parsers(parser: argparse.ArgumentParser, prog: str = "cwgym"):
    yield prog, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from _parsers(child, f"{prog} {name}")


@pytest.mark.parametrize(("prog", "parser"), list(_parsers(build_parser())), ids=lambda v: v if isinstance(v, str) else "")
def test_help_shows_every_default_and_the_data_option(prog, parser, capsys):
    formatter = HelpFormatter(prog)
    for action in parser._actions:
        shown = action.default is not None and action.default is not False and action.default is not argparse.SUPPRESS
        if action.option_strings and shown and action.default != []:
            assert "default" in formatter._expand_help(action), f"{prog} {action.option_strings[0]}"
    assert main([*prog.split()[1:], "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: {prog}") and "--data DIR" in out
