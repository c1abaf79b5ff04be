"""The overview's content: one row per episode, the dataset's counts, and the plot.

The plot is episode length against success per task: a row per task, a mark per episode
at its length, filled for a success and hollow for a failure. It is a PNG drawn with
matplotlib when that is installed, else an SVG written here; both show the same marks.
"""

from __future__ import annotations

from collections import Counter
from html import escape
from pathlib import Path
from typing import Any

__all__ = ["LENGTHS", "counts", "episode_row", "plot"]

#: Episode length buckets of the dataset counts: (label, least steps, most steps).
LENGTHS = (("1-5", 1, 5), ("6-10", 6, 10), ("11-20", 11, 20), ("21-50", 21, 50), ("51+", 51, None))
SUCCESS, FAILURE = "#2e8b57", "#c0392b"


def episode_row(trace: dict[str, Any], page: str) -> dict[str, Any]:
    """What the overview lists of an episode (and links to its page)."""
    return {
        "name": trace["name"], "page": page, "task": trace["task"], "seed": trace["seed"],
        "steps": trace["steps"], "success": bool(trace["success"]), "return": trace["return"],
        "verified": bool(trace["verified"]), "divergence": trace["divergence"],
        "kind": trace.get("kind"), "domain": trace.get("domain"), "mode": trace.get("mode"),
    }


def _length(steps: int) -> str:
    for label, low, high in LENGTHS:
        if steps >= low and (high is None or steps <= high):
            return label
    return "0"


def counts(rows: list[dict[str, Any]], traces_meta: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """A dataset's episodes counted by procedure, domain, mode, length and negatives
    (``kind``: demonstration, negative or human; and each negative's corruption kind)."""
    out: dict[str, Counter] = {k: Counter() for k in ("procedure", "domain", "mode", "length", "negatives")}
    for row, meta in zip(rows, traces_meta):
        out["procedure"][row["task"]] += 1
        out["domain"][str(row.get("domain") or "-")] += 1
        out["mode"][str(row.get("mode") or "-")] += 1
        out["length"][_length(row["steps"])] += 1
        out["negatives"][str(row.get("kind") or "demonstration")] += 1
        corruption = meta.get("corruption")
        if isinstance(corruption, dict):
            out["negatives"][f"negative: {corruption.get('kind', '?')}"] += 1
    order = [label for label, _, _ in LENGTHS]
    result = {k: dict(sorted(v.items())) for k, v in out.items()}
    result["length"] = {k: out["length"][k] for k in ["0", *order] if out["length"][k]}
    return result


def _by_task(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    tasks: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        tasks.setdefault(str(row["task"]).removeprefix("cwgym/"), []).append(row)
    return tasks


def _png(rows: list[dict[str, Any]], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    tasks = _by_task(rows)
    fig, ax = plt.subplots(figsize=(8, max(2.5, 0.24 * len(tasks) + 1.2)))
    for y, episodes in enumerate(tasks.values()):
        for won, colour in ((True, SUCCESS), (False, FAILURE)):
            xs = [r["steps"] for r in episodes if r["success"] == won]
            if xs:
                ax.scatter(xs, [y] * len(xs), s=28, marker="o", facecolors=colour if won else "none", edgecolors=colour,
                           label="success" if won else "failure")
    from matplotlib.ticker import MaxNLocator

    ax.set_yticks(range(len(tasks)), list(tasks))
    ax.set_ylim(-0.6, len(tasks) - 0.4)
    ax.set_xlim(0, max([r["steps"] for r in rows] + [1]) + 1)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.tick_params(axis="y", labelsize=7)
    ax.invert_yaxis()
    ax.grid(axis="x", color="#eee")
    ax.set_xlabel("episode length (steps)")
    ax.set_title("episode length against success, per task")
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles))
    ax.legend(unique.values(), unique.keys(), loc="best", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90, metadata={"Software": None})
    plt.close(fig)
    return True


def _svg(rows: list[dict[str, Any]]) -> str:
    tasks = _by_task(rows)
    longest = max([r["steps"] for r in rows] + [1])
    left, top, row_h, width = 260, 30, 18, 720
    plot_w = width - left - 20
    height = top + row_h * len(tasks) + 40
    x = lambda steps: left + plot_w * steps / longest  # noqa: E731
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
             f'<text x="{width / 2}" y="16" text-anchor="middle" font-size="13">episode length against success, per task</text>']
    for y_index, (task, episodes) in enumerate(tasks.items()):
        y = top + row_h * y_index + row_h / 2
        parts.append(f'<text x="{left - 6}" y="{y + 4}" text-anchor="end">{escape(task)}</text>')
        parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y}" y2="{y}" stroke="#eee"/>')
        for r in episodes:
            colour = SUCCESS if r["success"] else FAILURE
            fill = colour if r["success"] else "none"
            parts.append(f'<circle cx="{x(r["steps"]):.1f}" cy="{y}" r="4" fill="{fill}" stroke="{colour}"><title>{escape(r["name"])}: {r["steps"]} steps</title></circle>')
    base = top + row_h * len(tasks) + 4
    parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{base}" y2="{base}" stroke="#444"/>')
    for tick in sorted({0, longest // 2, longest}):
        parts.append(f'<text x="{x(tick):.1f}" y="{base + 14}" text-anchor="middle">{tick}</text>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{base + 30}" text-anchor="middle">episode length (steps); filled: success, hollow: failure</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def plot(rows: list[dict[str, Any]], folder: Path, use_matplotlib: bool = True) -> str:
    """Write the plot into ``folder``; its file name (``plot.png`` or ``plot.svg``)."""
    if use_matplotlib and _png(rows, folder / "plot.png"):
        return "plot.png"
    (folder / "plot.svg").write_text(_svg(rows), encoding="utf-8")
    return "plot.svg"
