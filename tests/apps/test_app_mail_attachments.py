"""Attachments in Thunderbird Mail (``mail``), driven only through the actor handle on the
company world: Attach… (a file chooser, by pointer and by keys), the attachment pane with
Remove, sending uploads the files, the recipient's client lists them and Save writes them
into ~/Downloads (a taken name gets `` (1)``), forwarding passes them on; missing,
unreadable or too large files are said in the window and change nothing; snapshot,
restore, replay and two runs of the same actions agree.

Files and mailboxes are checked through the owner's privileged views of the machines and
the service's state.
"""

from __future__ import annotations

import base64
import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import ok, one, point

from cwgym import EnvironmentConfig, World
from cwgym.apps.mail import ATTACH_BYTES_MAX, ATTACH_MAX
from cwgym.environment.replay import replay
from cwgym.machine.recent import recent
from cwgym.resources import load_world

W, H = 1280, 800
M, OMAR = "maya-ws", "omar-ws"
CSV = b"region,total\nnorth,1200\nsouth,950\n"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256))  # bytes that are not UTF-8
TOO_BIG = "x" * (ATTACH_BYTES_MAX + 1)


def _definition() -> dict:
    d = load_world("company")
    for c in d["computers"]:
        if c["id"] in (M, OMAR):
            c["installed_apps"].append("mail")
        if c["id"] == M:
            c["initial_files"]["Documents/q3.csv"] = CSV.decode()
            c["initial_files"]["Pictures/chart.png"] = (
                "data:image/png;base64," + base64.b64encode(PNG).decode()
            )
            c["initial_files"]["Documents/huge.txt"] = TOO_BIG
    return d


def _a(family: str, op: str, machine: str = M, **payload) -> dict:
    return {"family": family, "op": op, "machine": machine, "payload": payload}


class Desk:
    """One user's desktop session with Mail open."""

    def __init__(self, w: World, user: str = "maya", machine: str = M) -> None:
        self.w, self.m = w, machine
        self.env = w.environment(EnvironmentConfig.desktop(user, [machine]))
        ok(self.env, _a("application.v1", "launch", machine, kind="mail"))

    def click(self, target: str, op: str = "click") -> None:
        at = point(self.env.scene(W, H), f"window:0:content:{target}")
        assert at is not None, f"{target} cannot be reached"
        ok(self.env, _a("pointer.v1", op, self.m, x=at[0], y=at[1], width=W, height=H))

    def shell(self, target: str) -> dict:
        return one(
            self.env, _a("application.v1", "shell", self.m, target=f"window:0:content:{target}")
        )

    def keys(self, *names: str) -> None:
        for name in names:
            ok(self.env, _a("keyboard.v1", "key", self.m, key=name))

    def type(self, text: str) -> dict:
        return one(self.env, _a("keyboard.v1", "type", self.m, text=text))

    def elements(self) -> dict[str, dict]:
        return {
            e["id"]: e for e in self.env.observe()["channels"]["semantic.v1"][self.m]["elements"]
        }

    def controls(self, prefix: str) -> list[str]:
        head = f"window:0:content:{prefix}"
        return [k[len("window:0:content:") :] for k in self.elements() if k.startswith(head)]

    def labels(self, role: str) -> list[str]:
        return [
            n["semantic"]["label"]
            for n in self.env.scene(W, H)["nodes"]
            if n["semantic"] and n["semantic"]["role"] == role
        ]

    def texts(self) -> list[str]:
        return [t["text"] for t in self.env.observe()["channels"]["semantic.v1"][self.m]["text"]]

    def banner(self) -> str:
        found = self.labels("alert") + self.labels("status")
        return found[0] if found else ""

    def chooser_error(self) -> str:
        """What the Attach dialog's alert says ("" when it says nothing)."""
        return next(iter(self.labels("alert")), "") if self.labels("dialog") else ""

    def read(self, path: str) -> bytes:
        machine = self.w.machine(self.m)
        return machine.user_fs().read(path, machine.home)


