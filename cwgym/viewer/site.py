"""Building the static site: replay every episode, write its page, then the overview.

The site's layout (every path relative, so the folder can be moved or served anywhere)::

    index.html            the overview
    site.json             what the overview lists, as JSON
    plot.png | plot.svg   episode length against success per task
    episodes/<slug>.html  an episode page, its trace embedded
    episodes/<slug>.json  the same trace
    frames/<slug>/NNNN.png  the frames (``--frames every|changed``)
    static/               the CSS and the two scripts

Episodes replay independently, so with ``jobs > 1`` they are spread over that many
processes; the pages are the same either way.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cwgym.viewer.frames import FRAME_MODES, FrameWriter
from cwgym.viewer.load import Source, ViewerError, load, record_format
from cwgym.viewer.overview import counts, episode_row, plot
from cwgym.viewer.page import episode_page, overview_page
from cwgym.viewer.replay import replay_dataset, replay_eval

__all__ = ["SITE_FORMAT", "SiteResult", "build_site", "slugs"]

SITE_FORMAT = "cwgym-view/1"
STATIC = Path(__file__).resolve().parent / "static"
#: What a rebuild clears out of a previous site before writing.
OWNED = ("episodes", "frames", "static", "index.html", "site.json", "plot.png", "plot.svg")

_ENVS: dict[str, Any] = {}  # a process's envs by id, reused across its episodes


@dataclass
class SiteResult:
    """What :func:`build_site` wrote: the overview's path, counts, and each divergence."""

    index: Path
    episodes: int
    frames: int
    divergences: list[str] = field(default_factory=list)


def slugs(names: list[str]) -> list[str]:
    """A file-name-safe, unique slug per episode name (``cwgym/easy-x-v0#7`` -> ``easy-x-v0-7``)."""
    out, seen = [], set()
    for name in names:
        base = re.sub(r"[^A-Za-z0-9._-]+", "-", name.removeprefix("cwgym/")).strip("-.") or "episode"
        slug, n = base, 1
        while slug in seen:
            n += 1
            slug = f"{base}-{n}"
        seen.add(slug)
        out.append(slug)
    return out


def _episode(job: tuple[dict[str, Any], str, str, str, str]) -> tuple[dict[str, Any], dict[str, Any], int]:
    """Replay one record, write its page and JSON; its overview row, extra meta and frame count."""
    record, slug, site, mode, source = job
    folder = Path(site)
    frames = FrameWriter(folder, slug, mode)
    try:
        if record_format(record, slug) == "eval":
            trace = replay_eval(record, frames, _ENVS)
        else:
            trace = replay_dataset(record, frames)
    except ViewerError as exc:
        raise ViewerError(f"{source}: {exc}") from None
    trace["slug"] = slug
    (folder / "episodes" / f"{slug}.json").write_text(json.dumps(trace, ensure_ascii=False) + "\n", encoding="utf-8")
    (folder / "episodes" / f"{slug}.html").write_text(episode_page(trace), encoding="utf-8")
    return episode_row(trace, f"episodes/{slug}.html"), {"corruption": trace.get("corruption")}, frames.written


def _prepare(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise ViewerError(f"--out {out}: a file, not a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / "site.json").is_file():
        raise ViewerError(f"--out {out}: a folder that is not empty and holds no earlier cwgym view site (give a new folder)")
    for name in OWNED:
        target = out / name
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
    (out / "episodes").mkdir(parents=True, exist_ok=True)
    shutil.copytree(STATIC, out / "static")


def build_site(
    path: str | Path | Source,
    out: str | Path,
    frames: str = "changed",
    *,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    use_matplotlib: bool = True,
) -> SiteResult:
    """Replay the episodes at ``path`` (see :func:`cwgym.viewer.load.load`) into a site in ``out``.

    ``progress(1)`` is called as each episode is done. Divergences do not stop the build:
    each is on its page and the overview, and in the result.

    Raises:
        ViewerError: unreadable input, a record that cannot be replayed, or an ``out``
            that is a file or a non-empty folder other than an earlier site.
    """
    if frames not in FRAME_MODES:
        raise ViewerError(f"--frames is one of {', '.join(FRAME_MODES)}, got {frames!r}")
    if jobs < 1:
        raise ViewerError(f"jobs must be at least 1, got {jobs}")
    source = path if isinstance(path, Source) else load(path)
    site = Path(out)
    _prepare(site)
    names = [str(r.get("episode") or r.get("id") or f"{r.get('env_id') or r.get('procedure')}#{r.get('seed')}") for r in source.episodes]
    work = [(record, slug, str(site), frames, str(source.path)) for record, slug in zip(source.episodes, slugs(names))]
    done: list[tuple[dict[str, Any], dict[str, Any], int]] = []
    if jobs == 1 or len(work) < 2:
        for job in work:
            done.append(_episode(job))
            if progress is not None:
                progress(1)
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(min(jobs, len(work)), mp_context=multiprocessing.get_context("spawn")) as pool:
            for result in pool.map(_episode, work, chunksize=1):
                done.append(result)
                if progress is not None:
                    progress(1)
    rows = [row for row, _, _ in done]
    overview = {
        "format": SITE_FORMAT,
        "kind": source.kind,
        "title": source.title,
        "source": str(source.path),
        "frames": frames,
        "meta": source.meta,
        "rows": rows,
        "counts": counts(rows, [meta for _, meta, _ in done]) if source.kind == "dataset" else None,
        "plot": plot(rows, site, use_matplotlib),
    }
    (site / "site.json").write_text(json.dumps(overview, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (site / "index.html").write_text(overview_page(overview), encoding="utf-8")
    divergences = [r["divergence"] for r in rows if r["divergence"]]
    return SiteResult(site / "index.html", len(rows), sum(n for _, _, n in done), divergences)
