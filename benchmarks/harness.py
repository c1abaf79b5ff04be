"""Timing rows: p50/p95 of per-call time, side by side with the reference engine when present.

A row is measured by calling a prepared function many times after a warm-up; only the call
is timed. When the ``computerworld`` package (the reference Rust engine) is importable in
this benchmark environment, the same operation runs on it in the same process run and the
ratio cwgym/reference is reported. cwgym itself never imports it.
"""

from __future__ import annotations

import importlib
import json
import multiprocessing
import platform
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"

Setup = Callable[[], Callable[[], Any]]


@dataclass
class Row:
    group: str
    name: str
    world: str
    n: int
    p50_ms: float
    p95_ms: float
    ref_p50_ms: float | None = None
    ratio: float | None = None
    unit: str = "ms"
    note: str = ""
    extra: dict = field(default_factory=dict)


def reference_engine() -> Any | None:
    """The reference engine module if installed here, else ``None``."""
    try:
        return importlib.import_module("computerworld")
    except ImportError:
        return None


def timings(setup: Setup, n: int, warmup: int = 3) -> list[float]:
    """Per-call times in milliseconds of the function ``setup()`` returns."""
    fn = setup()
    for _ in range(warmup):
        fn()
    out = []
    clock = time.perf_counter_ns
    for _ in range(n):
        start = clock()
        fn()
        out.append((clock() - start) / 1e6)
    return out


def isolated(target: str, *args: Any) -> Any:
    """``module:function`` called with ``args`` in a fresh interpreter; its return value.

    Rows compared with each other (one vector env against another) are each measured in
    a process of their own, so none pays for another's heap (a garbage collection walks
    every live object in its process) or inherits its warm caches.
    """
    ctx = multiprocessing.get_context("spawn")
    receive, send = ctx.Pipe(duplex=False)
    process = ctx.Process(target=_isolated_main, args=(target, args, send))
    process.start()
    send.close()
    try:
        result = receive.recv()
    except EOFError:
        process.join()
        raise RuntimeError(f"the isolated run of {target}{args} died (exit code {process.exitcode})") from None
    process.join()
    if isinstance(result, BaseException):
        raise result
    return result


def _isolated_main(target: str, args: tuple, send: Any) -> None:
    module, name = target.split(":")
    try:
        result = getattr(importlib.import_module(module), name)(*args)
    except BaseException as exc:  # handed back to the parent, which raises it
        result = exc
    send.send(result)
    send.close()


def row_of(group: str, name: str, world: str, times: list[float]) -> Row:
    """A row from per-call times measured elsewhere (see :func:`isolated`)."""
    row = Row(group, name, world, len(times), percentile(times, 0.5), percentile(times, 0.95))
    row.extra["mean_ms"] = sum(times) / len(times)
    return row


def rate_note(row: Row, unit: str = "steps/s") -> str:
    """``"N steps/s (mean)"``, with the reference's rate measured the same way when it ran:
    a rate is calls over total time, so slow calls count (a median would hide them)."""
    note = f"{1000.0 / row.extra['mean_ms']:.0f} {unit} (mean)"
    if row.extra.get("ref_mean_ms"):
        note += f"; reference {1000.0 / row.extra['ref_mean_ms']:.0f} {unit}"
    return note


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def measure(group: str, name: str, world: str, setup: Setup, n: int, ref_setup: Setup | None = None, warmup: int = 3) -> Row:
    """Time ``n`` calls after ``warmup`` untimed ones (a steady-state rate should not pay
    one-time costs such as a module imported on first use)."""
    ours = timings(setup, n, warmup)
    row = Row(group, name, world, n, percentile(ours, 0.5), percentile(ours, 0.95))
    row.extra["mean_ms"] = sum(ours) / len(ours)  # throughput is n over the summed time, slow calls included
    if ref_setup is not None:
        try:
            theirs = timings(ref_setup, n)
        except Exception as exc:  # the reference may not support an operation or a world
            row.note = f"reference failed: {type(exc).__name__}: {exc}"[:160]
        else:
            row.ref_p50_ms = percentile(theirs, 0.5)
            row.ratio = row.p50_ms / row.ref_p50_ms if row.ref_p50_ms else None
            row.extra["ref_mean_ms"] = sum(theirs) / len(theirs)
    return row


def machine_info() -> dict[str, Any]:
    ref = reference_engine()
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": _cpus(),
        "reference": getattr(ref, "__version__", None) if ref else None,
    }


def _cpus() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 0)


def fmt(value: float | None, unit: str = "ms") -> str:
    if value is None:
        return "–"
    if unit != "ms":
        return f"{value:,.1f}"
    if value < 0.1:
        return f"{value * 1000:.1f} µs"
    return f"{value:.3f} ms"


def write(group: str, rows: list[Row]) -> Path:
    """Write ``results/<group>.json`` and regenerate ``results/README.md`` from every JSON."""
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{group}.json"
    path.write_text(json.dumps({"machine": machine_info(), "rows": [asdict(r) for r in rows]}, indent=2) + "\n")
    _write_table()
    return path


def _write_table() -> None:
    lines = [
        "# Benchmark results",
        "",
        "Written by `python -m benchmarks`; p50/p95 of per-call time (rates in the notes are from",
        "the mean call). The ratio column is",
        "cwgym's p50 over the reference engine's, measured in the same run when `computerworld`",
        "is installed (blank otherwise). Machines are shared and noisy: compare rows of one run.",
        "",
    ]
    for path in sorted(RESULTS.glob("*.json")):
        data = json.loads(path.read_text())
        m = data["machine"]
        lines += [f"## {path.stem}", "", f"Python {m['python']}, {m['cpus']} CPUs, {m['platform']}; reference: {m['reference'] or 'not installed'}", ""]
        lines += ["| row | world | n | p50 | p95 | reference p50 | ratio | note |", "|---|---|---|---|---|---|---|---|"]
        for r in data["rows"]:
            unit = r.get("unit", "ms")
            ratio = f"{r['ratio']:.3g}×" if r.get("ratio") else "–"
            lines.append(
                f"| {r['name']} | {r['world']} | {r['n']} | {fmt(r['p50_ms'], unit)}{'' if unit == 'ms' else ' ' + unit} | "
                f"{fmt(r['p95_ms'], unit)}{'' if unit == 'ms' else ' ' + unit} | {fmt(r.get('ref_p50_ms'), unit)} | {ratio} | {r.get('note', '')} |"
            )
        lines.append("")
    (RESULTS / "README.md").write_text("\n".join(lines))
