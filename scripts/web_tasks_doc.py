"""Regenerate the table of web task kinds in docs/web-tasks.md and its screenshots.

    python scripts/web_tasks_doc.py

For every kind registered in ``cwgym.webtasks.TASK_KINDS`` it stages seed 0 of the kind's
procedure in the ``web-tasks`` world, opens the agent's session (the kiosk browser loads
the page), writes the 160 x 210 screen to ``docs/images/webtasks/<kind>.png``, and
rewrites the table between the ``kinds:begin`` and ``kinds:end`` markers of the page. Each
picture is a pure function of the engine and the seed, so running it again shows exactly
what a change did.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cwgym import World  # noqa: E402
from cwgym.procedures import stage  # noqa: E402
from cwgym.render import to_png  # noqa: E402
from cwgym.resources import load_world  # noqa: E402
from cwgym.webtasks import FAMILIES, TASK_KINDS  # noqa: E402

PAGE = ROOT / "docs" / "web-tasks.md"
IMAGES = ROOT / "docs" / "images" / "webtasks"
BEGIN, END = "<!-- kinds:begin -->", "<!-- kinds:end -->"
WIDTH, HEIGHT = 160, 210


def screenshot(kind: str) -> str:
    """Seed 0 of ``web-<kind>`` as the agent first sees it; returns the instruction."""
    world = World(load_world("web-tasks"), seed=0)
    instance = stage(world, f"web-{kind}", 0)
    env = world.environment({"actor": "agent", "machines": ["kiosk"],
                             "actions": ["application.v1", "browser.v1", "keyboard.v1", "pointer.v1"],
                             "observations": ["pixels.v1"]})
    frame = env.render(WIDTH, HEIGHT)
    (IMAGES / f"{kind}.png").write_bytes(to_png(frame["rgba"], WIDTH, HEIGHT))
    return instance.instruction


def table() -> str:
    kinds = sorted((k for _, k in TASK_KINDS.items()), key=lambda k: (FAMILIES.index(k.family), k.name))
    lines = ["| kind (env `cwgym/web-<kind>-v0`) | family | MiniWoB++ task | what it asks | what varies | seed 0 |",
             "|---|---|---|---|---|---|"]
    for kind in kinds:
        instruction = screenshot(kind.name).replace("|", "\\|")
        lines.append(f"| `{kind.name}` | {kind.family} | `{kind.miniwob}` | {kind.title}: *{instruction}* "
                     f"| {kind.variation} | ![{kind.name}](images/webtasks/{kind.name}.png) |")
    return "\n".join(lines)


def main() -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    for stale in IMAGES.glob("*.png"):  # a kind that went takes its picture with it
        if stale.stem not in TASK_KINDS:
            stale.unlink()
    text = PAGE.read_text()
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    PAGE.write_text(f"{head}{BEGIN}\n{table()}\n{END}{tail}")
    print(f"{PAGE}: {len(TASK_KINDS.names())} kinds")


if __name__ == "__main__":
    main()
