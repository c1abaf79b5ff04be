"""Reading procedure files: every problem names the file, the JSON path and what is wrong."""

from __future__ import annotations

import copy
import json

import pytest

from cwgym.procedures import ProcedureError, load_all, load_procedure, parse_procedure
from cwgym.procedures.library import load_file
from cwgym.procedures.model import Click, Drag, Key, Scroll, Type
from cwgym.resources import procedures_dir

FILE = "procedures/legal/legal-engagement-letter.json"


def base() -> dict:
    return json.loads((procedures_dir() / "legal" / "legal-engagement-letter.json").read_text())


def problem(mutate) -> ProcedureError:
    data = base()
    mutate(data)
    with pytest.raises(ProcedureError) as info:
        parse_procedure(data, FILE)
    return info.value


def test_the_message_is_file_path_problem():
    error = problem(lambda d: d["phases"][2]["tool"][0].update(op="exec"))
    assert (error.file, error.path) == (FILE, "$.phases[2].tool[0].op")
    assert "unknown terminal.v1 operation 'exec'" in error.problem
    assert str(error) == f"{FILE}: $.phases[2].tool[0].op: {error.problem}"
    assert isinstance(error, ValueError)


CASES = [
    ("wrong type", lambda d: d["phases"][2]["tool"][0].update(op=3), "$.phases[2].tool[0].op", "expected `str`"),
    ("machine in a tool call", lambda d: d["phases"][1]["tool"][0].update(machine="w"), "$.phases[1].tool[0]", "unknown field `machine`"),
    ("missing payload field", lambda d: d["phases"][1]["tool"][0].update(payload={}), "$.phases[1].tool[0].payload", "needs a string 'command'"),
    ("filesystem op", lambda d: d["phases"][1]["tool"].append({"family": "filesystem.v1", "op": "wirte", "payload": {}}), "$.phases[1].tool[1].op", "unknown filesystem.v1 operation"),
    ("unknown gesture", lambda d: d["phases"][0].update(gui=[{"do": "clik"}]), "$.phases[0].gui[0].do", "known: click, double_click"),
    ("empty target", lambda d: d["phases"][0].update(gui=[{"do": "click", "target": {"app": "files"}}]), "$.phases[0].gui[0].target", "at least one of role, label, text or interaction"),
    ("unknown target field", lambda d: d["phases"][0].update(gui=[{"do": "click", "target": {"name": "x"}}]), "$.phases[0].gui[0].target", "unknown field `name`"),
    ("bad key", lambda d: d["phases"][0].update(gui=[{"do": "key", "key": "Ctrl+Nope"}]), "$.phases[0].gui[0].key", "not a key name"),
    ("still scroll", lambda d: d["phases"][0].update(gui=[{"do": "scroll"}]), "$.phases[0].gui[0]", "moves by dx or dy"),
    ("drag to nowhere", lambda d: d["phases"][0].update(gui=[{"do": "drag", "from": {"label": "a"}}]), "$.phases[0].gui[0]", "ends on a target (to) or at an offset"),
    ("drag to both", lambda d: d["phases"][0].update(gui=[{"do": "drag", "from": {"label": "a"}, "to": {"label": "b"}, "dx": 5}]), "$.phases[0].gui[0]", "not both"),
    ("unknown parameter", lambda d: d["phases"][0].update(gui=[{"do": "type", "text": "{{nope}}"}]), "$.phases[0].gui[0].text", "no parameter 'nope'"),
    ("capture not bound yet", lambda d: d["phases"][1]["tool"][0]["payload"].update(command="echo {{@inv}}"), "$.phases[1].tool[0].payload.command", "no capture 'inv'"),
    ("capture in the instruction", lambda d: d.update(instruction="Open {{@inv}}"), "$.instruction", "captured values cannot be used here"),
    ("unknown filter", lambda d: d.update(instruction="{{client|shout}}"), "$.instruction", "unknown filter 'shout'"),
    ("malformed placeholder", lambda d: d.update(instruction="{{client name}}"), "$.instruction", "malformed placeholder"),
    ("no field", lambda d: d.update(instruction="{{client.name}}"), "$.instruction", "has no fields"),
    ("two checks in one", lambda d: d["verify"].append({"file_exists": {"path": "a"}, "file_absent": {"path": "b"}}), "$.verify[3]", "exactly one of"),
    ("unknown check", lambda d: d["verify"].append({"file_exist": {"path": "a"}}), "$.verify[3]", "unknown field `file_exist`"),
    ("state without a test", lambda d: d["verify"].append({"state": {"pointer": "/state"}}), "$.verify[3].state", "exactly one of equals or contains"),
    ("bad pointer", lambda d: d["verify"].append({"find": {"pointer": "state/x"}}), "$.verify[3].find.pointer", "JSON pointer"),
    ("unknown parameter kind", lambda d: d["params"].append({"name": "x", "kind": "dice"}), "$.params[7].kind", "known: choice, integer"),
    ("empty range", lambda d: d["params"].append({"name": "x", "kind": "integer", "min": 5, "max": 1}), "$.params[7].max", "below min"),
    ("duplicate parameter", lambda d: d["params"].append({"name": "client", "kind": "integer", "min": 1, "max": 2}), "$.params[7].name", "defined twice"),
    ("later parameter", lambda d: d["params"].insert(0, {"name": "x", "kind": "format", "template": "{{client}}"}), "$.params[0].template", "no parameter 'client'"),
    ("not arithmetic", lambda d: d["params"].append({"name": "x", "kind": "expr", "expr": "__import__('os')"}), "$.params[7].expr", "only min() and max()"),
    ("bad date", lambda d: d["params"].append({"name": "x", "kind": "date", "start": "2026-13-01", "end": "2026-12-01"}), "$.params[7].start", "month must be"),
    ("setup with two bodies", lambda d: d["setup"][0].update(content="x"), "$.setup[0]", "exactly one of content, lines"),
    ("capture without a pattern", lambda d: d["phases"][1].update(capture=[{"name": "n", "from": {"file": "a.txt"}}]), "$.phases[1].capture[0].pattern", "needs a pattern"),
    ("capture bound twice", lambda d: d["phases"][1].update(capture=[{"name": "n", "from": {"command": "ls"}, "pattern": "{{?}}"}] * 2), "$.phases[1].capture[1].name", "bound twice"),
    ("no phases", lambda d: d.update(phases=[]), "$.phases", "at least one phase"),
    ("bad id", lambda d: d.update(id="Legal Engagement"), "$.id", "lower-case"),
]