def _box(w: World, user: str) -> list[dict]:
    return w.service_state("mail")["mailboxes"].get(user, [])


def _bytes(w: World, record: dict) -> bytes:
    return base64.b64decode(w.service_state("mail")["blobs"][record["sha256"]])


def _compose_with_two_files(maya: Desk) -> None:
    """Write to omar, attach q3.csv by pointer and chart.png by keys."""
    maya.click("write")
    maya.type("omar@northwind.internal")
    maya.click("compose-subject")
    maya.type("Q3 figures")
    maya.click("compose-attach")
    assert maya.labels("dialog") == ["Attach File(s)"]
    assert maya.elements()["window:0:content:attach-path"]["focused"] is True
    maya.click("attach-entry:Documents")  # a folder opens
    assert maya.controls("attach-entry:") == [
        "attach-entry:huge.txt",
        "attach-entry:logins.txt",
        "attach-entry:q3.csv",
    ]
    maya.click("attach-entry:q3.csv", "double_click")  # a double click attaches
    assert maya.labels("dialog") == []
    assert maya.labels("listitem") == ["q3.csv (34 bytes)"]
    maya.keys("Ctrl+Shift+a")  # by keys: the dialog opens on the last folder
    maya.keys("Alt+ArrowUp")
    maya.type("Pictures/chart.png")
    maya.keys("Enter")
    assert maya.labels("listitem") == ["q3.csv (34 bytes)", "chart.png (264 bytes)"]


def test_attach_send_and_the_recipient_saves_the_same_bytes():
    w = World(_definition(), 7)
    maya = Desk(w)
    _compose_with_two_files(maya)
    assert maya.controls("attachment-remove:") == ["attachment-remove:0", "attachment-remove:1"]
    maya.click("compose-send")
    assert maya.banner() == "Message sent."
    got = _box(w, "omar")[-1]
    assert [(a["name"], a["type"], a["size"]) for a in got["attachments"]] == [
        ("q3.csv", "text/csv", len(CSV)),
        ("chart.png", "image/png", len(PNG)),
    ]
    assert _bytes(w, got["attachments"][0]) == CSV and _bytes(w, got["attachments"][1]) == PNG
    assert _box(w, "maya")[-1]["folder"] == "Sent" and len(_box(w, "maya")[-1]["attachments"]) == 2
    # omar's client lists them under the headers, each with its Save button
    omar = Desk(w, "omar", OMAR)
    omar.click(f"message:{got['id']}")
    assert [b for b in omar.labels("button") if b.startswith("Save")] == [
        "Save q3.csv",
        "Save chart.png",
    ]
    omar.click("save-attachment:1")
    assert omar.banner() == "Saved chart.png in ~/Downloads."
    assert omar.read("Downloads/chart.png") == PNG
    out = omar.shell("save-attachment:1")  # the name is taken: a number is added
    assert out["success"] and out["effect"]["changed"] == ["content", "library"]
    assert omar.banner() == "Saved chart (1).png in ~/Downloads."
    assert omar.read("Downloads/chart (1).png") == PNG
    omar.click("save-attachment:0")
    assert omar.read("Downloads/q3.csv") == CSV
    assert recent(w.machine(OMAR))[0]["path"] == f"{w.machine(OMAR).home}/Downloads/q3.csv"
    assert omar.shell("save-attachment:2")["error"]["reason"] == "unknown_shell_target"


def test_forward_passes_the_attachments_on_and_reply_does_not():
    w = World(_definition(), 7)
    maya = Desk(w)
    _compose_with_two_files(maya)
    maya.keys("Ctrl+Enter")
    omar = Desk(w, "omar", OMAR)
    n = _box(w, "omar")[-1]["id"]
    omar.shell(f"message:{n}")
    omar.keys("Ctrl+r")
    assert omar.labels("listitem") == []
    omar.keys("Escape")
    omar.click("forward")
    assert omar.labels("listitem") == ["q3.csv (34 bytes)", "chart.png (264 bytes)"]
    omar.type("lena@northwind.internal")
    omar.click("attachment-remove:0")
    omar.click("compose-send")
    sent = _box(w, "lena")[-1]
    assert [a["name"] for a in sent["attachments"]] == ["chart.png"] and _bytes(
        w, sent["attachments"][0]
    ) == PNG
    assert sent["subject"] == "Fwd: Q3 figures"


