"""Node revisions and scene digests are content digests, stable across processes."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

from scene_fixture import BLACK, desktop_scene

from cwgym.scene import Node, Rect, Scene, SceneBuilder, Semantic, UiText

ROOT = Path(__file__).resolve().parents[2]


def test_stamp_fills_revisions_and_digest():
    s = desktop_scene()
    assert s.digest != 0
    assert all(n.revision != 0 for n in s.nodes)
    assert s.stamp() == s.digest  # idempotent


def test_same_content_same_digest():
    a, b = desktop_scene(), desktop_scene()
    assert a.digest == b.digest
    assert [n.revision for n in a.painted()] == [n.revision for n in b.painted()]


def test_insertion_order_of_windows_and_layers_does_not_matter():
    # windows painted in the other order land on the same z layers and ids
    assert desktop_scene().digest == desktop_scene("reverse").digest


def test_insertion_order_within_one_z_matters():
    def build(order):
        s = Scene(100, 100)
        nodes = [
            Node(1, Rect(0, 0, 10, 10), UiText("a", 10, BLACK)),
            Node(2, Rect(0, 0, 10, 10), UiText("b", 10, BLACK)),
        ]
        for n in nodes if order else reversed(nodes):
            s.add(n)
        return s.stamp()

    assert build(True) != build(False)  # painter order is content


def test_any_change_changes_the_digest():
    base = desktop_scene()
    s = desktop_scene()
    s.nodes[3].semantic = Semantic("button", "Renamed")
    s.stamp()
    assert s.digest != base.digest
    assert s.nodes[3].revision != base.nodes[3].revision
    assert [n.revision for n in s.nodes[4:]] == [n.revision for n in base.nodes[4:]]
    for mutate in (
        lambda x: setattr(x, "background", (0, 0, 0, 0)),
        lambda x: x.buffers[0].lines.append("more"),
        lambda x: setattr(x.windows[0], "title", "Other"),
    ):
        t = desktop_scene()
        mutate(t)
        assert t.stamp() != base.digest


def test_copy_and_plain_round_trip_keep_the_digest():
    s = desktop_scene()
    dup = copy.deepcopy(s)
    assert dup.stamp() == s.digest
    back = Scene.from_plain(json.loads(json.dumps(s.to_plain())))
    assert back.digest == s.digest
    assert back.stamp() == s.digest


def test_builder_ids_are_deterministic():
    def ids():
        b = SceneBuilder(10, 10)
        with b.group(window=7):
            return [
                b.paint(UiText("x", 10, BLACK), Rect(0, 0, 1, 1), key=k).id for k in ("a", ("b", 1))
            ]

    assert ids() == ids()
    assert len(set(ids())) == 2


SCRIPT = """
import json, sys
sys.path.insert(0, {fixture!r})
from scene_fixture import desktop_scene
s = desktop_scene()
print(json.dumps({{
    "digest": s.digest,
    "revisions": [n.revision for n in s.painted()],
    "ax": [a.revision for a in s.accessibility()],
    "plain": s.to_plain(),
}}, sort_keys=True))
"""


def run(seed: str) -> dict:
    env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(fixture=str(Path(__file__).parent))],
        env=env,
        cwd=str(ROOT),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def test_digest_identical_in_fresh_processes_with_different_hash_seeds():
    one, two = run("1"), run("2")
    assert one == two
    here = desktop_scene()
    assert one["digest"] == here.digest
    assert one["plain"] == json.loads(json.dumps(here.to_plain()))
