"""``cwgym procedure debug``: every step with the control it hit; on a miss, the screen."""

from __future__ import annotations

import argparse
import io

from cwgym.cli import procedure as procedure_cli
from cwgym.procedures.debug import debug, describe_action, format_screen


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cwgym")
    sub = parser.add_subparsers(dest="command", required=True)
    procedure_cli.add_parser(sub)
    return parser


def _run(argv: list[str], capsys) -> tuple[int, str]:
    args = _parser().parse_args(argv)
    code = args.run(args)
    return code, capsys.readouterr().out


def test_debug_prints_every_step_with_the_control_it_hit(capsys, tmp_path):
    png = tmp_path / "end.png"
    code, out = _run(["procedure", "debug", "legal-engagement-letter", "--seed", "7", "--png", str(png)], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "legal-engagement-letter seed 7: gui mode, 1280x800, typing text"
    assert lines[1].startswith("instruction: Open matter 2026-")
    assert "phase 1/5: Open the matter folder and read the intake memo" in lines
    assert any(line.endswith("->  button 'Files' shell:launch:files [shell]") and " click (" in line for line in lines)
    assert any("double_click" in line and "row 'Matters/' window:0:content:open:" in line for line in lines)
    assert any("type ' " in line for line in lines)
    assert "verification: passed (3/3 checks)" in lines
    assert lines[-2].startswith("state hash: ") and lines[-1] == f"saved the screen of session-0 to {png}"
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_upto_stops_after_a_phase(capsys):
    code, out = _run(["procedure", "debug", "legal-engagement-letter", "--seed", "7", "--upto", "2"], capsys)
    assert code == 0
    assert "phase 2/2: Start the letter from the firm's template" in out and "phase 3/" not in out
    assert "phases 1..2 of 5" in out.splitlines()[0]
    assert "verification: FAILED" in out  # the letter is not filled in yet
    assert "what session session-0 has on screen now:" in out and "controls:" in out


def test_tool_mode(capsys, tmp_path):
    code, out = _run(["procedure", "debug", "ops-backup-script", "--seed", "1", "--mode", "tool", "--png", str(tmp_path / "x.png")], capsys)
    assert code == 0
    assert "terminal.v1 execute 'chmod 755 ~/bin/backup-" in out
    assert "no screen to save: tool mode acted through no desktop session" in out


def test_a_miss_prints_the_sessions_windows_and_controls(tmp_path):
    missing = {
        "id": "office-missing-button", "domain": "office", "instruction": "Press it.",
        "phases": [
            {"label": "Open the terminal", "writes": False, "gui": [{"do": "click", "target": {"interaction": "shell:launch:terminal"}}]},
            {"label": "Press the button", "gui": [{"do": "click", "target": {"role": "button", "label": "Launch", "app": "terminal"}}],
             "tool": [{"family": "terminal.v1", "op": "execute", "payload": {"command": "touch x"}}]},
        ],
        "verify": [{"file_exists": {"path": "x"}}],
    }
    out = io.StringIO()
    png = tmp_path / "miss.png"
    assert debug(missing, 0, text=True, png=str(png), out=out) == 1
    text = out.getvalue()
    assert "STOPPED in phase 2 (Press the button): Press the button: nothing on screen matches {role: 'button', label: 'Launch', app: 'terminal'}" in text
    assert "windows (bottom to top):" in text and "window 0 terminal 'ada@workstation: ~'" in text
    assert "textbox    'Terminal'" in text and "window:0:content:terminal-input [terminal]" in text
    assert "painted text:" in text and "'ada@workstation: ~'" in text
    assert "verification: FAILED (0/1 checks)" in text
    assert png.is_file()
    quiet = io.StringIO()
    debug(missing, 0, out=quiet)
    assert "painted text:" not in quiet.getvalue() and "controls:" in quiet.getvalue()


def test_unknown_procedures_and_bad_sizes(capsys):
    code = procedure_cli.run(argparse.Namespace(procedure_command="debug", id="nope", seed=0, mode="gui", upto=None,
                                                text=False, png=None, size="1280x800", typing="text"))
    assert code == 2 and "no procedure 'nope'" in capsys.readouterr().err


def test_list(capsys):
    code, out = _run(["procedure", "list"], capsys)
    assert code == 0 and "legal-engagement-letter" in out and "bookkeeping" in out


def test_the_describers():
    assert describe_action({"family": "pointer.v1", "op": "down", "payload": {"x": 1, "y": 2, "button": 2}}) == "down button 2 (1, 2)"
    assert describe_action({"family": "keyboard.v1", "op": "key", "payload": {"key": "Ctrl+s"}}) == "key Ctrl+s"
    assert describe_action({"family": "filesystem.v1", "op": "move", "payload": {"from": "a", "to": "b"}}) == "filesystem.v1 move a -> b"
    screen = {"viewport": [10, 10], "focus": None, "windows": [], "controls": [], "text": [{"text": "hi", "window": None, "bounds": [0, 0, 2, 2]}]}
    assert format_screen(screen, text=True)[-1] == "  shell     (0, 0, 2, 2) 'hi'"