def test_remove_by_keys_and_undo():
    w = World(_definition(), 7)
    maya = Desk(w)
    _compose_with_two_files(maya)
    maya.click("compose-body")
    maya.keys("Tab")  # the body, then the attachment pane, on the file attached last
    assert maya.elements()["window:0:content:attachment:1"]["focused"] is True
    maya.keys("Home")
    assert maya.elements()["window:0:content:attachment:0"]["focused"] is True
    maya.keys("ArrowDown", "Delete")
    assert maya.labels("listitem") == ["q3.csv (34 bytes)"]
    maya.keys("Backspace")
    assert maya.labels("listitem") == [] and "window:0:content:attachment:0" not in maya.elements()
    maya.keys("Ctrl+z")
    assert maya.labels("listitem") == ["q3.csv (34 bytes)"]
    maya.keys("Ctrl+z", "Ctrl+z")  # the removal, then the second attach
    assert maya.labels("listitem") == ["q3.csv (34 bytes)"]
    maya.keys("Ctrl+z")
    assert maya.labels("listitem") == []
    maya.keys("Escape")
    assert _box(w, "omar") == [m for m in _box(w, "omar") if "attachments" not in m]


def test_the_chooser_by_keys_lists_folders_first_and_cancels():
    w = World(_definition(), 7)
    maya = Desk(w)
    maya.keys("Ctrl+n", "Ctrl+Shift+a")
    entries = maya.controls("attach-entry:")
    assert entries[:3] == ["attach-entry:code", "attach-entry:Desktop", "attach-entry:Documents"]
    assert "attach-entry:.bashrc" not in entries  # hidden names are not listed
    assert maya.labels("list")[-1] == "/home/maya"
    maya.keys("ArrowDown", "ArrowDown", "ArrowDown")
    assert maya.elements()["window:0:content:attach-path"]["value"] == "Documents"
    maya.keys("Enter")  # a folder opens
    assert maya.labels("list")[-1] == "/home/maya/Documents"
    maya.keys("ArrowDown", "ArrowDown", "ArrowDown")
    assert maya.elements()["window:0:content:attach-entry:q3.csv"]["selected"] is True
    maya.click("attach-up")
    assert maya.labels("list")[-1] == "/home/maya"
    assert maya.shell("attach-entry:nothing-here")["error"]["reason"] == "unknown_shell_target"
    assert (
        maya.shell("compose-send")["error"]["reason"] == "unknown_shell_target"
    )  # the dialog is modal
    maya.keys("Escape")
    assert maya.labels("dialog") == [] and maya.labels("listitem") == []
    assert maya.elements()["window:0:content:compose-to"]["focused"] is True
    maya.click("compose-attach")
    maya.click("attach-cancel")
    assert maya.labels("dialog") == []


