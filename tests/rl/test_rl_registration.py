"""Registration from envs/*.json: ids, string entry points, JSON kwargs, the suites' contents,
`extends`, `cwgym list`, reloading for another data folder, and procedures registered as data."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import pytest
from gymnasium.envs.registration import EnvSpec
from rl_kit import BY_ID, ENTRIES, IDS, ids, short

import cwgym
from cwgym import World
from cwgym.cli import envs as envs_cli
from cwgym.cli.common import UserError
from cwgym.procedures import ProcedureError, stage
from cwgym.procedures.library import load_all
from cwgym.resources import DataError, load_world
from cwgym.rl.config import TaskConfig, task_config
from cwgym.rl.registration import (
    DEFAULT_MAX_EPISODE_STEPS,
    ENTRY_POINT,
    VECTOR_ENTRY_POINT,
    register_envs,
    reload_envs,
)
from cwgym.rl.specs import SpecError, load_suites, suite_defaults

ROOT = Path(__file__).resolve().parents[2]


def test_every_entry_is_registered_with_string_entry_points():
    assert len(IDS) == len(set(IDS))
    for e in ENTRIES:
        spec = gym.spec(e.id)
        assert spec.entry_point == ENTRY_POINT and spec.vector_entry_point == VECTOR_ENTRY_POINT
        assert spec.kwargs == e.kwargs and spec.max_episode_steps == e.max_episode_steps
        assert e.id == f"cwgym/{e.name}-v{e.version}"


def test_registering_again_changes_nothing():
    before = {i: gym.spec(i) for i in IDS}
    assert register_envs() == IDS
    assert all(gym.spec(i) is before[i] for i in IDS)


@pytest.mark.parametrize("env_id", IDS, ids=short)
def test_the_spec_round_trips_through_json(env_id):
    spec = gym.spec(env_id)
    text = spec.to_json()
    again = EnvSpec.from_json(text)
    assert again == spec and again.to_json() == text
    task_config(json.loads(text)["kwargs"])  # the kwargs are a valid configuration as they stand


@pytest.mark.skipif("cwgym.rl" not in (ROOT / "cwgym" / "__init__.py").read_text(),
                    reason="waits for `import cwgym.rl` in cwgym/__init__.py")
def test_make_with_the_module_prefix_needs_no_import():
    code = "import gymnasium; env = gymnasium.make('cwgym:cwgym/terminal-ops-backup-script-v0'); print(env.reset(seed=1)[0]['instruction'][:7])"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "Install"


def test_every_entry_states_disjoint_train_and_test_seeds():
    for e in ENTRIES:
        config = task_config(e.kwargs)
        (a, b), (c, d) = config.train_seeds, config.test_seeds
        assert "train_seeds" in e.kwargs and "test_seeds" in e.kwargs, e.id
        assert b <= c or d <= a, e.id
        assert e.max_episode_steps is not None, e.id


def test_the_easy_tier_has_at_least_twelve_seeded_desktop_tasks():
    easy = [BY_ID[i] for i in ids("easy")]
    assert len(easy) >= 12
    library = {p.id: p for p in load_all()}
    template = World(load_world("ubuntu-workstation"), seed=0)
    snapshot = template.snapshot()
    for e in easy:
        procedure = library[e.kwargs["procedure"]]
        assert procedure.domain == "easy"
        assert "pointer.v1" in e.kwargs["actions"] and "envelopes" not in e.kwargs["interface"]
        instructions = {stage(template.fork(snapshot), procedure, seed).instruction for seed in range(20)}
        assert len(instructions) >= 3, f"{e.id}: the instruction hardly varies with the seed"


def test_every_library_procedure_is_a_screen_env_and_every_tool_only_one_a_terminal_env():
    library = [p for p in load_all() if p.domain not in ("easy", "web", "workflows")]
    screen = {BY_ID[i].kwargs["procedure"] for i in ids("procedures") + ids("apps")}
    assert screen == {p.id for p in library}
    for i in ids("procedures") + ids("apps"):
        kwargs = BY_ID[i].kwargs
        # the library's screen envs moved to v1 when the top bar began to act; the apps' began at v0
        assert i == f"cwgym/{kwargs['procedure']}-v{1 if BY_ID[i].suite == 'procedures' else 0}"
        assert kwargs["interface"] == "screen" and "pixels" in kwargs["obs"]
    terminal = {BY_ID[i].kwargs["procedure"]: BY_ID[i].kwargs for i in ids("terminal")}
    for p in (p for p in library if p.domain != "apps"):  # the applications' tasks are screen tasks only
        families = {call.family for phase in p.phases for call in phase.tool}
        if families <= {"terminal.v1", "filesystem.v1"}:
            kwargs = terminal[p.id]
            assert sorted(families) == kwargs["actions"] and kwargs["interface"] == "envelopes"
            assert kwargs["obs"] == ["terminal", "instruction"]


def test_every_web_task_is_a_semantic_env_and_a_pixel_env_with_one_action_space():
    web = sorted(p.id for p in load_all() if p.domain == "web")
    assert len(web) >= 50 and {BY_ID[i].kwargs["procedure"] for i in ids("web")} == set(web)
    pointer = {"web-choose-date", "web-drag-sort-numbers", "web-use-slider"}  # their experts drag or click between rows
    for pid in web:
        semantic, pixels = BY_ID[f"cwgym/{pid}-v0"].kwargs, BY_ID[f"cwgym/{pid}-pixels-v0"].kwargs
        assert semantic["obs"] == ["elements", "instruction"] and pixels["obs"] == ["pixels", "instruction"]
        assert semantic["viewport"] == pixels["viewport"] == [160, 210]
        assert "browser.v1" in semantic["actions"]
        assert ("pointer" in semantic["interface"]) == (pid in pointer)
    spaces = {repr(gym.make(f"cwgym/{pid}-v0").action_space) for pid in web if pid not in pointer}
    assert len(spaces) == 1, "every element-table web kind shares one action space, as MiniWoB++ agents expect"
    assert len({repr(gym.make(f"cwgym/{pid}-pixels-v0").action_space) for pid in web}) == 1


def test_a_broken_suite_file_is_refused_strictly_and_skipped_on_import(tmp_path):
    (tmp_path / "good.json").write_text(json.dumps({"envs": [{"name": "x", "procedure": "ops-backup-script"}]}))
    (tmp_path / "bad.json").write_text(json.dumps({"envs": [{"name": "y", "procedure": "p", "speed": 3}]}))
    with pytest.raises(SpecError, match=r"bad\.json envs\[0\].*unknown field.*speed"):
        load_suites(tmp_path)
    with pytest.warns(UserWarning, match="skipping"):
        entries = load_suites(tmp_path, strict=False)
    assert [e.id for e in entries] == ["cwgym/x-v0"]


def test_one_id_in_two_files_is_refused(tmp_path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.json").write_text(json.dumps({"envs": [{"name": "same", "procedure": "ops-backup-script"}]}))
    with pytest.raises(SpecError, match=r"also defined in a\.json"):
        load_suites(tmp_path)


def test_a_selector_entry_stands_for_one_env_per_selected_procedure(tmp_path):
    suite = {"defaults": {"obs": ["instruction"]},
             "envs": [{"name": "t-{procedure}", "procedures": {"domains": ["legal"], "tool_families": ["terminal.v1"]},
                       "actions": "tool-families", "observations": ["terminal.v1"], "interface": "envelopes"}]}
    (tmp_path / "s.json").write_text(json.dumps(suite))
    entries = load_suites(tmp_path)
    legal = sorted(p.id for p in load_all() if p.domain == "legal"
                   and {c.family for ph in p.phases for c in ph.tool} == {"terminal.v1"})
    assert [e.kwargs["procedure"] for e in entries] == legal
    assert all(e.kwargs["actions"] == ["terminal.v1"] and e.title for e in entries)


def test_unknown_keyword_arguments_name_themselves():
    with pytest.raises(TypeError, match="speed"):
        gym.make("cwgym/terminal-ops-backup-script-v0", speed=3)
    with pytest.raises(ValueError, match=r"pixels\.v1"):
        gym.make("cwgym/terminal-ops-backup-script-v0", obs=["pixels"])
    with pytest.raises(ValueError, match="overlap"):
        gym.make("cwgym/terminal-ops-backup-script-v0", test_seeds=[10, 20], train_seeds=[0, 15])
    assert set(TaskConfig.__struct_fields__) >= {k for e in ENTRIES for k in e.kwargs}


def _cli(argv):
    parser = argparse.ArgumentParser()
    envs_cli.add_parser(parser.add_subparsers())
    args = parser.parse_args(argv)
    return args.run(args)


def test_cwgym_list_prints_ids_tasks_interfaces_and_step_limits(capsys):
    assert _cli(["list"]) == 0
    out = capsys.readouterr().out
    for e in ENTRIES:
        line = next(line for line in out.splitlines() if f" {e.id} " in line)
        assert e.interface in line and f"{e.max_episode_steps} steps" in line and e.title in line
    assert "[easy]" in out and "[terminal]" in out


def test_cwgym_list_json_and_suite_filter(capsys):
    assert _cli(["list", "--suite", "terminal", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["id"] for r in rows] == ids("terminal")
    with pytest.raises(UserError, match=r"--suite 'nope': no such suite \(the suites are apps, easy, procedures, terminal"):
        _cli(["list", "--suite", "nope"])


def test_cwgym_list_by_id(capsys):
    assert _cli(["list", "cwgym/terminal-ops-backup-script-v0", "cwgym/easy-open-app-v1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "[terminal]" and "cwgym/terminal-ops-backup-script-v0" in out[1]
    assert out[3] == "[easy]" and "cwgym/easy-open-app-v1" in out[4]


# -- "extends": a suite takes another's defaults ---------------------------------------------------
def _suites(folder: Path, **files: dict) -> Path:
    for name, data in files.items():
        (folder / f"{name}.json").write_text(json.dumps(data))
    return folder


def test_a_suite_extends_the_defaults_of_another_and_its_parents(tmp_path):
    _suites(
        tmp_path,
        base={"defaults": {"obs": ["terminal", "instruction"], "max_episode_steps": 30, "reward": "partial"}, "envs": []},
        middle={"extends": "base", "defaults": {"interface": "envelopes", "observations": ["terminal.v1"]}, "envs": []},
        child={"suite": "kids", "extends": "middle", "defaults": {"max_episode_steps": 9},
               "envs": [{"name": "kid", "procedure": "ops-backup-script", "actions": ["terminal.v1"]}]},
    )
    [kid] = load_suites(tmp_path)
    assert kid.suite == "kids" and kid.max_episode_steps == 9
    assert kid.kwargs == {"obs": ["terminal", "instruction"], "reward": "partial", "interface": "envelopes",
                          "observations": ["terminal.v1"], "procedure": "ops-backup-script", "actions": ["terminal.v1"]}
    assert suite_defaults(tmp_path / "child.json")["reward"] == "partial"


def test_the_bundled_suites_may_be_extended(tmp_path):
    (tmp_path / "easy.json").write_text((ROOT / "envs" / "easy.json").read_text())
    _suites(tmp_path, mine={"extends": "easy", "envs": [{"name": "mine", "procedure": "easy-open-app", "interface": "click-element"}]})
    mine = next(e for e in load_suites(tmp_path) if e.suite == "mine")
    assert mine.max_episode_steps == 40 and mine.kwargs["preset"] == "sb3"


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"a": {"extends": "nope", "envs": []}, "b": {"envs": []}},
         r"^a\.json: extends 'nope', but there is no nope\.json beside it \(suites here: b\)$"),
        ({"a": {"extends": "b", "envs": []}, "b": {"extends": "c", "envs": []}, "c": {"extends": "a", "envs": []}},
         r"^c\.json: 'extends' makes a cycle \(a -> b -> c -> a\)$"),
        ({"a": {"extends": "a", "envs": []}}, r"^a\.json: 'extends' makes a cycle \(a -> a\)$"),
        ({"a": {"extends": "lb", "envs": []}, "lb": {"kind": "leaderboard", "tasks": []}},
         r"^a\.json: extends 'lb', a leaderboard suite, which has no defaults$"),
        ({"a": {"extends": "easy.json", "envs": []}}, r"^a\.json: 'extends' names another suite of this folder"),
        ({"a": {"extends": "b", "envs": []}, "b": {"envs": [], "defualts": {}}}, r"^b\.json: unknown key\(s\) defualts"),
        ({"a": {"envs": [], "defaults": []}}, r"^a\.json: 'defaults' must be an object$"),
    ],
    ids=["unknown parent", "cycle", "itself", "leaderboard", "file name", "parent's typo", "defaults"],
)
def test_extends_refuses_unknown_parents_and_cycles_naming_the_file(tmp_path, files, message):
    _suites(tmp_path, **files)
    with pytest.raises(SpecError, match=message):
        load_suites(tmp_path)


# -- register_procedure: a procedure given as data, as an env ----------------------------------------
def _procedure(**changes) -> dict:
    data = json.loads((ROOT / "procedures" / "easy" / "easy-new-folder.json").read_text())
    data.update({"id": "notebook-new-folder", "domain": "notebook", **changes})
    return data


def test_register_procedure_makes_a_gymnasium_env(monkeypatch):
    env_id = cwgym.register_procedure(_procedure())
    try:
        assert env_id == "cwgym/notebook-new-folder-v0"
        spec = gym.spec(env_id)
        assert spec.max_episode_steps == DEFAULT_MAX_EPISODE_STEPS and spec.kwargs == {"procedure": "notebook-new-folder", "interface": "screen"}
        assert EnvSpec.from_json(spec.to_json()) == spec
        env = gym.make(env_id)
        obs, info = env.reset(seed=2)
        assert info["instruction"].startswith("Open Files from the dock and make a new folder named")
        assert set(obs) == {"pixels", "instruction"} and obs["pixels"].shape == (800, 1280, 3)
        _, reward, terminated, _, info = env.step('{"done": true}')
        assert terminated and reward == 0.0 and not info["verification"]["passed"]
    finally:
        gym.registry.pop(env_id, None)


def test_register_procedure_takes_the_world_interface_step_limit_and_any_config():
    env_id = cwgym.register_procedure(
        json.dumps(_procedure()), name="notebook-table", version=2, world="ubuntu-workstation",
        interface="click-element", max_episode_steps=7, obs=["elements", "instruction"], elements=32,
    )
    try:
        assert env_id == "cwgym/notebook-table-v2" and gym.spec(env_id).max_episode_steps == 7
        env = gym.make(env_id)
        obs, _ = env.reset(seed=0)
        assert set(obs) == {"elements", "instruction"} and obs["elements"].shape[0] == 32
        assert isinstance(env.action_space, gym.spaces.Discrete)
        for _ in range(7):
            *_, terminated, truncated, _ = env.step(0)
            if terminated or truncated:
                break
        assert truncated or terminated
    finally:
        gym.registry.pop(env_id, None)


def test_register_procedure_refuses_bad_input_before_registering():
    with pytest.raises(ProcedureError, match=r"^<register_procedure>: \$\.phases\[1\]\.tool\[0\]\.op: "):
        bad = _procedure()
        bad["phases"][1]["tool"][0]["op"] = "mkdri"
        cwgym.register_procedure(bad)
    with pytest.raises(ProcedureError, match=r"\$\.id: id 'easy-new-folder' is the library procedure easy-new-folder\.json"):
        cwgym.register_procedure(_procedure(id="easy-new-folder"))
    with pytest.raises(TypeError, match="speed"):
        cwgym.register_procedure(_procedure(), speed=3)
    with pytest.raises(ValueError, match="max_episode_steps"):
        cwgym.register_procedure(_procedure(), max_episode_steps=0)
    with pytest.raises(ValueError, match="name"):
        cwgym.register_procedure(_procedure(), name="a/b")
    with pytest.raises(DataError, match="no world 'atlantis'"):
        cwgym.register_procedure(_procedure(), world="atlantis")
    with pytest.raises(gym.error.RegistrationError, match="suite files"):
        cwgym.register_procedure(_procedure(), name="easy-new-folder", version=1)
    assert "cwgym/notebook-new-folder-v0" not in gym.registry
    assert gym.spec("cwgym/easy-new-folder-v1").kwargs["procedure"] == "easy-new-folder"


def test_reload_envs_follows_the_data_folder(tmp_path, monkeypatch):
    (tmp_path / "worlds").symlink_to(ROOT / "worlds")
    (tmp_path / "envs").mkdir()
    _suites(tmp_path / "envs", solo={"envs": [{"name": "solo", "procedure": "ops-backup-script", "max_episode_steps": 5}]})
    monkeypatch.setenv("CWGYM_DATA", str(tmp_path))
    try:
        assert reload_envs() == ["cwgym/solo-v0"]
        assert gym.spec("cwgym/solo-v0").max_episode_steps == 5 and "cwgym/easy-new-folder-v1" not in gym.registry
    finally:
        monkeypatch.delenv("CWGYM_DATA")
        assert reload_envs() == IDS
    assert "cwgym/solo-v0" not in gym.registry and all(gym.spec(i).kwargs == BY_ID[i].kwargs for i in IDS)
