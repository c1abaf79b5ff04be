"""``df``: report file system disk space usage (GNU coreutils), over a fixed, documented
table.

Every simulated machine has the same three mounts:

==============  =====  ===========  ==========================================
Filesystem      Type   Mounted on   Size
==============  =====  ===========  ==========================================
tmpfs           tmpfs  /run         806,432 KiB, 1,496 KiB used
/dev/sda1       ext4   /            61,202,244 KiB (about 59 GiB)
tmpfs           tmpfs  /dev/shm     4,032,156 KiB, none used
==============  =====  ===========  ==========================================

The root file system holds the machine's files: its used space is a fixed 9,437,184 KiB
of operating system plus the 4 KiB blocks of every inode in the simulated file system
(the ``_fsutil`` disk model), so writing files makes ``df`` grow. 5% of the root file
system is reserved for root, as ext4 does, so Used + Avail is less than Size. Every path
of the simulated tree lives on ``/`` (``/run`` and ``/dev/shm`` are listed, not modelled).
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import blocks_512, ceil_div, gnu_spec, human, q
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError

SPEC = gnu_spec(
    "ahHiklPTt:x:B:",
    {
        "all": "a",
        "human-readable": "h",
        "si": "H",
        "inodes": "i",
        "local": "l",
        "portability": "P",
        "print-type": "T",
        "type=": "t",
        "exclude-type=": "x",
        "total": "total",
        "block-size=": "B",
        "sync": "sync",
        "no-sync": "sync",
    },
    unsupported=("--output", "-v"),
)
ROOT_TOTAL_K = 61_202_244
ROOT_BASE_USED_K = 9_437_184
ROOT_RESERVED_K = ROOT_TOTAL_K * 5 // 100
ROOT_INODES = 3_825_664
ROOT_BASE_INODES = 182_530


def _root_usage(ctx: CommandContext) -> tuple[int, int]:
    """(used KiB, used inodes) of the root file system, from the whole simulated tree."""
    fs = ctx.fs.fs
    blocks = 0
    count = 0
    for _, inode in fs.iter_tree("/"):
        blocks += blocks_512(inode.to_stat())
        count += 1
    return ROOT_BASE_USED_K + ceil_div(blocks, 2), ROOT_BASE_INODES + count


def mount_table(ctx: CommandContext) -> list[dict]:
    """The three mounts with their sizes and use now (shared with stat -f)."""
    used, iused = _root_usage(ctx)
    return [
        {
            "source": "tmpfs",
            "type": "tmpfs",
            "target": "/run",
            "size": 806_432,
            "used": 1_496,
            "avail": 804_936,
            "itotal": 1_007_979,
            "iused": 1_035,
        },
        {
            "source": "/dev/sda1",
            "type": "ext4",
            "target": "/",
            "size": ROOT_TOTAL_K,
            "used": used,
            "avail": max(0, ROOT_TOTAL_K - used - ROOT_RESERVED_K),
            "itotal": ROOT_INODES,
            "iused": iused,
        },
        {
            "source": "tmpfs",
            "type": "tmpfs",
            "target": "/dev/shm",
            "size": 4_032_156,
            "used": 0,
            "avail": 4_032_156,
            "itotal": 1_008_039,
            "iused": 1,
        },
    ]


def _percent(used: int, avail: int) -> str:
    total = used + avail
    if total == 0:
        return "-"
    return f"{ceil_div(used * 100, total)}%"


@command("df")
def df(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    human_mode: str | None = None
    inodes = portable = show_type = total = False
    block = 1024
    types: list[str] = []
    excluded: list[str] = []
    for key, value in opts:
        if key == "h":
            human_mode = "h"
        elif key == "H":
            human_mode = "H"
        elif key == "i":
            inodes = True
        elif key == "k":
            human_mode, block = None, 1024
        elif key == "P":
            portable = True
        elif key == "T":
            show_type = True
        elif key == "t":
            types.append(value or "")
        elif key == "x":
            excluded.append(value or "")
        elif key == "total":
            total = True
        elif key == "B":
            from cwgym.machine.commands.du import block_size

            size = block_size(value or "")
            if not size:
                ctx.error(f"invalid --block-size argument {q(value or '')}")
                return 1
            human_mode, block = None, size
    mounts = mount_table(ctx)
    status = 0
    if operands:
        chosen = []
        for operand in operands:
            try:
                ctx.fs.stat(operand, ctx.cwd)
            except FsError as exc:
                ctx.error(f"{operand}: {exc.strerror_text}")
                status = 1
                continue
            chosen.append(mounts[1])
        mounts = chosen
        if not mounts:
            return status
    mounts = [m for m in mounts if (not types or m["type"] in types) and m["type"] not in excluded]
    if not mounts:
        ctx.error("no file systems processed")
        return 1
    if total:
        mounts = [
            *mounts,
            {
                "source": "total",
                "type": "-",
                "target": "-",
                "size": sum(m["size"] for m in mounts),
                "used": sum(m["used"] for m in mounts),
                "avail": sum(m["avail"] for m in mounts),
                "itotal": sum(m["itotal"] for m in mounts),
                "iused": sum(m["iused"] for m in mounts),
            },
        ]

    def amount(kib: int) -> str:
        if human_mode is not None:
            return human(kib * 1024, si=human_mode == "H")
        return str(ceil_div(kib * 1024, block))

    def count(n: int) -> str:
        if human_mode is not None:
            return human(n, si=human_mode == "H")
        return str(n)

    if inodes:
        header = ["Filesystem", "Inodes", "IUsed", "IFree", "IUse%", "Mounted on"]
        minimum = [14, 5, 5, 5, 4, 0]
        rows = [
            [
                m["source"],
                count(m["itotal"]),
                count(m["iused"]),
                count(m["itotal"] - m["iused"]),
                _percent(m["iused"], m["itotal"] - m["iused"]),
                m["target"],
            ]
            for m in mounts
        ]
    else:
        if human_mode is not None:
            size_head = "Size"
        elif portable:
            size_head = f"{block}-blocks" if block != 1024 else "1024-blocks"
        else:
            size_head = _block_header(block)
        avail_head = "Avail" if human_mode is not None else "Available"
        pct_head = "Capacity" if portable else "Use%"
        header = ["Filesystem", size_head, "Used", avail_head, pct_head, "Mounted on"]
        minimum = [14, 5, 5, 5, 4, 0]
        rows = [
            [
                m["source"],
                amount(m["size"]),
                amount(m["used"]),
                amount(m["avail"]),
                _percent(m["used"], m["avail"]),
                m["target"],
            ]
            for m in mounts
        ]
    if show_type:
        header.insert(1, "Type")
        minimum.insert(1, 4)
        for row, m in zip(rows, mounts):
            row.insert(1, m["type"])
    widths = [max(minimum[i], *(len(r[i]) for r in [header, *rows])) for i in range(len(header))]
    left = {0, len(header) - 1} | ({1} if show_type else set())
    for row in [header, *rows]:
        cells = []
        for i, cell in enumerate(row):
            if i == len(row) - 1:
                cells.append(cell)
            elif i in left:
                cells.append(cell.ljust(widths[i]))
            else:
                cells.append(cell.rjust(widths[i]))
        ctx.out(" ".join(cells) + "\n")
    return status


def _block_header(block: int) -> str:
    for suffix, size in (
        ("E", 1024**6),
        ("P", 1024**5),
        ("T", 1024**4),
        ("G", 1024**3),
        ("M", 1024**2),
        ("K", 1024),
    ):
        if block % size == 0:
            return f"{block // size}{suffix}-blocks"
    return f"{block}-blocks"