def test_missing_unreadable_and_too_large_files_are_said_and_change_nothing():
    w = World(_definition(), 7)
    machine = w.machine(M)
    fs = machine.fs
    fs.set_mode(fs.resolve("/home/maya/Documents/logins.txt"), 0o000)
    maya = Desk(w)
    maya.keys("Ctrl+n", "Ctrl+Shift+a")
    maya.keys("Enter")
    assert maya.chooser_error() == "Choose a file to attach."
    maya.type("~/Documents/nope.csv")
    maya.keys("Enter")
    assert (
        maya.chooser_error() == "Could not attach ~/Documents/nope.csv: No such file or directory."
    )
    maya.keys("Ctrl+a")
    maya.type("/home/maya/Documents/logins.txt")
    maya.click("attach-confirm")
    assert (
        maya.chooser_error()
        == "Could not attach /home/maya/Documents/logins.txt: Permission denied."
    )
    maya.keys("Ctrl+a")
    maya.type("Documents/huge.txt")
    maya.keys("Enter")
    assert maya.chooser_error() == (
        "Could not attach huge.txt (512.0 KB): the attachments of a message hold at most 512.0 KB together."
    )
    maya.keys("Escape")
    assert maya.labels("listitem") == []
    # the path field has a cap
    maya.keys("Ctrl+Shift+a")
    assert maya.type("p" * 4096)["success"]
    assert maya.type("p")["error"]["code"] == "invalid"
    maya.keys("Escape")
    # more than ATTACH_MAX files
    for _ in range(ATTACH_MAX):
        maya.keys("Ctrl+Shift+a")
        maya.type("~/Documents/q3.csv")
        maya.keys("Enter")
    head = f"{ATTACH_MAX} attachments, {ATTACH_MAX * len(CSV)} bytes"
    assert maya.texts().count(head) == 1
    maya.keys("Ctrl+Shift+a")
    maya.type("q3.csv")
    maya.keys("Enter")
    assert maya.chooser_error() == f"A message carries at most {ATTACH_MAX} attachments."
    maya.keys("Escape")
    assert maya.texts().count(head) == 1
    # the pane scrolls: the last file can be reached and removed by pointer
    maya.keys("Tab", "End")
    maya.click(f"attachment-remove:{ATTACH_MAX - 1}")
    assert (
        maya.texts().count(f"{ATTACH_MAX - 1} attachments, {(ATTACH_MAX - 1) * len(CSV)} bytes")
        == 1
    )


def test_a_file_gone_before_send_stops_the_send_and_keeps_the_draft():
    w = World(_definition(), 7)
    maya = Desk(w)
    _compose_with_two_files(maya)
    machine = w.machine(M)
    machine.user_fs().unlink("/home/maya/Documents/q3.csv", machine.home)
    before = len(_box(w, "omar"))
    maya.click("compose-send")
    assert maya.banner() == "Could not attach q3.csv: No such file or directory."
    assert len(_box(w, "omar")) == before
    assert maya.labels("listitem") == ["q3.csv (34 bytes)", "chart.png (264 bytes)"]
    maya.click("attachment-remove:0")
    maya.click("compose-send")
    assert [a["name"] for a in _box(w, "omar")[-1]["attachments"]] == ["chart.png"]


def test_saving_into_a_folder_that_refuses_says_so():
    w = World(_definition(), 7)
    maya = Desk(w)
    _compose_with_two_files(maya)
    maya.click("compose-send")
    machine = w.machine(OMAR)
    machine.user_fs().mkdir("Downloads", machine.home, 0o555)
    omar = Desk(w, "omar", OMAR)
    omar.shell(f"message:{_box(w, 'omar')[-1]['id']}")
    omar.shell("save-attachment:0")
    assert omar.banner() == "Could not save q3.csv in ~/Downloads: Permission denied."
    assert machine.user_fs().listdir("Downloads", machine.home) == []


def _session(seed: int) -> Desk:
    maya = Desk(World(_definition(), seed))
    _compose_with_two_files(maya)
    maya.keys("Ctrl+Shift+a", "ArrowDown")
    return maya


def test_snapshot_restore_replay_and_two_runs_agree():
    maya = _session(7)
    w = maya.w
    assert _session(7).w.state_hash() == w.state_hash()  # the same actions, the same world
    snap = w.snapshot()
    before = maya.elements()
    maya.keys("Escape", "Ctrl+Enter")
    assert len(_box(w, "omar")[-1]["attachments"]) == 2
    w.restore(snap)
    assert maya.elements() == before and maya.labels("dialog") == ["Attach File(s)"]
    assert all("attachments" not in m for m in _box(w, "omar"))
    maya.keys("Escape", "Ctrl+Enter")
    again = replay(_definition(), 7, w.trajectory())
    assert again.state_hash() == w.state_hash()
    digest = hashlib.sha256(CSV).hexdigest()
    assert digest in again.service_state("mail")["blobs"]
