"""``cwgym view`` without a browser: loading each input, replay with divergence
detection, the frame modes, the overview's content, bad input, and serving."""

from __future__ import annotations

import json
import threading
import urllib.request
from pathlib import Path

import numpy as np
import pytest
from viewer_kit import record, replay_to

from cwgym.cli import main
from cwgym.render import to_png
from cwgym.viewer import ViewerError, build_site, load
from cwgym.viewer.serve import server
from cwgym.viewer.site import slugs

FOLDER = "cwgym/easy-new-folder-v1"


def _trace(site: Path, row: int = 0) -> dict:
    page = json.loads((site / "site.json").read_text())["rows"][row]["page"]
    return json.loads((site / page.replace(".html", ".json")).read_text())


def _tampered(run: Path, tmp_path: Path, change) -> Path:
    submission = json.loads((run / "submission.json").read_text())
    change(submission["episodes"])
    folder = tmp_path / "tampered"
    folder.mkdir()
    (folder / "submission.json").write_text(json.dumps(submission))
    return folder


# -- loading ----------------------------------------------------------------------------------
def test_load_reads_a_run_its_submission_a_dataset_and_one_episode(eval_run, dataset_dir, tmp_path):
    run = load(eval_run)
    assert run.kind == "eval" and len(run.episodes) == 3 and run.title == "baselines.expert:make_agent on viewer-tiny"
    assert load(eval_run / "submission.json").episodes == run.episodes
    data = load(dataset_dir)
    assert data.kind == "dataset" and [e["kind"] for e in data.episodes] == ["demonstration", "negative"] * 2
    assert "summary" in data.meta
    one = tmp_path / "one.json"
    one.write_text(json.dumps(record(eval_run, FOLDER)))
    single = load(one)
    assert single.kind == "episode" and single.meta == {"format": "eval"} and len(single.episodes) == 1


@pytest.mark.parametrize(("write", "says"), [
    (None, "no such file or folder"),
    (lambda p: p.mkdir(), "holds neither submission.json"),
    (lambda p: p.with_suffix(".json").write_text("{oops"), "not valid JSON"),
    (lambda p: p.with_suffix(".jsonl").write_text('{"procedure": "x"}\n{oops\n'), ":1: the dataset episode record has no seed, sessions, steps, state_hash"),
    (lambda p: p.with_suffix(".jsonl").write_text("\n"), "holds no episodes"),
    (lambda p: p.with_suffix(".json").write_text('{"episodes": [{"env_id": "cwgym/easy-open-app-v1", "actions": [], "rewards": [], "final_state_hash": "x"}]}'),
     "episodes[0]: the episode ? records no seed"),
    (lambda p: p.with_suffix(".json").write_text('{"episodes": [7]}'), "an episode record is a JSON object, not int"),
    (lambda p: p.with_suffix(".json").write_text('{"env_id": "cwgym/no-such-v0", "seed": 1, "actions": [], "rewards": [], "final_state_hash": "x"}'), "cannot make env 'cwgym/no-such-v0'"),
])
def test_bad_input_is_a_clear_error_naming_the_file(tmp_path, write, says):
    target = tmp_path / "input"
    if write is not None:
        write(target)
    path = next(tmp_path.glob("input*"), target)
    with pytest.raises(ViewerError) as error:
        build_site(path, tmp_path / "site")
    assert says in str(error.value) and str(path) in str(error.value)


