"""The Ray vector env gives what Gymnasium's SyncVectorEnv gives for the same seeds and
actions — on a local Ray, on a two-node cluster, and when an actor is killed mid-rollout —
and fails loudly, never silently."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from rl_kit import same

import cwgym
from cwgym.rl import make_vector_env

ray = pytest.importorskip("ray")
from ray.cluster_utils import Cluster  # noqa: E402

from cwgym.rl.ray import RayVectorEnv  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EASY = "cwgym/easy-open-app-v1"  # click-element interface: action masks in info
CONFIGS = {
    "semantic": {"obs": ["elements", "instruction"], "preset": "sb3"},
    "pixels": {"obs": ["pixels", "instruction"], "preset": "sb3", "viewport": [84, 84]},
}
N, STEPS, LIMIT = 4, 14, 3  # episodes of at most LIMIT steps: several end and autoreset
MASK_AT = 7  # before this step, reset envs 0 and 2 only
MASK = np.array([True, False, True, False])
LOCAL_ONLY = pytest.mark.parametrize("ray_cluster", ["local"], indirect=True)


@pytest.fixture(scope="module", params=["local", "two-node"])
def ray_cluster(request):
    """Ray for this file: a local instance, or a head and a worker node of one CPU each."""
    if ray.is_initialized():
        ray.shutdown()
    cluster = None
    if request.param == "local":
        ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="warning", _node_ip_address="127.0.0.1")
    else:
        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
        cluster.add_node(num_cpus=1)
        ray.init(address=cluster.address, logging_level="warning")
    yield request.param
    ray.shutdown()
    if cluster is not None:
        cluster.shutdown()


def _kill(actor) -> None:
    """Kill an actor and wait until Ray reports it dead (ray.kill itself is asynchronous)."""
    ray.kill(actor)
    for _ in range(200):
        try:
            ray.get(actor.node_id.remote(), timeout=10)
        except ray.exceptions.RayActorError:
            return
    raise AssertionError("the killed actor still answers")


def _actions(envs, steps: int) -> list:
    envs.action_space.seed(3)
    return [envs.action_space.sample() for _ in range(steps)]


def _rollout(envs, actions, masks, *, before=None) -> list:
    """reset(seed=5), the actions with a masked reset before MASK_AT, every result and the
    action masks after each call; ``before(step, envs)`` runs before each step."""
    out = [(*envs.reset(seed=5), masks(envs))]
    for step, action in enumerate(actions):
        if before is not None:
            before(step, envs)
        if step == MASK_AT:
            out.append((*envs.reset(options={"reset_mask": MASK}), masks(envs)))
        out.append((*envs.step(action), masks(envs)))
    return out


def _sync_masks(envs) -> np.ndarray:
    return np.stack([env.unwrapped.action_masks() for env in envs.envs])


def _sync_run(config: dict, actions) -> tuple[list, list[str]]:
    envs = gym.make_vec(EASY, num_envs=N, vectorization_mode="sync", max_episode_steps=LIMIT, **config)
    try:
        return _rollout(envs, actions, _sync_masks), [env.unwrapped.state_hash() for env in envs.envs]
    finally:
        envs.close()


def _ray_envs(config: dict, **options) -> RayVectorEnv:
    return gym.make_vec(
        EASY, num_envs=N, vectorization_mode="vector_entry_point", backend="ray", max_episode_steps=LIMIT, **config, **options
    )


def _without(infos: dict, key: str) -> dict:
    return {k: v for k, v in infos.items() if k not in (key, f"_{key}")}


def _assert_same_runs(expected: list, got: list, ignore: str | None = None) -> None:
    assert len(expected) == len(got)
    for index, (mine, theirs) in enumerate(zip(expected, got)):
        *results, infos, masks = theirs
        *wanted, wanted_infos, wanted_masks = mine
        assert all(same(a, b) for a, b in zip(wanted, results)), f"call {index}: observations or rewards differ"
        assert same(wanted_infos, _without(infos, ignore) if ignore else infos), f"call {index}: infos differ"
        assert same(wanted_masks, masks), f"call {index}: action masks differ"
    truncations = np.array([r[3] for r in expected if len(r) == 6])
    assert truncations.any(), "no episode ended: autoreset was not exercised"


@pytest.mark.parametrize("obs", sorted(CONFIGS))
def test_ray_gives_what_sync_gives(ray_cluster, obs):
    config = CONFIGS[obs]
    envs = _ray_envs(config, actors=2)
    try:
        nodes = {ray.get(actor.node_id.remote()) for actor in envs._actors}
        assert len(nodes) == (2 if ray_cluster == "two-node" else 1)
        actions = _actions(envs, STEPS)
        got = _rollout(envs, actions, lambda e: e.action_masks())
        hashes = envs.state_hashes()
    finally:
        envs.close()
    expected, expected_hashes = _sync_run(config, actions)
    _assert_same_runs(expected, got)
    assert hashes == expected_hashes


@LOCAL_ONLY
def test_a_killed_actor_is_restored_and_the_run_is_unchanged(ray_cluster):
    config = CONFIGS["semantic"]
    envs = _ray_envs(config, actors=2, checkpoint_every=4)
    kills = {6: 0, MASK_AT: 1, 12: 0}  # mid-log after a checkpoint; just before a reset; again

    def kill(step, e):
        if step in kills:
            _kill(e._actors[kills[step]])

    try:
        actions = _actions(envs, STEPS)
        got = _rollout(envs, actions, lambda e: e.action_masks(), before=kill)
        hashes = envs.state_hashes()
        assert envs.restarts == 3
    finally:
        envs.close()
    expected, expected_hashes = _sync_run(config, actions)
    _assert_same_runs(expected, got, ignore="actor_restarted")
    assert hashes == expected_hashes
    # the call after each kill reports the restarted actor's envs, and no other call does:
    # calls are the reset, steps 0-6, the masked reset, steps 7-13
    restarted = {i: r[-2]["_actor_restarted"].tolist() for i, r in enumerate(got) if "actor_restarted" in r[-2]}
    assert restarted == {7: [True, True, False, False], 8: [False, False, True, True], 14: [True, True, False, False]}
    assert all(got[i][-2]["actor_restarted"][np.array(m)].all() for i, m in restarted.items())


@LOCAL_ONLY
def test_more_restarts_than_allowed_is_an_error_naming_the_actor(ray_cluster):
    envs = _ray_envs(CONFIGS["semantic"], actors=2, max_restarts=0)
    envs.reset(seed=0)
    _kill(envs._actors[1])
    with pytest.raises(RuntimeError, match=r"actor 1 \(envs 2\.\.3\) died .*max_restarts=0"):
        envs.step(np.zeros(N, dtype=np.int64))
    assert envs.closed
    with pytest.raises(gym.error.ClosedEnvironmentError):
        envs.step(np.zeros(N, dtype=np.int64))
    envs.close()


@LOCAL_ONLY
def test_an_error_inside_an_actor_surfaces_and_rolls_every_actor_back(ray_cluster):
    config = CONFIGS["semantic"]
    envs = _ray_envs(config, actors=2)
    try:
        with pytest.raises(RuntimeError, match="reset the env before stepping it"):
            envs.step(np.zeros(N, dtype=np.int64))  # raised inside both actors
        actions = _actions(envs, STEPS)

        def bad_reset(step, e):
            if step == 3:
                # env 3's seed is refused in actor 1 after env 2 was reset, and actor 0
                # reset both of its envs: all of it is undone
                with pytest.raises(gym.error.Error, match="greater or equal to zero") as failure:
                    e.reset(seed=[1, 2, 3, -1])
                assert any("actor 1 (envs 2..3)" in note for note in failure.value.__notes__)

        got = _rollout(envs, actions, lambda e: e.action_masks(), before=bad_reset)
    finally:
        envs.close()
    expected, _ = _sync_run(config, actions)
    _assert_same_runs(expected, got)


def _vec(n: int, **kwargs):
    return gym.make_vec(EASY, num_envs=n, vectorization_mode="vector_entry_point", **CONFIGS["pixels"], **kwargs)


@LOCAL_ONLY
def test_render_and_copy_as_the_local_env(ray_cluster):
    for mode in ("rgb_array", "ansi"):
        local = _vec(3, render_mode=mode)
        envs = _vec(3, render_mode=mode, backend="ray", actors=2, copy=False)
        try:
            obs, _ = envs.reset(seed=1)
            local.reset(seed=1)
            frames = envs.render()
            assert len(frames) == 3 and same(frames, local.render())
            again, *_ = envs.step(np.zeros(3, dtype=np.int64))
            assert again["pixels"] is obs["pixels"]  # copy=False: the batch arrays themselves
        finally:
            local.close()
            envs.close()


@LOCAL_ONLY
def test_close_kills_the_actors_and_leaves_the_callers_ray(ray_cluster):
    envs = _vec(2, backend="ray", actors=1)
    with pytest.raises(gym.error.ResetNeeded):
        envs.state_hashes()
    actor = envs._actors[0]
    envs.close()
    envs.close()  # closing twice is harmless
    with pytest.raises(ray.exceptions.RayActorError):
        ray.get(actor.node_id.remote())
    with pytest.raises(gym.error.ClosedEnvironmentError):
        envs.reset(seed=0)
    assert ray.is_initialized()  # the fixture's Ray: not the env's to shut down


@LOCAL_ONLY
def test_bad_options_are_errors_naming_them(ray_cluster):
    with pytest.raises(ValueError, match=r"address='127\.0\.0\.1:1', but Ray is already initialised"):
        RayVectorEnv(2, "easy-open-app", address="127.0.0.1:1")
    with pytest.raises(ValueError, match=r"actors=3 need 3 CPUs .* has 2"):
        RayVectorEnv(4, "easy-open-app", actors=3)
    for option, value in (("actors", 0), ("checkpoint_every", 0), ("max_restarts", -1), ("actors", "2")):
        with pytest.raises(ValueError, match=option):
            RayVectorEnv(2, "easy-open-app", **{option: value})
    with pytest.raises(TypeError, match="speed"):
        RayVectorEnv(2, "easy-open-app", speed=3)


@LOCAL_ONLY
def test_a_procedure_registered_as_data_reaches_the_actors(ray_cluster):
    data = json.loads((ROOT / "procedures" / "easy" / "easy-new-folder.json").read_text())
    data.update({"id": "ray-notebook-new-folder", "domain": "notebook"})
    env_id = cwgym.register_procedure(data, interface="click-element", obs=["elements", "instruction"], max_episode_steps=3)
    try:
        envs = gym.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point", backend="ray", actors=2)
        local = gym.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point")
        try:
            assert same(envs.reset(seed=4), local.reset(seed=4))
            action = np.array([1, 2])
            assert same(envs.step(action), local.step(action))
        finally:
            envs.close()
            local.close()
    finally:
        gym.registry.pop(env_id, None)


def test_make_vector_env_refuses_options_of_the_other_backend():
    with pytest.raises(ValueError, match="actors, checkpoint_every only apply with backend='ray'"):
        make_vector_env(2, procedure="easy-open-app", actors=2, checkpoint_every=4)
    with pytest.raises(ValueError, match="workers only apply with backend='local'"):
        make_vector_env(2, procedure="easy-open-app", backend="ray", workers=2)
    with pytest.raises(ValueError, match="backend must be one of 'local', 'ray', got 'dask'"):
        gym.make_vec(EASY, num_envs=2, vectorization_mode="vector_entry_point", backend="dask")


def _python(code: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}  # the child starts its own Ray
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)


def test_cwgym_imports_ray_only_when_asked_and_says_how_to_install_it():
    done = _python("import sys, cwgym, cwgym.rl; assert 'ray' not in sys.modules, 'ray imported'; print('ok')")
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
    missing = _python("import sys; sys.modules['ray'] = None; import cwgym.rl.ray")
    assert missing.returncode != 0 and "pip install 'cwgym[ray]'" in missing.stderr


def test_the_env_starts_ray_when_needed_and_shuts_down_only_the_ray_it_started():
    code = """
import ray, numpy as np
from cwgym.rl.ray import RayVectorEnv
assert not ray.is_initialized()
a = RayVectorEnv(2, "easy-open-app", actors=1, obs=["elements", "instruction"], preset="sb3")
b = RayVectorEnv(2, "easy-open-app", actors=1, obs=["elements", "instruction"], preset="sb3")
assert ray.is_initialized()
a.close()
assert ray.is_initialized()  # b still runs on it
b.reset(seed=0)
b.close()
assert not ray.is_initialized()
print("ok")
"""
    done = _python(code)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-3000:]
