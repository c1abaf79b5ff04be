"""``baselines/make_results.py`` writes RESULTS.md from run directories, with the random
agent measured on the same test seeds."""

from __future__ import annotations

import json
import struct
import zlib

from baselines.make_results import main, random_success


def _png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(b"\0\0")) + chunk(b"IEND", b"")


def _run(tmp_path, name: str, rate: float, wall: float, seed: int = 0, steps: int = 30000) -> object:
    run = tmp_path / name
    run.mkdir()
    (run / "learning_curve.png").write_bytes(_png())
    (run / "train.json").write_text(json.dumps({
        "command": f"cwgym train --algo ppo --env cwgym/easy-open-app-v1 --out runs/{name}",
        "algo": "ppo", "env": "cwgym/easy-open-app-v1", "reward": "the env's", "steps": steps, "n_envs": 8,
        "vec": "cwgym", "seed": seed, "wall_seconds": wall, "torch_threads": 1,
        "machine": {"platform": "Linux-test", "processor": "", "cpus": 2},
        "versions": {"cwgym": "0.1.0", "stable-baselines3": "2.9.2", "python": "3.11.7"},
        "test": {"test_seeds": [1000000, 1000004], "episodes": 4, "success_rate": rate},
    }))
    return run


def test_the_page_is_written_from_the_runs(tmp_path):
    good, slow = _run(tmp_path, "good", 1.0, 90.0), _run(tmp_path, "slow", 1.0, 2400.0, steps=900000)
    notes = tmp_path / "notes.md"
    notes.write_text("## What did not learn\n\nA note.\n")
    out = tmp_path / "site" / "RESULTS.md"
    assert main([str(good), str(slow), "--out", str(out), "--notes", str(notes)]) == 0
    page = out.read_text()
    rows = [line for line in page.splitlines() if line.startswith("| `cwgym/easy-open-app-v1`")]
    assert len(rows) == 2
    assert "**100%**" in rows[0] and "| yes |" in rows[0] and "1.5 min" in rows[0]
    assert "| no |" in rows[1]  # over 30 minutes of training does not meet the target
    assert "cwgym train --algo ppo --env cwgym/easy-open-app-v1 --out runs/good" in page
    assert (out.parent / "results" / "good.png").read_bytes() == _png()
    assert page.rstrip().endswith("A note.")


def test_a_cloned_start_is_named_in_the_row(tmp_path):
    run = _run(tmp_path, "bc", 1.0, 60.0)
    report = json.loads((run / "train.json").read_text())
    report["bc"] = {"episodes": 100, "seeds": [0, 100], "transitions": 400, "epochs": 200, "loss": 0.2, "accuracy": 0.9}
    (run / "train.json").write_text(json.dumps(report))
    out = tmp_path / "R.md"
    assert main([str(run), "--out", str(out)]) == 0
    assert "| PPO after cloning 100 expert episodes |" in out.read_text()


def test_a_run_without_a_test_evaluation_is_refused(tmp_path, capsys):
    run = _run(tmp_path, "bare", 1.0, 10.0)
    report = json.loads((run / "train.json").read_text())
    del report["test"]
    (run / "train.json").write_text(json.dumps(report))
    assert main([str(run), "--out", str(tmp_path / "R.md")]) == 2
    assert "--eval-episodes" in capsys.readouterr().err


def test_the_random_agent_is_measured_on_the_given_seeds():
    rate = random_success("cwgym/easy-open-app-v1", range(1000000, 1000004))
    assert rate == random_success("cwgym/easy-open-app-v1", range(1000000, 1000004))  # seeded
    assert 0.0 <= rate <= 0.5


def test_runs_that_differ_only_in_seed_are_one_row_with_mean_and_range(tmp_path):
    runs = [_run(tmp_path, f"s{seed}", rate, 60.0 * (seed + 1), seed=seed) for seed, rate in enumerate([1.0, 0.75, 0.5])]
    out = tmp_path / "R.md"
    assert main([*map(str, runs), "--out", str(out)]) == 0
    rows = [line for line in out.read_text().splitlines() if line.startswith("| `cwgym/easy-open-app-v1`")]
    assert len(rows) == 1
    assert "| 0, 1, 2 |" in rows[0] and "2.0 min" in rows[0] and "**75%** (50%–100%)" in rows[0]
    assert "| no |" in rows[0]  # the mean, not the best seed, is held to the target


def test_rewriting_the_top_of_the_page_keeps_the_sections_other_scripts_wrote():
    from baselines.make_results import sections, splice

    page = splice(splice("# top\n", "web", "## Web\nrows"), "masked-easy", "## Masked\nrows")
    kept = sections(page)
    assert [k.splitlines()[1] for k in kept] == ["## Web", "## Masked"]
    assert all(k.startswith("<!-- section:") and k.endswith(":end -->") for k in kept)
    assert sections("# no sections\n") == []
