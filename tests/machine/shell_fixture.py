"""The files every shell golden case starts from, in the simulator and in real bash.

The same dict seeds the simulated machine's home (``/home/ada``) and, in
``scripts/record_shell_cases.py``, a temporary folder real bash runs in.
"""

from __future__ import annotations

import msgspec

from cwgym.kernel.clock import Clock
from cwgym.machine.machine import Machine
from cwgym.protocol.definition import Computer, Profile

HOME = "/home/ada"

FILES: dict[str, str] = {
    "notes.txt": "Ask the handbook first\n",
    "Documents/expenses.csv": (
        "month,category,amount\n"
        "January,travel,1280\n"
        "January,meals,310\n"
        "February,travel,940\n"
        "February,office,125\n"
        "March,meals,402\n"
        "March,travel,1675\n"
    ),
    "Documents/report.md": "# Quarterly report\n\nTotals go here.\n",
    "data/numbers.txt": "10\n2\n33\n4\n2\n100\n-5\n",
    "data/words.txt": "pear\napple\nbanana\napple\ncherry\nbanana\napple\n",
    "data/people.tsv": "id\tname\tcity\n1\tAda\tLondon\n2\tGrace\tNew York\n3\tLinus\tHelsinki\n",
    "data/cities.txt": "1 London\n2 New York\n4 Paris\n",
    "data/mixed.txt": "alpha beta\nGamma delta\n\nepsilon  zeta\n  indented line\nlast line without newline",
    "data/log.txt": (
        "2026-09-17 09:00:01 INFO start\n"
        "2026-09-17 09:00:02 WARN disk 81%\n"
        "2026-09-17 09:00:03 ERROR failed to open db\n"
        "2026-09-17 09:00:04 INFO retry\n"
        "2026-09-17 09:00:05 ERROR timeout\n"
    ),
    "src/main.py": "def main():\n    print('hello')\n\nif __name__ == '__main__':\n    main()\n",
    "src/util.py": "def add(a, b):\n    return a + b\n",
    "src/README": "Source files\n",
    ".hidden": "secret\n",
}

PROFILE = Profile(id="ubuntu", name="Ubuntu 24.04", family="linux", home="/home/{user}")
COMPUTER = Computer(
    id="workstation",
    profile="ubuntu",
    address="10.0.0.10",
    user="ada",
    initial_files=FILES,
    installed_apps=["terminal", "files", "editor"],
)


def fixture_machine() -> Machine:
    """A fresh machine with the fixture files in its home, at tick 0."""
    return Machine(COMPUTER, PROFILE, Clock())


def fork_machine(frozen) -> Machine:
    """An independent machine from a frozen one (each case gets its own)."""
    return Machine.thaw(frozen, Clock())


def load_cases(path) -> list[dict]:
    with open(path, "rb") as handle:
        return msgspec.json.decode(handle.read())
