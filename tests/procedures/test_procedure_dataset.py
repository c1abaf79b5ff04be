"""``cwgym dataset`` end to end: episodes, negatives (all rejected), frames re-rendered by
replay, the summary with its token convention, and a failure that names the episode."""

from __future__ import annotations

import argparse
import json
import struct

import pytest

from cwgym.cli import dataset as dataset_cli
from cwgym.procedures import dataset, parse_procedure
from cwgym.procedures import library as library_module

PROCEDURES = ["legal-conflict-check", "office-supplies-order"]


def _args(out, **overrides) -> argparse.Namespace:
    values = dict(out=str(out), procedures=PROCEDURES, episodes=2, seed_start=3, negatives=2, frames=False,
                  mode="gui", typing="text", size="1280x800", no_progress=True)
    values.update(overrides)
    return argparse.Namespace(**values)


def _parser() -> argparse.ArgumentParser:
    """A local parser holding the new subcommands, as the lead will register them."""
    parser = argparse.ArgumentParser(prog="cwgym")
    sub = parser.add_subparsers(dest="command", required=True)
    dataset_cli.add_parser(sub)
    return parser


def _png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_a_dataset_with_negatives_and_frames(tmp_path, capsys):
    args = _parser().parse_args([
        "dataset", "--out", str(tmp_path), "--procedures", *PROCEDURES, "--episodes", "2", "--seed-start", "3",
        "--negatives", "2", "--frames", "--size", "640x400", "--no-progress"])
    assert args.run(args) == 0
    out = capsys.readouterr().out
    assert "12 episodes (4 demonstrations, 4 verified; 8 negatives, 8 rejected)" in out

    lines = [json.loads(line) for line in (tmp_path / "episodes.jsonl").read_text().splitlines()]
    assert [line["id"] for line in lines[:3]] == ["legal-conflict-check-s3", "legal-conflict-check-s3-n0", "legal-conflict-check-s3-n1"]
    demos = [line for line in lines if line["kind"] == "demonstration"]
    negatives = [line for line in lines if line["kind"] == "negative"]
    assert len(demos) == 4 and len(negatives) == 8
    assert all(d["verdict"]["passed"] and d["tool_verified"] and d["completed"] for d in demos)
    assert all(not n["verdict"]["passed"] for n in negatives)
    assert {n["corruption"]["kind"] for n in negatives} == {"skip", "substitute"}
    assert all(n["corruption"]["mode"] == "gui" for n in negatives)

    demo = demos[0]
    assert demo["instruction"].startswith(demo["instruction"][:20]) and "{{" not in demo["instruction"]
    assert demo["viewport"] == [640, 400] and demo["mode"] == "gui"
    assert set(demo["counts"]) == {"gui", "tool"}
    assert demo["counts"]["gui"]["gui_actions"] == len(demo["steps"]) and demo["counts"]["tool"]["tool_calls"] == 5
    step = demo["steps"][0]
    assert step["phase"] == "Read the enquiry" and step["target"]["interaction"] == "shell:launch:files"
    assert len(demo["state_hash"]) == 64
    # Every GUI step has its frame, re-rendered by replay at the dataset's viewport.
    for line in lines:
        for s in line["steps"]:
            frame = tmp_path / s["frame"]
            assert frame.is_file(), s
    assert _png_size(tmp_path / demo["steps"][0]["frame"]) == (640, 400)

    summary = json.loads((tmp_path / "summary.json").read_text())
    conv = summary["convention"]
    assert conv["tokens_per_observation"] == 342 and conv["bytes_per_token"] == 4  # ceil(640*400/750)
    assert "convention, not a measurement" in conv["note"]
    per = summary["procedures"]["legal-conflict-check"]
    assert (per["episodes"], per["verified"], per["negatives"], per["rejected"], per["tool_verified"]) == (2, 2, 4, 4, 2)
    gui = sum(d["counts"]["gui"]["gui_actions"] for d in demos if d["procedure"] == "legal-conflict-check")
    assert per["gui_actions"] == gui and per["tool_calls"] == 10
    assert per["keyboard_share"] == round(per["key_actions"] / per["gui_actions"], 4)
    assert per["tokens"]["gui"] == gui * 342 + -(-per["gui_action_bytes"] // 4)
    assert per["tokens"]["ratio"] > 50
    assert summary["totals"]["lines"] == 12 and summary["totals"]["frames"] == sum(len(line["steps"]) for line in lines)
    assert summary["problems"] == []


def test_the_same_options_write_the_same_dataset(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    assert dataset_cli.run(_args(first, procedures=PROCEDURES[:1], episodes=1, negatives=1)) == 0
    assert dataset_cli.run(_args(second, procedures=PROCEDURES[:1], episodes=1, negatives=1)) == 0
    assert (first / "episodes.jsonl").read_bytes() == (second / "episodes.jsonl").read_bytes()
    assert (first / "summary.json").read_bytes() == (second / "summary.json").read_bytes()


def test_tool_mode_datasets(tmp_path):
    assert dataset_cli.run(_args(tmp_path, mode="tool", negatives=1)) == 0
    lines = [json.loads(line) for line in (tmp_path / "episodes.jsonl").read_text().splitlines()]
    assert all(s["kind"] == "tool" for line in lines for s in line["steps"])
    assert all(set(line["counts"]) == {"tool"} for line in lines)


WEAK = {
    "id": "office-weak-note", "domain": "office", "instruction": "Write the colour down.",
    "params": [{"name": "colour", "kind": "choice", "choices": ["red", "green", "blue", "amber"]}],
    "phases": [{"label": "Write it", "gui": [
        {"do": "click", "target": {"interaction": "shell:launch:terminal"}},
        {"do": "type", "text": "echo {{colour}} > colour.txt\n"}],
        "tool": [{"family": "terminal.v1", "op": "execute", "payload": {"command": "echo {{colour}} > colour.txt"}}]}],
    # The check never looks at the colour, so a substituted colour still verifies.
    "verify": [{"file_exists": {"path": "colour.txt"}}],
}


def test_a_negative_that_verifies_fails_the_command_naming_the_episode(tmp_path, monkeypatch, capsys):
    weak = parse_procedure(WEAK)
    monkeypatch.setattr(library_module, "load_procedure", lambda procedure_id, root=None: weak)
    code = dataset_cli.run(_args(tmp_path, procedures=["office-weak-note"], episodes=1, negatives=2))
    assert code == 1
    err = capsys.readouterr().err
    assert "office-weak-note-s3-n1: the negative (substitute colour:" in err and "verifies" in err
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["problems"] and summary["procedures"]["office-weak-note"]["rejected"] == 1
    with pytest.raises(dataset.DatasetError, match="office-weak-note-s3-n1"):
        dataset.generate(tmp_path / "again", dataset.Options(procedures=["office-weak-note"], episodes=1, seed_start=3, negatives=2), fail_fast=True)


def test_bad_arguments_are_refused(tmp_path, capsys):
    assert dataset_cli.run(_args(tmp_path, procedures=["no-such-procedure"])) == 2
    assert "no procedure 'no-such-procedure'" in capsys.readouterr().err
    assert dataset_cli.run(_args(tmp_path, episodes=0)) == 2


def test_the_convention():
    assert dataset.tokens_per_observation(1280, 800) == 1366
    assert dataset.convention(1280, 800)["tokens_per_observation"] == 1366
