"""The site's HTML: an episode page and the overview, with the trace embedded as JSON.

Pages are opened from disk (``file://``), where a script cannot fetch a neighbouring JSON
file, so each page carries its data in a ``<script type="application/json">`` element
(the same JSON is written beside it for other tools). Everything a page loads is a
relative path inside the site: its CSS, its script, its frames and the plot.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

__all__ = ["embed", "episode_page", "overview_page"]


def embed(element_id: str, data: Any) -> str:
    """``data`` as a JSON script element (``</`` escaped so it cannot end the element)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def _head(title: str, css: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="default-src \'self\' \'unsafe-inline\' data:; connect-src \'none\'">'
            f'<title>{escape(title)}</title><link rel="stylesheet" href="{css}"></head>\n')


def _banner(text: str | None) -> str:
    if not text:
        return '<div id="banner" class="banner ok">replay verified: every recorded reward, screen and state hash matches</div>'
    return f'<div id="banner" class="banner divergent" role="alert">REPLAY DIVERGES: {escape(text)}</div>'


def episode_page(trace: dict[str, Any], overview: str = "../index.html") -> str:
    """The episode page: frame, overlay, scrubber, step panel and element table."""
    width, height = trace["viewport"]
    last = len(trace["positions"]) - 1
    no_frames = '<p id="no-frames" class="note">frames were not built (--frames none)</p>' if trace["frames"] == "none" else ""
    return (
        _head(f"{trace['name']} - cwgym view", "../static/viewer.css")
        + '<body class="episode">\n'
        + f'<header><a id="overview-link" href="{overview}">&larr; overview</a> <h1 id="title">{escape(trace["name"])}</h1>'
        + f'<span class="meta">task <b>{escape(str(trace["task"]))}</b> seed <b>{escape(str(trace["seed"]))}</b> '
        + f'{last} steps, {"success" if trace["success"] else "failure"}</span></header>\n'
        + _banner(trace["divergence"]) + "\n"
        + f'<p id="instruction" class="instruction">{escape(trace.get("instruction") or "")}</p>\n'
        + '<nav class="stepper"><button id="prev" title="left arrow">&larr;</button>'
        + f'<input id="scrubber" type="range" min="0" max="{last}" value="0" aria-label="position">'
        + '<button id="next" title="right arrow">&rarr;</button> <span id="position"></span>'
        + '<label><input id="before" type="checkbox"> show the screen the action was chosen from</label></nav>\n'
        + '<main><section class="screen">'
        + f'<div id="frame-box" style="aspect-ratio: {width} / {height}">'
        + f'<img id="frame" alt="the screen at this position" width="{width}" height="{height}">'
        + f'<svg id="overlay" viewBox="0 0 {width} {height}" preserveAspectRatio="none">'
        + '<rect id="hit-box" class="hit" x="0" y="0" width="0" height="0" visibility="hidden"></rect>'
        + '<g id="pointer" visibility="hidden"><circle r="9"></circle><line id="ph"></line><line id="pv"></line></g></svg></div>'
        + no_frames
        + '<div id="step" class="panel"><h2>Step <span id="step-k"></span> <span id="step-phase" class="phase"></span></h2>'
        + '<dl><dt>action</dt><dd><pre id="step-action"></pre></dd>'
        + '<dt>envelopes</dt><dd><pre id="step-envelopes"></pre></dd>'
        + '<dt>outcome</dt><dd><pre id="step-outcome"></pre></dd>'
        + '<dt>effects</dt><dd id="step-effects"></dd>'
        + '<dt>hit</dt><dd id="step-hit"></dd>'
        + '<dt>reward</dt><dd><span id="step-reward"></span> (return <span id="step-return"></span>)</dd>'
        + '<dt>verifier</dt><dd><span id="step-verdict"></span><ul id="checks"></ul></dd>'
        + '<dt>state hash</dt><dd><code id="step-hash"></code></dd></dl></div>'
        + '</section>\n<aside class="elements"><h2>Elements <small id="element-count"></small></h2>'
        + '<table id="elements"><thead><tr><th>#</th><th>role</th><th>label</th><th>value</th><th>state</th><th>bounds</th></tr></thead>'
        + '<tbody></tbody></table></aside></main>\n'
        + embed("trace", trace) + "\n"
        + '<script src="../static/episode.js"></script>\n</body></html>\n'
    )


