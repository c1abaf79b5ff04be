"""The cwgym command: the demo (the README's main job), worlds, render."""

from __future__ import annotations

import json

from cwgym.cli import main


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
