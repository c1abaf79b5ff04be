"""Record what real bash with GNU tools prints for shell golden cases.

    python scripts/record_shell_cases.py tests/machine/cases/text.json [...]

Each case whose ``source`` is ``bash`` runs under ``bash -c`` (``LC_ALL=C``, ``TZ=UTC``) in
a temporary folder holding the fixture files with their mtimes at the world epoch; the
folder's path is written back as ``/home/ada``. Its stdout, stderr and exit code replace
the case's. Cases marked ``manual`` are left alone. This is a development tool: it starts
real processes, so it lives outside the package and never runs in the simulator.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "machine"))
from shell_fixture import FILES, HOME

EPOCH = 1_789_635_600


def _materialise(root: Path) -> None:
    for name, content in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
    for path in sorted(root.rglob("*"), reverse=True):
        os.utime(path, (EPOCH, EPOCH), follow_symlinks=False)
    os.utime(root, (EPOCH, EPOCH))


def record(case: dict) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ada"
        root.mkdir()
        _materialise(root)
        env = {
            "HOME": str(root),
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "LC_ALL": "C",
            "LANG": "C",
            "TZ": "UTC",
            "USER": "ada",
            "LOGNAME": "ada",
            "SHELL": "/bin/bash",
        }
        for setup in case.get("setup", []):  # setup prepares files; its output is dropped
            subprocess.run(["bash", "-c", setup], cwd=root, env=env, capture_output=True, timeout=30)
        proc = subprocess.run(
            ["bash", "-c", case["command"]], cwd=root, env=env, capture_output=True, timeout=30
        )
        fix = lambda b: b.decode("utf-8", "replace").replace(str(root), HOME)  # noqa: E731
        case = dict(case)
        case["stdout"] = fix(proc.stdout)
        case["stderr"] = fix(proc.stderr).replace("bash: line 1: ", "")
        case["exit_code"] = proc.returncode
        return case


def main(paths: list[str]) -> None:
    for name in paths:
        path = Path(name)
        cases = msgspec.json.decode(path.read_bytes())
        out = [record(c) if c.get("source", "bash") == "bash" else c for c in cases]
        path.write_bytes(msgspec.json.format(msgspec.json.encode(out), indent=2) + b"\n")
        print(f"{path}: {sum(1 for c in cases if c.get('source', 'bash') == 'bash')} recorded")


if __name__ == "__main__":
    main(sys.argv[1:])
