"""Load the reference-form samples of ``tests/services/data/reference_forms.json`` in both
engines and GET each one's home page: every sample must build and answer ``200`` in the
reference engine (so the shapes cwgym reads are the reference's own) and in cwgym.

    python -m benchmarks.check_reference_forms

Needs the reference engine (``pip install computerworld==0.2.0``); exits 1 on a failure.
Not a timing: it lives here because only benchmark environments may install that engine.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

from benchmarks.harness import reference_engine
from cwgym import World
from cwgym.resources import load_world

SAMPLES = Path(__file__).resolve().parent.parent / "tests" / "services" / "data" / "reference_forms.json"
URL = "http://wiki.office.internal/"


def _home(make, kind: str, state: dict) -> str:
    """``"200"``, another status, or the error building the world raised."""
    d = copy.deepcopy(load_world("small-office"))
    d["services"][0]["kind"], d["services"][0]["initial_state"] = kind, copy.deepcopy(state)
    computer = d["computers"][0]
    try:
        world = make(d, 7)
    except Exception as exc:  # either engine's refusal is the finding
        return f"refused: {exc}"
    env = world.environment({"actor": computer["user"], "machines": [computer["id"]], "actions": ["http.v1"],
                             "observations": []})
    out = env.step([{"family": "http.v1", "op": "request", "machine": computer["id"],
                     "payload": {"method": "GET", "url": URL}}])["outcomes"][0]
    return str(out["value"]["status"]) if out["success"] else f"failed: {out.get('error')}"


def main() -> int:
    ref = reference_engine()
    if ref is None:
        print("the reference engine is not installed here (pip install computerworld==0.2.0)")
        return 1
    failures = 0
    for kind, state in json.loads(SAMPLES.read_text()).items():
        theirs, ours = _home(ref.World, kind, state), _home(World, kind, state)
        ok = theirs == ours == "200"
        failures += not ok
        print(f"{kind:<10} reference {theirs[:80]:<12} cwgym {ours[:80]:<12} {'ok' if ok else 'FAIL'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