def test_the_command_reports_bad_input_in_one_line_with_status_2(tmp_path, capsys):
    assert main(["view", str(tmp_path / "nothing"), "--out", str(tmp_path / "site"), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"cwgym view: {tmp_path / 'nothing'}: no such file or folder (give a cwgym eval or cwgym dataset folder, or an episode file)"]


def test_out_must_be_a_new_folder_or_an_earlier_site(eval_run, tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    assert main(["view", str(eval_run), "--out", str(tmp_path / "file"), "--no-progress"]) == 2
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    assert main(["view", str(eval_run), "--out", str(tmp_path / "busy"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "a file, not a folder" in err and "holds no earlier cwgym view site" in err
    assert (tmp_path / "busy" / "notes.txt").read_text() == "mine"


# -- replay and divergence --------------------------------------------------------------------
def test_a_trace_has_every_step_with_its_action_pointer_hit_effects_checks_and_hash(eval_site, eval_run):
    trace = _trace(eval_site, 1)
    rec = record(eval_run, FOLDER)
    assert trace["name"] == rec["episode"] and trace["verified"] and trace["divergence"] is None
    positions = trace["positions"]
    assert len(positions) == rec["steps"] + 1 and positions[0]["action"] is None
    assert [p["action"] for p in positions[1:]] == rec["actions"]
    assert [p["reward"] for p in positions[1:]] == rec["rewards"]
    assert positions[-1]["hash"] == rec["final_state_hash"]
    assert positions[2]["hash"] == replay_to(rec, 2)[1]
    first = positions[1]
    assert first["envelopes"][0]["family"] == "pointer.v1" and first["pointer"] == [34, 129]
    assert first["hit"] == {"id": "shell:launch:files", "role": "button", "label": "Files", "bounds": [10, 105, 48, 48]}
    assert "window.opened" in first["effects"]
    assert [c["flipped"] for p in positions for c in p["checks"]] == [False] * rec["steps"] + [True]
    assert any(row["label"] == "New Folder" for row in trace["tables"][first["scene"]])
    assert "Make" in trace["instruction"] or "folder" in trace["instruction"]


def test_a_tampered_final_hash_is_reported_loudly_naming_episode_and_step(eval_run, tmp_path, capsys):
    def tamper(episodes):
        episodes[1]["final_state_hash"] = "0" * 64
    folder = _tampered(eval_run, tmp_path, tamper)
    status = main(["view", str(folder), "--out", str(tmp_path / "site"), "--frames", "none", "--no-progress", "--jobs", "1"])
    err = capsys.readouterr().err
    name = record(eval_run, FOLDER)["episode"]
    assert status == 1
    assert f"cwgym view: REPLAY DIVERGES: episode {name}: step 4: final state hash recorded 0000000000000000…" in err
    page = (tmp_path / "site" / "episodes" / f"{name.replace('cwgym/', '').replace('#', '-')}.html").read_text()
    assert 'class="banner divergent"' in page and f"episode {name}: step 4" in page
    overview = (tmp_path / "site" / "index.html").read_text()
    assert "REPLAY DIVERGES in 1 of 3 episodes" in overview and "DIVERGES</td>" in overview


def test_a_tampered_reward_names_its_step(eval_run, tmp_path):
    def tamper(episodes):
        episodes[1]["rewards"][1] = 0.5
    result = build_site(_tampered(eval_run, tmp_path, tamper), tmp_path / "site", "none")
    assert result.divergences == [f"episode {record(eval_run, FOLDER)['episode']}: step 2: reward recorded 0.5, replay gives 0.0"]


def test_a_tampered_step_hash_names_its_step(eval_run, tmp_path):
    """cwgym eval records the state hash after every step; the viewer checks each one."""
    assert len(record(eval_run, FOLDER)["state_hashes"]) == record(eval_run, FOLDER)["steps"]

    def tamper(episodes):
        episodes[1]["state_hashes"][1] = "0" * 64
    result = build_site(_tampered(eval_run, tmp_path, tamper), tmp_path / "site", "none")
    assert len(result.divergences) == 1
    assert result.divergences[0].startswith(f"episode {record(eval_run, FOLDER)['episode']}: step 2: state hash recorded 000000")


def test_a_dataset_replays_and_a_tampered_screen_digest_names_its_step(dataset_dir, tmp_path):
    result = build_site(dataset_dir, tmp_path / "good", "none")
    assert result.episodes == 4 and result.divergences == []
    site = json.loads((tmp_path / "good" / "site.json").read_text())
    assert [(r["kind"], r["success"]) for r in site["rows"]] == [("demonstration", True), ("negative", False)] * 2
    assert site["counts"]["procedure"] == {"easy-new-folder": 4}
    assert site["counts"]["negatives"] == {"demonstration": 2, "negative": 2, "negative: skip": 2}
    assert site["counts"]["length"] == {"1-5": 4} and site["counts"]["mode"] == {"gui": 4}
    assert 'data-dimension="domain"' in (tmp_path / "good" / "index.html").read_text()
    lines = (dataset_dir / "episodes.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    first["steps"][2]["scene"] = "12345"
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    bad = build_site(tampered, tmp_path / "bad", "none")
    assert bad.divergences == ["episode easy-new-folder-s0: step 3: the screen it was chosen from replays as scene "
                               f"{_trace(tmp_path / 'good')['positions'][2]['scene']}, recorded 12345"]


# -- frames -----------------------------------------------------------------------------------
def test_frames_every_changed_and_none(eval_run, tmp_path):
    every = build_site(eval_run, tmp_path / "every", "every")
    changed = build_site(eval_run, tmp_path / "changed", "changed")
    none = build_site(eval_run, tmp_path / "none", "none")
    traces = {mode: [_trace(tmp_path / mode, i) for i in range(3)] for mode in ("every", "changed", "none")}
    positions = sum(len(t["positions"]) for t in traces["every"])
    assert every.frames == positions == len(list((tmp_path / "every" / "frames").rglob("*.png")))
    assert 0 < changed.frames < every.frames == positions
    assert changed.frames == len(list((tmp_path / "changed" / "frames").rglob("*.png")))
    assert none.frames == 0 and not (tmp_path / "none" / "frames").exists()
    assert all(p["frame"] is None for t in traces["none"] for p in t["positions"])
    for trace in traces["changed"]:
        previous = None
        for p in trace["positions"]:
            assert (tmp_path / "changed" / p["frame"]).is_file()
            if previous is not None and p["scene"] == previous["scene"]:
                assert p["frame"] == previous["frame"]  # an unchanged screen shows the earlier file
            previous = p
    # a terminal task's screen does not change: one frame for its six positions
    assert len({p["frame"] for p in traces["changed"][2]["positions"]}) == 1
    # every frame is the renderer's PNG of its step
    rec = record(eval_run, FOLDER)
    for k in (0, 2, 4):
        frame = replay_to(rec, k)[0]
        rgba = np.concatenate([frame, np.full((*frame.shape[:2], 1), 255, np.uint8)], axis=2)
        assert (tmp_path / "every" / traces["every"][1]["positions"][k]["frame"]).read_bytes() == to_png(rgba.tobytes(), 1280, 800)


def test_a_rebuild_replaces_the_earlier_site(eval_run, tmp_path):
    build_site(eval_run, tmp_path / "site", "every")
    build_site(eval_run, tmp_path / "site", "none")
    assert not (tmp_path / "site" / "frames").exists()


# -- the overview ---------------------------------------------------------------------------
def test_the_plot_is_an_svg_without_matplotlib(eval_run, tmp_path):
    build_site(eval_run, tmp_path / "site", "none", use_matplotlib=False)
    svg = (tmp_path / "site" / "plot.svg").read_text()
    assert svg.startswith("<svg") and svg.count("<circle") == 3 and "easy-new-folder-v1" in svg
    assert 'src="plot.svg"' in (tmp_path / "site" / "index.html").read_text()


def test_the_site_is_self_contained(eval_site):
    for page in [eval_site / "index.html", *(eval_site / "episodes").glob("*.html")]:
        text = page.read_text()
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, page
    for script in (eval_site / "static").glob("*.js"):
        text = script.read_text()
        assert "fetch(" not in text and "XMLHttpRequest" not in text and "http" not in text


def test_slugs_are_safe_and_unique():
    assert slugs(["cwgym/easy-x-v0#7", "cwgym/easy-x-v0#7", "a b/c"]) == ["easy-x-v0-7", "easy-x-v0-7-2", "a-b-c"]


def test_two_processes_build_the_same_site(eval_run, eval_site, tmp_path):
    build_site(eval_run, tmp_path / "site", "changed", jobs=2)
    for i in range(3):
        assert _trace(tmp_path / "site", i) == _trace(eval_site, i)
    assert (tmp_path / "site" / "index.html").read_text() == (eval_site / "index.html").read_text().replace(str(eval_site), str(tmp_path / "site"))


def test_serve_answers_on_localhost_only(eval_site):
    httpd = server(eval_site, 0)
    host, port = httpd.server_address[:2]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        assert host == "127.0.0.1"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/index.html", timeout=10) as response:
            assert response.status == 200 and b'id="episodes"' in response.read()
    finally:
        httpd.shutdown()
        httpd.server_close()