def _cell(value: Any, text: str | None = None) -> str:
    shown = escape(text if text is not None else str(value))
    return f'<td data-value="{escape(json.dumps(value))}">{shown}</td>'


def _row(row: dict[str, Any], dataset: bool) -> str:
    ret = row["return"]
    cells = [
        f'<td data-value="{escape(json.dumps(row["name"]))}"><a href="{escape(row["page"])}">{escape(row["name"])}</a></td>',
        _cell(row["task"]), _cell(row["seed"]), _cell(row["steps"]),
        _cell(row["success"], "yes" if row["success"] else "no"),
        _cell(ret, "-" if ret is None else f"{ret:.3f}"),
        _cell(row["verified"], "yes" if row["verified"] else "DIVERGES"),
    ]
    if dataset:
        cells.insert(1, _cell(row.get("kind") or "", row.get("kind") or ""))
    status = "success" if row["success"] else "failure"
    flag = "" if row["verified"] else " divergent"
    return f'<tr class="{status}{flag}">' + "".join(cells) + "</tr>"


def _counts(counts: dict[str, dict[str, int]]) -> str:
    blocks = []
    for dimension, values in counts.items():
        rows = "".join(f"<tr><td>{escape(k)}</td><td>{v}</td></tr>" for k, v in values.items())
        blocks.append(f'<table class="count" data-dimension="{escape(dimension)}"><thead><tr><th>{escape(dimension)}</th><th>episodes</th></tr></thead><tbody>{rows}</tbody></table>')
    return '<section id="counts"><h2>The corpus</h2><div class="counts">' + "".join(blocks) + "</div></section>"


def overview_page(site: dict[str, Any]) -> str:
    """The overview: the episodes (sortable, filterable), the plot, a dataset's counts."""
    rows = site["rows"]
    dataset = site["kind"] == "dataset" or any(r.get("kind") for r in rows)
    divergent = [r for r in rows if not r["verified"]]
    if divergent:
        banner = (f'<div id="banner" class="banner divergent" role="alert">REPLAY DIVERGES in {len(divergent)} of {len(rows)} episodes: '
                  + "; ".join(escape(r["divergence"] or "") for r in divergent[:5]) + ("; ..." if len(divergent) > 5 else "") + "</div>")
    else:
        banner = f'<div id="banner" class="banner ok">all {len(rows)} episodes replayed to their recorded state hashes</div>'
    heads = ["episode", "task", "seed", "steps", "success", "return", "verified"]
    if dataset:
        heads.insert(1, "kind")
    head = "".join(f'<th data-col="{i}" data-type="{"num" if h in ("seed", "steps", "return") else "text"}">{h}</th>' for i, h in enumerate(heads))
    success = sum(r["success"] for r in rows)
    plot = f'<img id="plot" src="{escape(site["plot"])}" alt="episode length against success per task">'
    return (
        _head(f"{site['title']} - cwgym view", "static/viewer.css")
        + '<body class="overview">\n'
        + f'<header><h1 id="title">{escape(site["title"])}</h1><span class="meta">{escape(site["kind"])}: {len(rows)} episodes, '
        + f'{success} successful, frames: {escape(site["frames"])}</span></header>\n'
        + banner + "\n"
        + '<nav class="filters"><input id="filter" type="search" placeholder="filter: any text of a row" aria-label="filter">'
        + '<select id="outcome-filter" aria-label="outcome"><option value="">all</option><option value="success">successes</option>'
        + '<option value="failure">failures</option><option value="divergent">divergent</option></select> <span id="shown"></span></nav>\n'
        + f'<table id="episodes"><thead><tr>{head}</tr></thead><tbody>'
        + "\n".join(_row(r, dataset) for r in rows) + "</tbody></table>\n"
        + f'<section id="plot-section"><h2>Episode length against success</h2>{plot}</section>\n'
        + (_counts(site["counts"]) if site.get("counts") else "") + "\n"
        + '<script src="static/overview.js"></script>\n</body></html>\n'
    )