@pytest.mark.parametrize(("mutate", "path", "text"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_problem_is_named(mutate, path, text):
    error = problem(mutate)
    assert error.file == FILE
    assert error.path == path
    assert text in error.problem


def test_not_json():
    with pytest.raises(ProcedureError, match=r"^x.json: \$: not JSON"):
        parse_procedure(b"{nope", "x.json")


def test_gestures_are_parsed():
    data = base()
    data["phases"][1]["gui"] = [
        {"do": "click", "target": {"interaction": "shell:launch:*", "app": "files"}},
        {"do": "double_click", "target": {"label": "Matters/", "app": "files"}},
        {"do": "right_click", "target": {"role": "listitem", "text": "intake"}},
        {"do": "drag", "from": {"label": "a.txt"}, "to": {"label": "Archive/"}},
        {"do": "drag", "from": {"interaction": "window:*:drag"}, "dx": 40, "dy": -10},
        {"do": "key", "key": "Ctrl+s"},
        {"do": "type", "text": " {{client}}"},
        {"do": "scroll", "target": {"role": "list"}, "dy": 3},
    ]
    procedure = parse_procedure(data, FILE)
    kinds = [type(g) for g in procedure.phases[1].gui]
    assert kinds[0] is Click and kinds[3] is Drag and kinds[5] is Key and kinds[6] is Type and kinds[7] is Scroll
    assert procedure.phases[1].gui[3].from_.label == "a.txt"
    assert (procedure.phases[1].gui[4].to, procedure.phases[1].gui[4].dx) == (None, 40)


def test_library_files_sit_in_their_domain_folder(tmp_path):
    folder = tmp_path / "office"
    folder.mkdir()
    data = base()
    (folder / "letter.json").write_text(json.dumps(data))
    with pytest.raises(ProcedureError, match=r"\$\.domain: domain 'legal' but the file is in folder 'office'"):
        load_file(folder / "letter.json")


def test_library_ids_are_unique(tmp_path):
    for domain in ("legal", "office"):
        (tmp_path / domain).mkdir()
        (tmp_path / domain / "legal-engagement-letter.json").write_text(json.dumps({**base(), "domain": domain}))
    with pytest.raises(ProcedureError, match="is also used by"):
        load_all(tmp_path)
    with pytest.raises(ProcedureError, match="is also used by"):
        load_procedure("legal-engagement-letter", tmp_path)


def test_a_file_is_named_by_its_id(tmp_path):
    folder = tmp_path / "legal"
    folder.mkdir()
    (folder / "letter.json").write_text(json.dumps(base()))
    with pytest.raises(ProcedureError) as info:
        load_file(folder / "letter.json")
    assert info.value.path == "$.id"
    assert str(folder / "letter.json") in str(info.value)
    assert "'legal-engagement-letter'" in info.value.problem and "'letter.json'" in info.value.problem


def test_loading_one_procedure_reads_only_its_file(tmp_path):
    folder = tmp_path / "legal"
    folder.mkdir()
    (folder / "legal-engagement-letter.json").write_text(json.dumps(base()))
    (folder / "legal-broken.json").write_text("{not json")
    assert load_procedure("legal-engagement-letter", tmp_path).id == "legal-engagement-letter"
    with pytest.raises(ProcedureError, match="not JSON"):
        load_procedure("legal-broken", tmp_path)
    with pytest.raises(KeyError, match="known: legal-broken, legal-engagement-letter"):
        load_procedure("legal-*", tmp_path)


def test_the_library_loads_sorted_by_id():
    procedures = load_all()
    ids = [p.id for p in procedures]
    assert ids == sorted(ids)
    domains = {p.domain for p in procedures}
    assert {"legal", "bookkeeping", "operations", "office"} <= domains
    assert load_procedure("legal-engagement-letter").domain == "legal"
    with pytest.raises(KeyError, match="no procedure 'nope'"):
        load_procedure("nope")


def test_a_procedure_round_trips_as_plain_data():
    procedure = load_procedure("office-room-booking")
    again = parse_procedure(copy.deepcopy(procedure.to_plain()))
    assert again == procedure
