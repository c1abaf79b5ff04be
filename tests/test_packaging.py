"""The wheel carries the data folders, and the resolver finds them wherever cwgym runs."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import cwgym
from cwgym import resources

ROOT = Path(__file__).resolve().parents[1]


def test_versions():
    assert cwgym.__version__ and cwgym.engine_version
    from packaging.version import Version  # pip vendors packaging; pytest depends on it

    Version(cwgym.__version__)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        check=True,
        env={**os.environ, "PIP_ROOT_USER_ACTION": "ignore"},
    )
    return next(out.glob("cwgym-*.whl"))


def test_wheel_carries_worlds_procedures_and_envs(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "cwgym/_data/worlds/ubuntu-workstation/world.json" in names
    assert "cwgym/_data/worlds/small-office/world.json" in names
    assert any(n.startswith("cwgym/_data/procedures/") for n in names)
    assert any(n.startswith("cwgym/_data/envs/") for n in names)


def test_installed_wheel_resolves_its_own_data(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
        check=True,
        env={**os.environ, "PIP_ROOT_USER_ACTION": "ignore"},
    )
    code = "from cwgym.resources import data_root, load_world; print(data_root()); print(load_world()['id'])"
    env = {k: v for k, v in os.environ.items() if k != resources.ENV_VAR}
    env["PYTHONPATH"] = str(target)
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    root, world = out.stdout.split()
    assert Path(root) == target / "cwgym" / "_data"
    assert world == "ubuntu-workstation"


def test_environment_variable_wins(tmp_path, monkeypatch):
    (tmp_path / "worlds" / "tiny").mkdir(parents=True)
    (tmp_path / "worlds" / "tiny" / "world.json").write_text('{"id": "tiny"}')
    monkeypatch.setenv(resources.ENV_VAR, str(tmp_path))
    assert resources.data_root() == tmp_path
    assert resources.world_names() == ["tiny"]
    assert resources.load_world("tiny") == {"id": "tiny"}


def test_checkout_is_found_without_the_variable(monkeypatch):
    monkeypatch.delenv(resources.ENV_VAR, raising=False)
    assert resources.data_root() == ROOT


def test_unknown_world_names_the_known_ones():
    with pytest.raises(FileNotFoundError, match="ubuntu-workstation"):
        resources.load_world("atlantis")
